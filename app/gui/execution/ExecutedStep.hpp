#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::gui {

/// An executed step of a run in a cycle window, as the BSP bands and the per-IPU rows draw it:
/// its position in the run, program step, start and length in cycles, and BSP phase.
struct ExecutedStep {
    std::int64_t seq = 0;
    std::int64_t stepId = 0;
    std::uint64_t startCycle = 0;
    std::uint64_t cycles = 0;
    std::string phase;
};

/// Appends a `Step` (an ExecutedStep with the vector of busy cycles `busy`) per span of `spans`:
/// each unit (tile or IPU) works for its own cycles of the step, taken from
/// `cycles[span.seq - spans.front().seq]`, capped at the step's cycles and, when `units` is
/// given, padded with zeros or cut to it. Returns false when some step has no such cycles (not
/// recorded); its vector stays empty.
template <class Step>
bool appendExecutedSteps(std::vector<Step>& steps, const std::vector<report::RunStepSpan>& spans,
                         const std::vector<std::vector<std::uint64_t>>& cycles,
                         std::optional<std::size_t> units, std::vector<std::uint64_t> Step::*busy) {
    bool recorded = true;
    steps.reserve(steps.size() + spans.size());
    for (const auto& s : spans) {
        Step step;
        static_cast<ExecutedStep&>(step) = {s.seq, s.stepId, s.startCycle, s.cycles, s.phase};
        const auto at = std::size_t(s.seq - spans.front().seq);
        if (at < cycles.size() && !cycles[at].empty()) {
            std::vector<std::uint64_t>& unitCycles = step.*busy;
            unitCycles = cycles[at];
            if (units)
                unitCycles.resize(*units, 0);
            for (auto& c : unitCycles)
                c = std::min(c, s.cycles);
        } else {
            recorded = false;
        }
        steps.push_back(std::move(step));
    }
    return recorded;
}

} // namespace tilescope::gui
