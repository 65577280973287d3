#include "ExecutionRange.hpp"

#include "ExecutionModel.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace tilescope::gui {

RangeSummary RangeSummary::fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                                 std::uint64_t firstCycle, std::uint64_t endCycle) {
    RangeSummary out;
    out.firstCycle = firstCycle;
    out.endCycle = std::max(firstCycle, endCycle);
    if (out.endCycle == out.firstCycle)
        return out;
    const auto spans = reader.runStepSpans(run, out.firstCycle, out.endCycle, kMaxSteps + 1);
    out.truncated = std::int64_t(spans.size()) > kMaxSteps;
    const std::size_t used = std::min(spans.size(), std::size_t(kMaxSteps));
    std::map<std::int64_t, Program> programs;
    std::unordered_map<std::int64_t, std::uint64_t> stepsPerId; // executions of each step
    for (std::size_t i = 0; i < used; ++i) {
        const report::RunStepSpan& s = spans[i];
        const std::uint64_t begin = std::max(s.startCycle, out.firstCycle);
        const std::uint64_t end = std::min(s.startCycle + s.cycles, out.endCycle);
        // Spans overlap the range, except zero-length steps at its edge: counted, 0 cycles.
        const std::uint64_t inside = end > begin ? end - begin : 0;
        ++out.steps;
        out.phaseCycles[std::size_t(ExecutionModel::phaseFromName(s.phase))] += inside;
        Program& p = programs[s.programId];
        p.programId = s.programId;
        p.cycles += inside;
        ++p.steps;
        ++stepsPerId[s.stepId];
    }
    // Bytes per program step, read once for the span of step ids the range executed.
    if (!stepsPerId.empty()) {
        std::int64_t lo = stepsPerId.begin()->first, hi = lo;
        for (const auto& [id, n] : stepsPerId) {
            lo = std::min(lo, id);
            hi = std::max(hi, id);
        }
        for (const report::StepRecord& s : reader.steps(lo, hi - lo + 1))
            if (const auto it = stepsPerId.find(s.id); it != stepsPerId.end())
                out.exchangeBytes += s.exchangeBytes * it->second;
    }
    for (auto& [id, p] : programs) {
        if (const auto record = reader.program(id))
            p.name = record->name.empty() ? record->kind : record->name;
        out.programs.push_back(std::move(p));
    }
    std::stable_sort(out.programs.begin(), out.programs.end(),
                     [](const Program& a, const Program& b) { return a.cycles > b.cycles; });
    return out;
}

} // namespace tilescope::gui
