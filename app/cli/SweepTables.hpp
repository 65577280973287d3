#pragma once
// The sweep table for people (text, markdown) or scripts (json), shared by `sweep` and
// `sweep-summary`.

#include "tilescope/sweep/SweepSummary.hpp"

#include <string>

namespace tilescope::cli {

/// Prints the summary in `format` (text | json | markdown) to standard output.
void printSweepSummary(const sweep::SweepSummary& summary, const std::string& format);

} // namespace tilescope::cli
