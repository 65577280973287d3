#include "tilescope/sim/CrossReplicaProgram.hpp"

#include "poplar/exceptions.hpp"
#include "tilescope/sim/GraphModel.hpp"

namespace tilescope::sim {

CrossReplicaProgram::CrossReplicaProgram(const poplar::Graph& graph, CollectiveKind kind,
                                         ReduceOp op, const poplar::Tensor& source,
                                         const poplar::Tensor& destination,
                                         std::vector<std::uint64_t> reduceCyclesPerTile,
                                         const poplar::DebugContext& debugContext)
    : Program(makeNode(capture::ProgramKind::CrossReplica, debugContext)) {
    const std::string what = collectiveKindName(kind) + " of '" + source.getName() + "'";
    if (source.elementType() != destination.elementType())
        throw poplar::poplar_error(what + ": the destination '" + destination.getName() + "' is " +
                                   destination.elementType().toString() + ", the source " +
                                   source.elementType().toString());
    const std::uint64_t expected =
        collectiveOutputElements(kind, source.numElements(), graph.getReplicationFactor());
    if (destination.numElements() != expected)
        throw poplar::poplar_error(what + ": the destination '" + destination.getName() + "' has " +
                                   std::to_string(destination.numElements()) + " elements; " +
                                   std::to_string(expected) + " are needed");
    node_->collective = kind;
    node_->reduceOp = op;
    node_->source = source.view();
    node_->destination = destination.view();
    node_->reduceCyclesPerTile = std::move(reduceCyclesPerTile);
    node_->graph = graph.model().get();
    if (node_->name.empty())
        node_->name = collectiveKindName(kind) + " " + reduceOpName(op) + " " + source.getName();
}

} // namespace tilescope::sim
