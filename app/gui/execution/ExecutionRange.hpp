#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::gui {

/// What ran in a cycle range of a run, for the Execution Trace's Summary/Details panel: the
/// executed steps that overlap [firstCycle, endCycle), their cycles inside the range by BSP phase
/// and by program (largest first), and the bytes those steps exchange (whole steps: a step moves
/// its bytes once, wherever the range cuts it). Built from the run's executed steps on a worker;
/// at most kMaxSteps are read, `truncated` says when the range held more.
struct RangeSummary {
    static constexpr std::int64_t kMaxSteps = 2'000'000;
    struct Program {
        std::int64_t programId = -1;
        std::string name; // the program's name, or its kind when it has none
        std::uint64_t cycles = 0;
        std::uint64_t steps = 0;
    };
    std::uint64_t firstCycle = 0;
    std::uint64_t endCycle = 0;
    std::uint64_t steps = 0;
    std::array<std::uint64_t, 4> phaseCycles{}; // compute, exchange, sync, stream
    std::uint64_t exchangeBytes = 0;
    std::vector<Program> programs;
    bool truncated = false;

    std::uint64_t cycles() const {
        return phaseCycles[0] + phaseCycles[1] + phaseCycles[2] + phaseCycles[3];
    }
    static RangeSummary fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                              std::uint64_t firstCycle, std::uint64_t endCycle);
};

} // namespace tilescope::gui
