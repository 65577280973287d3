#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::gui {

/// Each IPU's busy cycles of every executed step in a cycle window, for the Execution Trace's
/// per-IPU rows: a step lasts as long as its slowest IPU; an IPU works for its own cycles of it
/// (RunStepRecord::perIpu) and waits for the rest. Only the per-IPU series are read, and only
/// when the window holds at most `maxSteps` steps (zoomed in); otherwise `tooManySteps` is set and
/// nothing is read, as the run_lod pyramid keeps no per-IPU figures.
struct IpuRows {
    struct Step {
        std::int64_t seq = 0;
        std::int64_t stepId = 0;
        std::uint64_t startCycle = 0;
        std::uint64_t cycles = 0;
        std::string phase;
        std::vector<std::uint64_t> ipuCycles; // one per IPU; empty: not recorded
    };

    std::uint32_t ipus = 0;
    bool tooManySteps = false;
    bool recorded = true; // false when a step of the window has no per-IPU cycles
    std::vector<Step> steps;

    static IpuRows fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                         std::uint64_t firstCycle, std::uint64_t endCycle, std::int64_t maxSteps);
};

} // namespace tilescope::gui
