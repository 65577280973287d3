#include "FlameAggregate.hpp"

#include <algorithm>

namespace tilescope::gui {

std::vector<TimelineModel::Box>
mergeThreadFlames(const std::vector<std::vector<TimelineModel::Box>>& perThread) {
    std::vector<TimelineModel::Box> all;
    for (const auto& boxes : perThread)
        all.insert(all.end(), boxes.begin(), boxes.end());
    std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return a.startNs < b.startNs || (a.startNs == b.startNs && a.endNs > b.endNs);
    });
    std::vector<TimelineModel::Box> out;
    out.reserve(all.size());
    for (const auto& b : all) {
        // Strict overlap only: boxes that merely touch stay apart, as they are on one thread.
        if (out.empty() || b.startNs >= out.back().endNs) {
            out.push_back(b);
            continue;
        }
        auto& m = out.back();
        if (b.endNs - b.startNs > m.endNs - m.startNs)
            m.nameId = b.nameId;
        m.endNs = std::max(m.endNs, b.endNs);
        m.count += b.count;
        m.busy = std::max(m.busy, b.busy);
        m.aggregated = true;
        m.eventId = 0;
        m.kind = report::EventKind::Complete;
    }
    return out;
}

} // namespace tilescope::gui
