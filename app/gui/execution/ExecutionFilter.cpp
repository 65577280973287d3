#include "ExecutionFilter.hpp"

#include "ExecutionModel.hpp"

#include <algorithm>
#include <limits>

namespace tilescope::gui {

bool StepFilter::active() const {
    return !text.empty() || std::find(phases.begin(), phases.end(), false) != phases.end();
}

std::uint64_t StepFilterIndex::Figures::totalCycles() const {
    std::uint64_t sum = 0;
    for (auto c : cycles)
        sum += c;
    return sum;
}

std::uint64_t StepFilterIndex::Figures::totalSteps() const {
    std::uint64_t sum = 0;
    for (auto s : steps)
        sum += s;
    return sum;
}

double StepFilterIndex::Figures::computeTileBalance() const {
    const auto compute = cycles[ExecutionModel::Compute];
    return compute ? computeBalanceCycles / double(compute) : 1.0;
}

StepFilterIndex StepFilterIndex::build(const report::ProfileReader& reader,
                                       const report::RunRecord& run, const StepFilter& filter) {
    StepFilterIndex index;
    index.filter_ = filter;
    std::vector<std::string> phases;
    for (int p = 0; p < StepFilter::kPhases; ++p)
        if (filter.phases[std::size_t(p)])
            phases.push_back(p == ExecutionModel::Compute    ? "compute"
                             : p == ExecutionModel::Exchange ? "exchange"
                             : p == ExecutionModel::Sync     ? "sync"
                                                             : "stream");
    if (phases.empty())
        return index; // nothing can match
    if (phases.size() == std::size_t(StepFilter::kPhases))
        phases.clear(); // every phase: no phase condition at all
    const auto matching = reader.stepsMatching(filter.text, phases);
    if (matching.empty())
        return index;
    index.member_.assign(std::size_t(std::max<std::int64_t>(0, matching.back().stepId)) + 1, false);
    std::vector<std::uint64_t> bytesOf(index.member_.size(), 0);
    for (const report::StepMatch& m : matching) {
        if (m.stepId < 0)
            continue;
        index.member_[std::size_t(m.stepId)] = true;
        bytesOf[std::size_t(m.stepId)] = m.exchangeBytes;
    }
    index.figures_.loweredSteps = matching.size();
    for (auto& s : index.spans_)
        s.before.push_back(0);
    // One pass over the run's executed steps (no per-tile series): what matches goes to the
    // spans of its phase and to the figures.
    for (const report::RunStepSpan& s :
         reader.runStepSpans(run, 0, std::numeric_limits<std::uint64_t>::max(),
                             std::numeric_limits<std::int64_t>::max())) {
        if (!index.matches(s.stepId))
            continue;
        const auto p = std::size_t(ExecutionModel::phaseFromName(s.phase));
        Spans& spans = index.spans_[p];
        spans.starts.push_back(s.startCycle);
        spans.ends.push_back(s.startCycle + s.cycles);
        spans.before.push_back(spans.before.back() + s.cycles);
        Figures& f = index.figures_;
        ++f.steps[p];
        f.cycles[p] += s.cycles;
        if (p == ExecutionModel::Compute)
            f.computeBalanceCycles += s.tileBalance * double(s.cycles);
        (p == ExecutionModel::Stream ? f.streamCopyBytes : f.exchangeBytes) +=
            bytesOf[std::size_t(s.stepId)];
    }
    return index;
}

std::array<double, StepFilter::kPhases>
StepFilterIndex::matchedCycles(std::uint64_t firstCycle, std::uint64_t endCycle) const {
    std::array<double, StepFilter::kPhases> out{};
    if (endCycle <= firstCycle)
        return out;
    for (std::size_t p = 0; p < spans_.size(); ++p) {
        const Spans& s = spans_[p];
        // Executed steps follow each other, so ends are sorted like starts.
        const auto lo = std::size_t(std::upper_bound(s.ends.begin(), s.ends.end(), firstCycle) -
                                    s.ends.begin());
        const auto hi = std::size_t(std::lower_bound(s.starts.begin(), s.starts.end(), endCycle) -
                                    s.starts.begin());
        if (hi <= lo)
            continue;
        double cycles = double(s.before[hi] - s.before[lo]);
        if (s.starts[lo] < firstCycle) // the first span starts before the range
            cycles -= double(firstCycle - s.starts[lo]);
        if (s.ends[hi - 1] > endCycle) // the last span ends after it
            cycles -= double(s.ends[hi - 1] - endCycle);
        out[p] = std::max(0.0, cycles);
    }
    return out;
}

} // namespace tilescope::gui
