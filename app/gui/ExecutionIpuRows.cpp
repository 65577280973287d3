#include "ExecutionIpuRows.hpp"

#include <algorithm>

namespace tilescope::gui {

IpuRows IpuRows::fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                       std::uint64_t firstCycle, std::uint64_t endCycle, std::int64_t maxSteps) {
    IpuRows rows;
    rows.ipus = reader.target().numIpus;
    if (endCycle <= firstCycle || rows.ipus == 0)
        return rows;
    const auto spans = reader.runStepSpans(run, firstCycle, endCycle, maxSteps + 1);
    if (std::int64_t(spans.size()) > maxSteps) {
        rows.tooManySteps = true;
        return rows;
    }
    if (spans.empty())
        return rows;
    const auto cycles = reader.runStepIpuCycles(run, spans.front().seq, std::int64_t(spans.size()));
    rows.steps.reserve(spans.size());
    for (const auto& s : spans) {
        Step step{s.seq, s.stepId, s.startCycle, s.cycles, s.phase, {}};
        const auto at = std::size_t(s.seq - spans.front().seq);
        if (at < cycles.size() && !cycles[at].empty()) {
            step.ipuCycles = cycles[at];
            step.ipuCycles.resize(rows.ipus, 0);
            for (auto& c : step.ipuCycles)
                c = std::min(c, s.cycles);
        } else {
            rows.recorded = false;
        }
        rows.steps.push_back(std::move(step));
    }
    return rows;
}

} // namespace tilescope::gui
