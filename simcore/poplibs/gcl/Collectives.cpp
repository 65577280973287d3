#include "gcl/Collectives.hpp"

#include "popops/CollectiveBuild.hpp"

#include <poplar/exceptions.hpp>
#include <stdexcept>
#include <string>

namespace gcl {

namespace tp = tilescope::poplibs;

namespace {

const char* typeName(CommGroupType type) {
    switch (type) {
    case CommGroupType::ALL:
        return "ALL";
    case CommGroupType::CONSECUTIVE:
        return "CONSECUTIVE";
    case CommGroupType::ORTHOGONAL:
        break;
    }
    return "ORTHOGONAL";
}

/// The simulator's grouping for `group` on `graph`'s replicas; poplar_error naming `api` and
/// the group when it does not cut the replicas into equal groups.
tilescope::sim::ReplicaGrouping groupingOf(const poplar::Graph& graph, const CommGroup& group,
                                           const char* api) {
    const unsigned replicas = graph.getReplicationFactor();
    const std::string what = std::string(api) + ": a " + typeName(group.type) +
                             " communication group of " + std::to_string(group.replicaGroupSize) +
                             " replicas" +
                             (group.replicaGroupStride != 1
                                  ? " (stride " + std::to_string(group.replicaGroupStride) + ")"
                                  : std::string()) +
                             " over " + std::to_string(replicas) + " replicas";
    if (group.type == CommGroupType::ALL)
        return {};
    if (group.replicaGroupSize == 0)
        throw poplar::poplar_error(what + ": a group needs at least one replica");
    tilescope::sim::ReplicaGrouping grouping{group.replicaGroupSize, group.replicaGroupStride};
    if (group.type == CommGroupType::ORTHOGONAL) {
        if (group.replicaGroupStride != 1)
            throw poplar::poplar_error(what + ": ORTHOGONAL groups take no stride");
        if (replicas % group.replicaGroupSize != 0)
            throw poplar::poplar_error(what + ": the group size does not divide the replicas");
        // Orthogonal groups of k are consecutive groups whose members are N / k apart.
        grouping.stride = replicas / group.replicaGroupSize;
    }
    try {
        grouping.check(replicas);
    } catch (const std::invalid_argument& e) {
        throw poplar::poplar_error(what + ": " + e.what());
    }
    return grouping;
}

/// All-reduces several tensors: those of one element type as one collective over their
/// concatenation, as GCL fuses them (one ring: one set of syncs and link latencies).
void addFused(poplar::Graph& graph, const std::vector<poplar::Tensor>& datas,
              const std::vector<poplar::Tensor>& destinations, CollectiveOperator op,
              poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
              const char* api, const tilescope::sim::ReplicaGrouping& grouping) {
    std::vector<bool> done(datas.size(), false);
    for (std::size_t i = 0; i < datas.size(); ++i) {
        if (done[i])
            continue;
        std::vector<poplar::Tensor> sources, targets;
        for (std::size_t j = i; j < datas.size(); ++j)
            if (!done[j] && datas[j].elementType() == datas[i].elementType()) {
                sources.push_back(datas[j].flatten());
                targets.push_back(destinations[j].flatten());
                done[j] = true;
            }
        tp::addCollective(graph, tp::Collective::AllReduce, op, poplar::concat(sources),
                          poplar::concat(targets), prog, debugContext, api, grouping);
    }
}

} // namespace

poplar::Tensor allReduceCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     CollectiveOperator op, poplar::program::Sequence& prog,
                                     const CommGroup& group,
                                     const poplar::DebugContext& debugContext,
                                     const poplar::OptionFlags&) {
    const auto grouping = groupingOf(graph, group, "gcl::allReduceCrossReplica");
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::AllReduce, data, debugContext, grouping);
    tp::addCollective(graph, tp::Collective::AllReduce, op, data, out, prog, debugContext,
                      "gcl::allReduceCrossReplica", grouping);
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
                      const poplar::OptionFlags&) {
    const auto grouping = groupingOf(graph, group, "gcl::allReduceCrossReplica");
    std::vector<poplar::Tensor> out;
    out.reserve(datas.size());
    for (const auto& d : datas)
        out.push_back(
            tp::makeCollectiveOutput(graph, tp::Collective::AllReduce, d, debugContext, grouping));
    addFused(graph, datas, out, op, prog, debugContext, "gcl::allReduceCrossReplica", grouping);
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
    const auto grouping = groupingOf(graph, group, "gcl::allReduceToDestinationCrossReplica");
    tp::addCollective(graph, tp::Collective::AllReduce, op, data, destination, prog, debugContext,
                      "gcl::allReduceToDestinationCrossReplica", grouping);
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
    const auto grouping = groupingOf(graph, group, "gcl::allReduceInPlaceCrossReplica");
    tp::addCollective(graph, tp::Collective::AllReduce, op, data, data, prog, debugContext,
                      "gcl::allReduceInPlaceCrossReplica", grouping);
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
                                  const poplar::OptionFlags&) {
    const auto grouping = groupingOf(graph, group, "gcl::allReduceInPlaceCrossReplica");
    addFused(graph, datas, datas, op, prog, debugContext, "gcl::allReduceInPlaceCrossReplica",
             grouping);
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
    const auto grouping = groupingOf(graph, group, "gcl::reduceScatterCrossReplica");
    poplar::Tensor out = tp::makeCollectiveOutput(graph, tp::Collective::ReduceScatter, data,
                                                  debugContext, grouping);
    tp::addCollective(graph, tp::Collective::ReduceScatter, op, data, out, prog, debugContext,
                      "gcl::reduceScatterCrossReplica", grouping);
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
    const auto grouping = groupingOf(graph, group, "gcl::allGatherCrossReplica");
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::AllGather, data, debugContext, grouping);
    tp::addCollective(graph, tp::Collective::AllGather, CollectiveOperator::LOCAL, data, out, prog,
                      debugContext, "gcl::allGatherCrossReplica", grouping);
    return out;
}

poplar::Tensor allGatherCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext,
                                     const poplar::OptionFlags& options) {
    return allGatherCrossReplica(graph, data, prog, CommGroup(), debugContext, options);
}

poplar::Tensor allToAllCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                    poplar::program::Sequence& prog, const CommGroup& group,
                                    const poplar::DebugContext& debugContext,
                                    const poplar::OptionFlags&) {
    const char* api = "gcl::allToAllCrossReplica";
    const auto grouping = groupingOf(graph, group, api);
    const unsigned groupSize = grouping.groupSize(graph.getReplicationFactor());
    if (data.rank() == 0 || data.dim(0) != groupSize)
        throw poplar::poplar_error(std::string(api) + ": '" + data.getName() +
                                   "' needs a first dimension of " + std::to_string(groupSize) +
                                   " (one slice for each replica of a group), got shape " +
                                   data.shapeToString());
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::AllToAll, data, debugContext, grouping);
    tp::addCollective(graph, tp::Collective::AllToAll, CollectiveOperator::LOCAL, data, out, prog,
                      debugContext, api, grouping);
    return out;
}

poplar::Tensor allToAllCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                    poplar::program::Sequence& prog,
                                    const poplar::DebugContext& debugContext,
                                    const poplar::OptionFlags& options) {
    return allToAllCrossReplica(graph, data, prog, CommGroup(), debugContext, options);
}

} // namespace gcl
