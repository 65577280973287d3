#pragma once
// GCL, the Graphcore Communication Library's public collectives (gcl/Collectives.hpp): reduce,
// scatter and gather tensors across the replicas of a replicated graph. The simulator computes
// them across its replicas and costs them as a ring over the replicas' IPU-Links.

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/CollectiveTypes.hpp>
#include <vector>

namespace gcl {

/// The reductions (the same enumeration as PopLibs').
typedef popops::CollectiveOperator CollectiveOperator;

/// How replicas are grouped for a collective: ALL replicas together, CONSECUTIVE groups of
/// `replicaGroupSize` (0, 1, 2... then 2, 3...), or ORTHOGONAL groups (replicas `size` apart).
enum class CommGroupType { ALL, CONSECUTIVE, ORTHOGONAL };

/// A group of replicas a collective runs within. The simulator runs collectives over all
/// replicas: ALL, or a CONSECUTIVE or ORTHOGONAL group spanning every replica (a size of 0 or
/// the replication factor); other groups throw poplar::poplar_error naming them.
struct CommGroup {
    CommGroup() = default;
    CommGroup(const CommGroupType& groupType, unsigned groupSize, unsigned groupStride = 1)
        : type(groupType), replicaGroupSize(groupSize), replicaGroupStride(groupStride) {}

    CommGroupType type = CommGroupType::ALL;
    unsigned replicaGroupSize = 0;
    unsigned replicaGroupStride = 1;
};

/// Reduces `data` across the replicas with `op`; returns the result, mapped as `data`, on
/// every replica.
poplar::Tensor allReduceCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     CollectiveOperator op, poplar::program::Sequence& prog,
                                     const CommGroup& group,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});
poplar::Tensor allReduceCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     CollectiveOperator op, poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});
/// Several tensors at once (of any types): one result per tensor.
std::vector<poplar::Tensor>
allReduceCrossReplica(poplar::Graph& graph, const std::vector<poplar::Tensor>& datas,
                      CollectiveOperator op, poplar::program::Sequence& prog,
                      const CommGroup& group, const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
std::vector<poplar::Tensor> allReduceCrossReplica(poplar::Graph& graph,
                                                  const std::vector<poplar::Tensor>& datas,
                                                  CollectiveOperator op,
                                                  poplar::program::Sequence& prog,
                                                  const poplar::DebugContext& debugContext = {},
                                                  const poplar::OptionFlags& options = {});
/// The reduction into `destination` (same type and element count as `data`).
void allReduceToDestinationCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                        poplar::Tensor& destination, CollectiveOperator op,
                                        poplar::program::Sequence& prog, const CommGroup& group,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {});
void allReduceToDestinationCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                        poplar::Tensor& destination, CollectiveOperator op,
                                        poplar::program::Sequence& prog,
                                        const poplar::DebugContext& debugContext = {},
                                        const poplar::OptionFlags& options = {});
/// The reduction into `data` itself.
void allReduceInPlaceCrossReplica(poplar::Graph& graph, poplar::Tensor& data, CollectiveOperator op,
                                  poplar::program::Sequence& prog, const CommGroup& group,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
void allReduceInPlaceCrossReplica(poplar::Graph& graph, poplar::Tensor& data, CollectiveOperator op,
                                  poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
void allReduceInPlaceCrossReplica(poplar::Graph& graph, std::vector<poplar::Tensor>& datas,
                                  CollectiveOperator op, poplar::program::Sequence& prog,
                                  const CommGroup& group,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
void allReduceInPlaceCrossReplica(poplar::Graph& graph, std::vector<poplar::Tensor>& datas,
                                  CollectiveOperator op, poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
/// Reduces `data` (flattened) across the replicas; replica r receives part r of the result, a
/// 1-D tensor of ceil(numElements / replicas) elements (zero past the end of `data`).
poplar::Tensor reduceScatterCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         CollectiveOperator op, poplar::program::Sequence& prog,
                                         const CommGroup& group,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {});
poplar::Tensor reduceScatterCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         CollectiveOperator op, poplar::program::Sequence& prog,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {});
/// Every replica receives every replica's `data`: shape {replicas, data's shape}, row r
/// holding replica r's.
poplar::Tensor allGatherCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog, const CommGroup& group,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});
poplar::Tensor allGatherCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});

} // namespace gcl
