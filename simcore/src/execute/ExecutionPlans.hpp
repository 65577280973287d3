#pragma once
// What the BSP engine precomputes at load so that running a program re-plans nothing: each
// vertex's gathered fields with their copy plans, each compute set as a list of calls with
// resolved compute functions cut into balanced chunks of whole tiles, and each Copy program as
// copy plans.

#include "tilescope/sim/CompiledGraph.hpp"
#include "tilescope/sim/CopyPlan.hpp"
#include "tilescope/sim/VertexType.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilescope::sim {

/// A vertex field item that is not one contiguous run on the vertex's own tile: it is gathered
/// into a buffer before compute() and written back after, as the device's exchange and
/// rearrangement code would. Remote items move in the exchange before any vertex of the compute
/// set runs and after all have run, so a vertex never sees another tile's writes of the same
/// compute set (as on the IPU) and results cannot depend on host thread scheduling.
struct Staging {
    /// The connected view, owned by the compiled graph's model (which outlives the engine's
    /// bindings): pointing at it rather than copying it keeps load() from duplicating the runs
    /// of every gathered connection.
    const TensorView* viewPtr = nullptr;
    const TensorView& view() const { return *viewPtr; }
    std::vector<std::byte> buffer;
    bool in = false, out = false;
    bool remote = false;
    void gather(const CopyPlan::Bases& bases) { CopyPlan::gatherNow(view(), bases, buffer.data()); }
    void scatter(const CopyPlan::Bases& bases) const {
        CopyPlan::scatterNow(buffer.data(), view(), bases);
    }
};

struct VertexInstance {
    void* object = nullptr;
    const VertexType* type = nullptr;
    std::vector<std::uint32_t> stagings;
    /// Elements the vertex's edges refer to: the weight that balances tiles over host threads.
    std::uint64_t edgeElements = 0;
};

/// One vertex of a compute set as the engine calls it: the codelet's compute function resolved
/// once, and the plans of its on-tile gathered fields.
struct VertexCall {
    void* object = nullptr;
    bool (*compute)(void*, unsigned) = nullptr;
    std::uint32_t workers = 1; ///< compute() calls, one per worker context for a MultiVertex
    std::uint32_t id = 0;
    std::uint32_t tile = 0; ///< where tilescope_vertex_add_cycles charges the call's cycles
    std::uint32_t firstIn = 0, endIn = 0;   ///< into ComputeSetPlan::localIn
    std::uint32_t firstOut = 0, endOut = 0; ///< into ComputeSetPlan::localOut
};

/// A compute set ready to run: its vertices in tile order as calls, cut into chunks of about
/// equal work (a chunk is whole tiles, so one tile's vertices run in order on one thread), and
/// its exchange as copy plans: remote inputs gathered before any vertex runs (chunked the same
/// way), remote outputs written back after all have run, in tile order.
struct ComputeSetPlan {
    std::vector<VertexCall> calls;
    std::vector<std::uint32_t> chunkStart; ///< call index where each chunk starts, plus the end
    std::vector<Staging*> localIn, localOut;
    std::vector<Staging*> remoteIn;
    std::vector<std::uint32_t> remoteInChunkStart;
    std::vector<const Staging*> remoteOut;
};

/// A Copy program's data move: direct when source and destination share no element, else
/// through a buffer (gather, then scatter) like the device.
struct CopyExecution {
    CopyPlan direct;
    CopyPlan gather, scatter;
    std::vector<std::byte> buffer;
};

/// Splits items with the given weights into at most `maxChunks` runs of consecutive items of
/// about equal total weight; returns the start of each run plus the end.
std::vector<std::uint32_t> balancedChunks(const std::vector<std::uint64_t>& weights,
                                          std::size_t maxChunks);

/// The plan of one compute set (its tile groups) over the engine's bound vertices and stagings;
/// MultiVertex compute() runs once per worker context (`workers`).
ComputeSetPlan planComputeSet(const std::vector<TileVertexGroup>& groups,
                              const std::vector<VertexInstance>& vertices,
                              std::vector<Staging>& stagings, unsigned workers,
                              std::size_t maxChunks);

/// Fills `out` with the plans of one Copy program over storage at `bases`.
void planCopy(const CopyAction& copy, const CopyPlan::Bases& bases, CopyExecution& out);

} // namespace tilescope::sim
