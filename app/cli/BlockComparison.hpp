#pragma once
// The lightweight-profiling part of `compare`: blocks matched by kind and program name, with
// their execution counts and mean cycles per execution in both reports.

#include "ComparisonTables.hpp"
#include "tilescope/report/ProfileBlocks.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tilescope::cli {

struct BlockDelta {
    report::BlockKind kind = report::BlockKind::Common;
    std::string name;
    report::ComparedValue count;
    report::ComparedValue meanCycles; ///< rounded to whole cycles
    report::ComparedValue maxCycles;
};

/// Rows of both reports' block statistics joined by (kind, name); overflows are left out.
std::vector<BlockDelta> compareBlocks(const std::vector<report::BlockStatistics>& source,
                                      const std::vector<report::BlockStatistics>& target);
nlohmann::json blockDeltasJson(const std::vector<BlockDelta>& rows);
/// Prints nothing when neither report has blocks.
void printBlockDeltas(const std::vector<BlockDelta>& rows, CompareFormat format);

} // namespace tilescope::cli
