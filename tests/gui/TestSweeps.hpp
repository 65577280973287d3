#pragma once
// A generated what-if sweep folder shared by the Sweep view tests (local and over SSH).

#include <cstddef>
#include <filesystem>

namespace tilescope::gui::test {

/// Writes a sweep folder of `n` variants over arg:seed with synthetic reports (seeds differ, so
/// cycles and memory differ): the last variant failed without a report, the one before it does
/// not fit. With `withSummary`, also the summary.json a finished `tilescope-cli sweep` writes.
/// Returns `dir`.
std::filesystem::path makeSyntheticSweep(const std::filesystem::path& dir, std::size_t n,
                                         bool withSummary);

} // namespace tilescope::gui::test
