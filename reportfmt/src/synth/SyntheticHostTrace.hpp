#pragma once

#include "tilescope/report/SyntheticReport.hpp"

namespace tilescope::report {

/// Writes a synthetic host trace with `spec.hostEvents` nested events over `spec.hostThreads`
/// threads, plus a host-memory counter, deterministic for the spec's seed.
void writeSyntheticHostTrace(const std::filesystem::path& path, const SyntheticSpec& spec,
                             const std::function<void(double)>& progress);

} // namespace tilescope::report
