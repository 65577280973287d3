#pragma once
// The output of the GraphCompiler: lowered BSP steps with what each does when executed, the
// control structure the engine walks, and the compile records for profiles.

#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tilescope::sim {

/// What the engine does when it reaches a step (most steps only cost cycles: the data effect of a
/// program happens at one of its steps).
enum class StepAction : std::uint8_t {
    None,
    RunComputeSet,
    Copy,
    StreamToDevice,
    StreamToHost,
    Print,
    RemoteToDevice,
    RemoteToHost,
    CrossReplica
};

/// The data effect of one lowered step (parallel to CompileRecords::steps).
struct LoweredStep {
    StepAction action = StepAction::None;
    std::uint32_t actionIndex =
        0; ///< compute set, or index into copies/streamCopies/prints/remoteCopies
};

/// A tensor-to-tensor copy, done at the last step its Copy program lowered to.
struct CopyAction {
    TensorView source;
    TensorView destination;
};

/// A copy between a data stream and a tensor, done at its StreamCopyMid step.
struct StreamCopyAction {
    std::uint32_t stream = 0;
    TensorView tensor;
};

/// A copy between a remote buffer and a tensor, done at its StreamCopyMid step: row i of the
/// tensor (its leading dimension split into `offset`'s element count) moves to or from the
/// buffer row `offset[i]`; without an offset the tensor is row 0.
struct RemoteCopyAction {
    std::uint32_t buffer = 0;
    TensorView tensor;
    std::optional<TensorView> offset;
};

/// A collective across replicas, done at the last step its CrossReplica program lowered to:
/// within each group of `grouping`, every member's `source` combined into every member's
/// `destination`.
struct CollectiveAction {
    CollectiveKind kind = CollectiveKind::AllReduce;
    ReduceOp op = ReduceOp::Add;
    ReplicaGrouping grouping;
    TensorView source;
    TensorView destination;
};

/// A PrintTensor: the tensor travels to the host like a stream copy and is printed there.
struct PrintAction {
    std::string title;
    TensorView tensor;
};

/// Vertices of one compute set on one tile, in vertex id order.
struct TileVertexGroup {
    std::uint32_t tile = 0;
    std::vector<std::uint32_t> vertices;
};

/// A compiled graph. Shares the GraphModel it was compiled from; the engine runs it.
struct CompiledGraph {
    std::shared_ptr<const GraphModel> model;
    std::vector<LoweredStep> steps; ///< parallel to records.steps
    std::vector<CopyAction> copies;
    std::vector<StreamCopyAction> streamCopies;
    std::vector<PrintAction> prints;
    std::vector<RemoteCopyAction> remoteCopies;
    std::vector<CollectiveAction> collectives;
    std::vector<std::vector<TileVertexGroup>> computeSetGroups; ///< per compute set
    /// Steps each program node lowered to, in order (leaves only).
    std::unordered_map<const ProgramNode*, std::vector<std::uint32_t>> stepsOfNode;
    /// Every lowered program node's index in records.programs.
    std::unordered_map<const ProgramNode*, std::uint32_t> recordOfNode;
    std::vector<ProgramNodePtr> entryPoints;
    capture::CompileRecords records;
};

} // namespace tilescope::sim
