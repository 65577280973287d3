#pragma once
// Compiles a graph and its programs: checks mappings and connections, lowers programs to BSP
// steps, runs liveness, lays out every tile's memory and fills the compile records.

#include "tilescope/sim/BlockRecorder.hpp"
#include "tilescope/sim/CompiledGraph.hpp"
#include "tilescope/sim/CostModel.hpp"

#include <memory>
#include <vector>

namespace tilescope::sim {

struct CompileOptions {
    bool instrument = false; ///< debug.instrument: account cycle-counter memory per step
    /// Lightweight profiling: the block buffers and edge code are accounted when it selects any.
    BlockSettings blocks;
    CostModel costs;
    /// The model programs were built against, when compiling a snapshot of it: program nodes
    /// refer to their graph by this address.
    const void* graphIdentity = nullptr;
};

class GraphCompiler {
public:
    /// Throws poplar errors for unmapped tensors or vertices, unconnected fields and programs
    /// that refer to another graph. Out-of-memory tiles do not throw here: they are listed in
    /// records.tilesOutOfMemory so the caller can write a profile first.
    static std::unique_ptr<CompiledGraph> compile(std::shared_ptr<const GraphModel> model,
                                                  const std::vector<ProgramNodePtr>& programs,
                                                  const CompileOptions& options);
};

} // namespace tilescope::sim
