#pragma once
// The vertex records of a compiled graph: each vertex type with its instances per compute set and
// tile, and the memory the instances need outside their code. Besides the graph's own vertices
// these include the copy vertices Poplar adds for the on-tile parts of Copy programs.

#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/sim/CostModel.hpp"
#include "tilescope/sim/GraphModel.hpp"
#include "tilescope/sim/ProgramLowering.hpp"

#include <cstdint>
#include <vector>

namespace tilescope::sim {

/// Memory each vertex instance needs outside its code.
struct VertexMemory {
    std::uint64_t state = 0, descriptors = 0, fieldData = 0;
};

/// Per tile: the vertex types present (indices in CompileRecords::vertexTypes) and the memory of
/// the vertex instances.
struct TileVertexData {
    std::vector<std::vector<std::uint32_t>> typesOnTile;
    std::vector<VertexMemory> memory;
};

/// Fills the vertex type and instance records of `rec` (and its vertex and edge counts) from the
/// graph's vertices and the copy vertices of `copySets`.
TileVertexData recordVertices(const GraphModel& m, const CostModel& costs,
                              const std::vector<OnTileCopySet>& copySets,
                              capture::CompileRecords& rec);

} // namespace tilescope::sim
