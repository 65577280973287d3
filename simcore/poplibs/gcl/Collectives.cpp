#include "gcl/Collectives.hpp"

#include "popops/CollectiveBuild.hpp"

#include <poplar/exceptions.hpp>

namespace gcl {

namespace tp = tilescope::poplibs;

namespace {

/// Collectives run over every replica: a group that is a strict subset is refused.
void checkGroup(const poplar::Graph& graph, const CommGroup& group, const char* api) {
    const unsigned replicas = graph.getReplicationFactor();
    if (group.type == CommGroupType::ALL || group.replicaGroupSize == 0 ||
        group.replicaGroupSize == replicas)
        return;
    const char* type = group.type == CommGroupType::CONSECUTIVE ? "CONSECUTIVE" : "ORTHOGONAL";
    throw poplar::poplar_error(std::string(api) + ": a " + type + " communication group of " +
                               std::to_string(group.replicaGroupSize) + " of the " +
                               std::to_string(replicas) +
                               " replicas is not supported by the TileScope simulator, whose "
                               "collectives span every replica (use CommGroupType::ALL)");
}

} // namespace

poplar::Tensor allReduceCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     CollectiveOperator op, poplar::program::Sequence& prog,
                                     const CommGroup& group,
                                     const poplar::DebugContext& debugContext,
                                     const poplar::OptionFlags&) {
    checkGroup(graph, group, "gcl::allReduceCrossReplica");
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::AllReduce, data, debugContext);
    tp::addCollective(graph, tp::Collective::AllReduce, op, data, out, prog, debugContext,
                      "gcl::allReduceCrossReplica");
    return out;
}

poplar::Tensor allReduceCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     CollectiveOperator op, poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext,
                                     const poplar::OptionFlags& options) {
    return allReduceCrossReplica(graph, data, op, prog, CommGroup(), debugContext, options);
}

std::vector<poplar::Tensor>
allReduceCrossReplica(poplar::Graph& graph, const std::vector<poplar::Tensor>& datas,
                      CollectiveOperator op, poplar::program::Sequence& prog,
                      const CommGroup& group, const poplar::DebugContext& debugContext,
                      const poplar::OptionFlags& options) {
    std::vector<poplar::Tensor> out;
    out.reserve(datas.size());
    for (const auto& d : datas)
        out.push_back(allReduceCrossReplica(graph, d, op, prog, group, debugContext, options));
    return out;
}

std::vector<poplar::Tensor> allReduceCrossReplica(poplar::Graph& graph,
                                                  const std::vector<poplar::Tensor>& datas,
                                                  CollectiveOperator op,
                                                  poplar::program::Sequence& prog,
                                                  const poplar::DebugContext& debugContext,
                                                  const poplar::OptionFlags& options) {
    return allReduceCrossReplica(graph, datas, op, prog, CommGroup(), debugContext, options);
}

void allReduceToDestinationCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                        poplar::Tensor& destination, CollectiveOperator op,
                                        poplar::program::Sequence& prog, const CommGroup& group,
                                        const poplar::DebugContext& debugContext,
                                        const poplar::OptionFlags&) {
    checkGroup(graph, group, "gcl::allReduceToDestinationCrossReplica");
    tp::addCollective(graph, tp::Collective::AllReduce, op, data, destination, prog, debugContext,
                      "gcl::allReduceToDestinationCrossReplica");
}

void allReduceToDestinationCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                        poplar::Tensor& destination, CollectiveOperator op,
                                        poplar::program::Sequence& prog,
                                        const poplar::DebugContext& debugContext,
                                        const poplar::OptionFlags& options) {
    allReduceToDestinationCrossReplica(graph, data, destination, op, prog, CommGroup(),
                                       debugContext, options);
}

void allReduceInPlaceCrossReplica(poplar::Graph& graph, poplar::Tensor& data, CollectiveOperator op,
                                  poplar::program::Sequence& prog, const CommGroup& group,
                                  const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags&) {
    checkGroup(graph, group, "gcl::allReduceInPlaceCrossReplica");
    tp::addCollective(graph, tp::Collective::AllReduce, op, data, data, prog, debugContext,
                      "gcl::allReduceInPlaceCrossReplica");
}

void allReduceInPlaceCrossReplica(poplar::Graph& graph, poplar::Tensor& data, CollectiveOperator op,
                                  poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags& options) {
    allReduceInPlaceCrossReplica(graph, data, op, prog, CommGroup(), debugContext, options);
}

void allReduceInPlaceCrossReplica(poplar::Graph& graph, std::vector<poplar::Tensor>& datas,
                                  CollectiveOperator op, poplar::program::Sequence& prog,
                                  const CommGroup& group, const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags& options) {
    for (auto& d : datas)
        allReduceInPlaceCrossReplica(graph, d, op, prog, group, debugContext, options);
}

void allReduceInPlaceCrossReplica(poplar::Graph& graph, std::vector<poplar::Tensor>& datas,
                                  CollectiveOperator op, poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext,
                                  const poplar::OptionFlags& options) {
    allReduceInPlaceCrossReplica(graph, datas, op, prog, CommGroup(), debugContext, options);
}

poplar::Tensor reduceScatterCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         CollectiveOperator op, poplar::program::Sequence& prog,
                                         const CommGroup& group,
                                         const poplar::DebugContext& debugContext,
                                         const poplar::OptionFlags&) {
    checkGroup(graph, group, "gcl::reduceScatterCrossReplica");
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::ReduceScatter, data, debugContext);
    tp::addCollective(graph, tp::Collective::ReduceScatter, op, data, out, prog, debugContext,
                      "gcl::reduceScatterCrossReplica");
    return out;
}

poplar::Tensor reduceScatterCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         CollectiveOperator op, poplar::program::Sequence& prog,
                                         const poplar::DebugContext& debugContext,
                                         const poplar::OptionFlags& options) {
    return reduceScatterCrossReplica(graph, data, op, prog, CommGroup(), debugContext, options);
}

poplar::Tensor allGatherCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog, const CommGroup& group,
                                     const poplar::DebugContext& debugContext,
                                     const poplar::OptionFlags&) {
    checkGroup(graph, group, "gcl::allGatherCrossReplica");
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::AllGather, data, debugContext);
    tp::addCollective(graph, tp::Collective::AllGather, CollectiveOperator::LOCAL, data, out, prog,
                      debugContext, "gcl::allGatherCrossReplica");
    return out;
}

poplar::Tensor allGatherCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext,
                                     const poplar::OptionFlags& options) {
    return allGatherCrossReplica(graph, data, prog, CommGroup(), debugContext, options);
}

} // namespace gcl
