#pragma once
// Figures read from small programs compiled by the simulator, for the calibration cases.

#include <cstdint>
#include <functional>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <string>
#include <tilescope/capture/ProfileRecords.hpp>

namespace tilescope::calibration {

/// Builds a graph on a target of `tiles` tiles of `arch` ("ipu1", "ipu2") with the PopLibs
/// codelets added, lets `build` add to it and its program, compiles it (no device needed) and
/// returns the estimated cycles on `tile` of the first compute set whose name ends in
/// `computeSet`. Throws std::runtime_error naming the compute set when there is none.
std::uint64_t
computeSetCycles(const std::string& arch, unsigned tiles,
                 const std::function<void(poplar::Graph&, poplar::program::Sequence&)>& build,
                 const std::string& computeSet, unsigned tile = 0);

/// Builds and compiles a program as computeSetCycles() does and returns the mean bytes of memory
/// `category` over the tiles that hold any of it ("per used tile", as the figures read off
/// PopVision's per-tile memory graph count them). Throws std::runtime_error when no tile holds
/// that category.
double
meanBytesPerUsedTile(const std::string& arch, unsigned tiles,
                     const std::function<void(poplar::Graph&, poplar::program::Sequence&)>& build,
                     capture::MemoryCategory category);

} // namespace tilescope::calibration
