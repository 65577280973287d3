// Host traces compared by event name: one grouped scan of each event table.

#include "ComparisonQueries.hpp"
#include "tilescope/report/ReportComparison.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace tilescope::report {
namespace {

double mean(std::uint64_t totalNs, std::uint64_t timed) {
    return timed == 0 ? 0.0 : static_cast<double>(totalNs) / static_cast<double>(timed);
}

} // namespace

HostTraceComparison compareHostTraces(const HostTraceReader& source,
                                      const HostTraceReader& target) {
    std::map<std::string, HostEventDelta> byName;
    for (const auto& e : compare::readEventStatistics(source)) {
        auto& d = byName[e.name];
        d.name = e.name;
        d.status = MatchStatus::Removed;
        d.count = {e.count, 0, true, false};
        d.timedCount = {e.timedCount, 0, true, false};
        d.totalNs = {e.totalNs, 0, true, false};
        d.sourceMeanNs = mean(e.totalNs, e.timedCount);
    }
    for (const auto& e : compare::readEventStatistics(target)) {
        auto [it, added] = byName.try_emplace(e.name);
        auto& d = it->second;
        if (added) {
            d.name = e.name;
            d.status = MatchStatus::Added;
            d.count.inSource = d.timedCount.inSource = d.totalNs.inSource = false;
        } else {
            d.status = MatchStatus::Matched;
        }
        d.count.target = e.count;
        d.timedCount.target = e.timedCount;
        d.totalNs.target = e.totalNs;
        d.count.inTarget = d.timedCount.inTarget = d.totalNs.inTarget = true;
        d.targetMeanNs = mean(e.totalNs, e.timedCount);
    }
    HostTraceComparison c;
    for (auto& [name, d] : byName) {
        (d.status == MatchStatus::Matched
             ? c.matched
             : (d.status == MatchStatus::Added ? c.added : c.removed))++;
        c.events.push_back(std::move(d));
    }
    // Largest change of total time first; the name keeps the order stable.
    std::stable_sort(c.events.begin(), c.events.end(), [](const auto& a, const auto& b) {
        return std::llabs(a.totalNs.difference()) > std::llabs(b.totalNs.difference());
    });
    return c;
}

} // namespace tilescope::report
