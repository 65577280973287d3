#pragma once
// The BSP engine's state, shared by its files: BspEngine.cpp builds it (storage, vertex binding,
// plans) and serves the host; BspEngineSteps.cpp runs programs on it.

#include "ExecutionPlans.hpp"
#include "HostTransfers.hpp"
#include "tilescope/sim/BspEngine.hpp"

#include <functional>
#include <memory>
#include <ostream>
#include <tbb/task_arena.h>
#include <unordered_map>
#include <vector>

namespace tilescope::sim {

struct BspEngine::Impl {
    std::shared_ptr<const CompiledGraph> graph;
    const GraphModel& model;
    std::vector<std::vector<std::uint64_t>> storage; ///< per variable, 8-byte aligned
    std::vector<VertexInstance> vertices;
    std::vector<Staging> stagings;
    std::vector<std::unique_ptr<abi::Span[]>> spanLists;
    std::vector<std::vector<std::byte>> stateVectors;
    std::vector<StreamConnection> streams;
    RemoteBufferStore remoteBuffers;
    tbb::task_arena arena;
    CopyPlan::Bases bases; ///< storage address of each variable
    std::vector<ComputeSetPlan> computeSetPlans;
    std::vector<CopyExecution> copyExecutions;
    /// Per step: the compiled cycles per tile, shared by every record of the step, and their max.
    std::vector<std::shared_ptr<const capture::PerTile>> stepCycles;
    std::vector<std::uint64_t> stepMaxCycles;
    capture::RunRecord* run = nullptr;
    std::uint64_t cycle = 0;
    /// Steps the last recorded run of each entry point executed.
    std::unordered_map<unsigned, std::size_t> stepsPerRun;
    std::unordered_map<const ProgramNode*, std::vector<const std::vector<std::uint32_t>*>>
        sequenceLeaves;
    std::unique_ptr<BlockRecorder> blocks; ///< lightweight profiling, when selected
    /// Cycles vertices added to their tile in the last compute set (tilescope_vertex_add_cycles).
    std::vector<std::uint64_t> vertexCycles;
    bool anyVertexCycles = false;
    /// Performs CrossReplica steps (the BspEngine's handler).
    const std::function<void(std::uint32_t)>* crossReplica = nullptr;

    // Building the state and reading it (BspEngine.cpp).
    Impl(std::shared_ptr<const CompiledGraph> g, unsigned threads, unsigned replica);
    ~Impl();
    std::byte* elementPtr(std::uint32_t var, std::uint64_t element);
    bool onOtherTile(const TensorView& view, std::int32_t tile) const;
    abi::Span bindItem(const TensorView& view, const FieldDescriptor& fd, VertexInstance& inst,
                       std::int32_t tile);
    /// Creates every vertex object and points its fields at tensor storage.
    void bindVertices();
    void gatherInto(const TensorView& t, std::byte* out) const;
    void scatterFrom(const TensorView& t, const std::byte* in);
    std::int64_t scalarValue(const TensorView& t) const;
    /// Host threads the arena runs on: the chunk count of a compute set is a few per thread.
    std::size_t maxChunks() const;
    void planComputeSets();
    void planCopies();

    // Running programs (BspEngineSteps.cpp).
    /// Calls fn(begin, end) for each chunk [starts[i], starts[i + 1]), spread over the arena's
    /// threads; one chunk runs on the calling thread without waking the others.
    template <typename Fn> void forEachChunk(const std::vector<std::uint32_t>& starts, Fn fn);
    void runComputeSet(std::uint32_t cs);
    StreamConnection& connection(std::uint32_t stream);
    void streamCopy(const StreamCopyAction& a, bool toDevice);
    /// The rows of a remote buffer a copy moves: the offsets' values, or row 0.
    std::vector<std::uint64_t> remoteRows(const RemoteCopyAction& a) const;
    void remoteCopy(const RemoteCopyAction& a, bool toDevice);
    void executeStep(std::uint32_t index, std::ostream& print);
    /// poplar::cycleCount / cycleStamp: the 64-bit value as (lower, upper) 32-bit words.
    void writeCounter(const TensorView& counter, std::uint64_t value);
    /// The lowered steps of each child of a sequence that is a leaf (null for control
    /// children), found once per sequence node instead of once per child per execution: a
    /// sequence of thousands of small copies repeated many times looks nothing up per copy.
    const std::vector<const std::vector<std::uint32_t>*>& leafSteps(const ProgramNode& sequence);
    void execute(const ProgramNode& n, std::ostream& print);
    /// After an iteration of a loop: the implicit flush of the block buffers, if any.
    void endIteration(const ProgramNode& loop);
    void executeNode(const ProgramNode& n, std::ostream& print);
};

} // namespace tilescope::sim
