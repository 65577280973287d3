#pragma once
// Liveness of variables over the lowered steps: which variables must hold their value for the
// whole program (always live) and, for the others, at which steps they are live.

#include "tilescope/sim/GraphModel.hpp"
#include "tilescope/sim/ProgramLowering.hpp"

#include <cstdint>
#include <vector>

namespace tilescope::sim {

/// Result of liveness: per variable whether it is always live and, if not, the steps it is live
/// at (sorted). A not-always-live variable occupies memory from the first to the last of them.
struct Liveness {
    std::vector<bool> alwaysLive;
    std::vector<std::vector<std::uint32_t>> liveSteps;
};

/// Backward data-flow over the control-flow graph of lowered steps (loops and branches included).
/// Always live: constants, host read/write handles, stream and print operands, variables with an
/// initial value, variables no program touches, and variables live where an entry point starts
/// (read before written, or carried from one Engine::run to the next).
class LivenessAnalysis {
public:
    static Liveness run(const GraphModel& model, const ProgramLowering& lowering);
};

} // namespace tilescope::sim
