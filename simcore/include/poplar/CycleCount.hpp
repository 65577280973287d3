#pragma once
// Cycle counters read by the program itself: the cycles a sequence takes on a tile, or the tile's
// cycle counter at a point of a program. Values come from the simulator's cycle model (the BSP
// time of the run: every step advances it by its slowest tile's estimated cycles).

#include "poplar/DebugContext.hpp"
#include "poplar/Graph.hpp"
#include "poplar/Program.hpp"
#include "poplar/Tensor.hpp"

#include <vector>

namespace poplar {

/// Wraps the programs of `prog` so that, when it runs, the cycles they take on `tile` are
/// written to the returned UNSIGNED_INT tensor of 2 elements mapped to `tile`: element 0 holds
/// the lower and element 1 the upper 32 bits. A sync of `syncType` comes first (not counted).
/// Throws index_error for a tile the graph does not have.
Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext = {});
/// The older form without a sync type: an internal sync.
Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile,
                  const DebugContext& debugContext = {});

/// Appends to `prog` a sync of `syncType` and a reading of `tile`'s cycle counter into the
/// returned UNSIGNED_INT tensor of 2 elements (lower, upper 32 bits). The counter starts at 0
/// when Engine::run starts, so the difference of two stamps is the cycles between them.
Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext = {});
/// One stamp per tile in `tiles`, all taken at the same point of `prog`.
std::vector<Tensor> cycleStamp(Graph& graph, program::Sequence& prog,
                               const std::vector<unsigned>& tiles, SyncType syncType,
                               const DebugContext& debugContext = {});

} // namespace poplar
