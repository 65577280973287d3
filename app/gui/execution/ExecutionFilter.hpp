#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::gui {

/// What the Execution Trace's step filter asks for: a substring of the program name or step kind
/// (ASCII case ignored) and the phases kept (compute, exchange, sync, stream, as
/// ExecutionModel::Phase). Inactive when the text is empty and every phase is kept.
struct StepFilter {
    static constexpr int kPhases = 4;
    std::string text;
    std::array<bool, kPhases> phases{true, true, true, true};

    bool active() const;
    bool operator==(const StepFilter&) const = default;
};

/// A StepFilter resolved once against one run, so that drawing and window queries only look
/// things up. Holds the matching lowered steps as a membership table indexed by step id, and the
/// run's matching executed steps per phase (start, end, running cycle sums), from which the
/// matching cycles of any cycle range come exactly in O(log n), at any zoom: pyramid buckets
/// carry no per-step identity, so zoomed-out columns take their matching share from here. Also
/// the run's figures restricted to the matching steps. Built on a worker (a scan of the run's
/// executed steps without their per-tile series).
class StepFilterIndex {
public:
    /// Figures of the matching executed steps.
    struct Figures {
        std::uint64_t loweredSteps = 0; // matching lowered (program) steps
        std::array<std::uint64_t, StepFilter::kPhases> steps{};
        std::array<std::uint64_t, StepFilter::kPhases> cycles{};
        double computeBalanceCycles = 0; // tile balance x cycles over matching compute steps
        std::uint64_t exchangeBytes = 0; // matching exchanges
        std::uint64_t streamCopyBytes = 0;
        std::uint64_t totalCycles() const;
        std::uint64_t totalSteps() const;
        /// Cycle-weighted tile balance of the matching compute steps (1 when there are none).
        double computeTileBalance() const;
    };

    StepFilterIndex() = default;
    static StepFilterIndex build(const report::ProfileReader& reader, const report::RunRecord& run,
                                 const StepFilter& filter);

    const StepFilter& filter() const { return filter_; }
    bool matches(std::int64_t stepId) const {
        return stepId >= 0 && std::size_t(stepId) < member_.size() && member_[std::size_t(stepId)];
    }
    /// Cycles of matching executed steps inside [firstCycle, endCycle), per phase.
    std::array<double, StepFilter::kPhases> matchedCycles(std::uint64_t firstCycle,
                                                          std::uint64_t endCycle) const;
    const Figures& figures() const { return figures_; }

private:
    /// The matching executed steps of one phase in run order.
    struct Spans {
        std::vector<std::uint64_t> starts, ends;
        std::vector<std::uint64_t> before; // cycles of the spans before each (size + 1)
    };

    StepFilter filter_;
    std::vector<bool> member_;
    std::array<Spans, StepFilter::kPhases> spans_;
    Figures figures_;
};

} // namespace tilescope::gui
