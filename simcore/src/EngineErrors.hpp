#pragma once
// Errors the Engine and compileGraph raise alike.

#include "poplar/exceptions.hpp"
#include "tilescope/capture/ProfileRecords.hpp"

namespace tilescope::sim {

/// The out-of-memory error for a compiled graph: the worst tile, its excess and what fills it.
poplar::graph_memory_allocation_error outOfMemoryError(const capture::CompileRecords& r);

} // namespace tilescope::sim
