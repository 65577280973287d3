#include "BlockSummary.hpp"

#include "Units.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace tilescope::cli {

nlohmann::json blockStatisticsJson(const std::vector<report::BlockStatistics>& stats) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& s : stats)
        out.push_back({{"kind", std::string(report::blockKindName(s.kind))},
                       {"name", s.name},
                       {"count", s.count},
                       {"min_cycles", s.minCycles},
                       {"mean_cycles", s.meanCycles},
                       {"max_cycles", s.maxCycles},
                       {"dropped", s.dropped}});
    return out;
}

void printBlockStatistics(const std::vector<report::BlockStatistics>& stats, double clockHz) {
    if (stats.empty())
        return;
    std::size_t nameWidth = 5;
    for (const auto& s : stats)
        nameWidth = std::max(nameWidth, s.name.size());
    fmt::print("\nBlocks (cycles per execution)\n");
    fmt::print("  {:<{}}  {:<15}  {:>10}  {:>12}  {:>12}  {:>12}\n", "Block", nameWidth, "Kind",
               "Count", "Min", "Mean", "Max");
    std::uint64_t dropped = 0;
    for (const auto& s : stats) {
        if (s.kind == report::BlockKind::Overflow) {
            dropped += s.dropped;
            continue;
        }
        fmt::print("  {:<{}}  {:<15}  {:>10}  {:>12}  {:>12}  {:>12}\n", s.name, nameWidth,
                   report::blockKindName(s.kind), groupDigits(s.count), groupDigits(s.minCycles),
                   groupDigits(static_cast<std::uint64_t>(std::llround(s.meanCycles))),
                   groupDigits(s.maxCycles));
    }
    if (dropped)
        fmt::print("  {} block records were lost to full block buffers (see "
                   "profiler.blocks.bufferSize and profiler.blocks.implicitFlush)\n",
                   groupDigits(dropped));
    if (clockHz > 0) {
        const auto longest = std::max_element(
            stats.begin(), stats.end(),
            [](const auto& a, const auto& b) { return a.maxCycles < b.maxCycles; });
        fmt::print("  Longest: {}, {}\n", longest->name,
                   formatCycles(longest->maxCycles, clockHz));
    }
}

} // namespace tilescope::cli
