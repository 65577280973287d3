#pragma once
// The lightweight-profiling part of `summary`: per block (kind and program name) the number of
// recorded executions and their min, mean and max cycles, and the records lost to full buffers.

#include "tilescope/report/ProfileBlocks.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace tilescope::cli {

nlohmann::json blockStatisticsJson(const std::vector<report::BlockStatistics>& stats);
/// Prints nothing when the report has no blocks.
void printBlockStatistics(const std::vector<report::BlockStatistics>& stats, double clockHz);

} // namespace tilescope::cli
