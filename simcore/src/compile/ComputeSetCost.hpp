#pragma once
// The exchange and compute cost of one compute set, shared by the files of ProgramLowering.

#include "tilescope/sim/ProgramLowering.hpp"

#include <string>
#include <vector>

namespace tilescope::sim {

/// Exchange and compute cost of one compute set, computed once however often it is executed.
struct ProgramLowering::ComputeSetCost {
    capture::PerTile computeCycles;
    /// remote inputs: sent plus received per tile, as the vertices read them
    capture::PerTile inBytes;
    capture::PerTile outBytes; ///< remote outputs
    ExchangeMessages in, out;
    std::string inType, outType; ///< element type of the temporaries ("char" when mixed)
    unsigned inTypeBytes = 1, outTypeBytes = 1;
    bool anyIn = false, anyOut = false;
    std::vector<const TensorView*> reads, writes;
};

} // namespace tilescope::sim
