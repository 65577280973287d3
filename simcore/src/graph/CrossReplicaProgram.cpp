#include "tilescope/sim/CrossReplicaProgram.hpp"

#include "poplar/exceptions.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <stdexcept>

namespace tilescope::sim {

CrossReplicaProgram::CrossReplicaProgram(const poplar::Graph& graph, CollectiveKind kind,
                                         ReduceOp op, ReplicaGrouping grouping,
                                         const poplar::Tensor& source,
                                         const poplar::Tensor& destination,
                                         std::vector<std::uint64_t> reduceCyclesPerTile,
                                         const poplar::DebugContext& debugContext)
    : Program(makeNode(capture::ProgramKind::CrossReplica, debugContext)) {
    const std::string what = collectiveKindName(kind) + " of '" + source.getName() + "'";
    if (source.elementType() != destination.elementType())
        throw poplar::poplar_error(what + ": the destination '" + destination.getName() + "' is " +
                                   destination.elementType().toString() + ", the source " +
                                   source.elementType().toString());
    const unsigned replicas = graph.getReplicationFactor();
    try {
        grouping.check(replicas);
    } catch (const std::invalid_argument& e) {
        throw poplar::poplar_error(what + ": " + e.what());
    }
    const unsigned groupSize = grouping.groupSize(replicas);
    if (kind == CollectiveKind::AllToAll && source.numElements() % groupSize != 0)
        throw poplar::poplar_error(what + ": its " + std::to_string(source.numElements()) +
                                   " elements do not divide into one block for each of the " +
                                   std::to_string(groupSize) + " replicas of a group");
    const std::uint64_t expected = collectiveOutputElements(kind, source.numElements(), groupSize);
    if (destination.numElements() != expected)
        throw poplar::poplar_error(what + ": the destination '" + destination.getName() + "' has " +
                                   std::to_string(destination.numElements()) + " elements; " +
                                   std::to_string(expected) + " are needed");
    node_->collective = kind;
    node_->reduceOp = op;
    node_->grouping = grouping;
    node_->source = source.view();
    node_->destination = destination.view();
    node_->reduceCyclesPerTile = std::move(reduceCyclesPerTile);
    node_->graph = graph.model().get();
    if (node_->name.empty())
        node_->name = collectiveKindName(kind) + " " + reduceOpName(op) + " " + source.getName();
}

} // namespace tilescope::sim
