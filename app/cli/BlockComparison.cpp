#include "BlockComparison.hpp"

#include "Units.hpp"

#include <cmath>
#include <map>
#include <utility>

namespace tilescope::cli {

std::vector<BlockDelta> compareBlocks(const std::vector<report::BlockStatistics>& source,
                                      const std::vector<report::BlockStatistics>& target) {
    std::map<std::pair<int, std::string>, BlockDelta> rows;
    auto add = [&](const std::vector<report::BlockStatistics>& stats, bool isSource) {
        for (const auto& s : stats) {
            if (s.kind == report::BlockKind::Overflow)
                continue;
            auto [it, inserted] =
                rows.try_emplace({static_cast<int>(s.kind), s.name}, BlockDelta{});
            auto& d = it->second;
            if (inserted) {
                d.kind = s.kind;
                d.name = s.name;
                for (auto* v : {&d.count, &d.meanCycles, &d.maxCycles})
                    v->inSource = v->inTarget = false;
            }
            const auto mean = static_cast<std::uint64_t>(std::llround(s.meanCycles));
            for (auto [v, x] : {std::pair{&d.count, s.count}, std::pair{&d.meanCycles, mean},
                                std::pair{&d.maxCycles, s.maxCycles}}) {
                (isSource ? v->source : v->target) = x;
                (isSource ? v->inSource : v->inTarget) = true;
            }
        }
    };
    add(source, true);
    add(target, false);
    std::vector<BlockDelta> out;
    for (auto& [key, d] : rows)
        out.push_back(std::move(d));
    return out;
}

nlohmann::json blockDeltasJson(const std::vector<BlockDelta>& rows) {
    auto value = [](const report::ComparedValue& v) {
        nlohmann::json j = {{"difference", v.difference()}};
        j["source"] = v.inSource ? nlohmann::json(v.source) : nlohmann::json();
        j["target"] = v.inTarget ? nlohmann::json(v.target) : nlohmann::json();
        return j;
    };
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : rows)
        out.push_back({{"kind", std::string(report::blockKindName(d.kind))},
                       {"name", d.name},
                       {"count", value(d.count)},
                       {"mean_cycles", value(d.meanCycles)},
                       {"max_cycles", value(d.maxCycles)}});
    return out;
}

void printBlockDeltas(const std::vector<BlockDelta>& rows, CompareFormat format) {
    if (rows.empty())
        return;
    ComparisonTable t{"Blocks (lightweight profiling)",
                      {"Block", "Kind", "Count A", "Count B", "Mean cycles A", "Mean cycles B",
                       "Difference", "Change"},
                      {},
                      2};
    for (const auto& d : rows) {
        std::vector<std::string> cells = {
            d.name, std::string(report::blockKindName(d.kind)),
            d.count.inSource ? groupDigits(d.count.source) : "-",
            d.count.inTarget ? groupDigits(d.count.target) : "-"};
        const auto mean = valueCells(d.meanCycles);
        cells.insert(cells.end(), mean.begin(), mean.end());
        t.rows.push_back(std::move(cells));
    }
    printTable(t, format);
}

} // namespace tilescope::cli
