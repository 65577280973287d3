#pragma once
// GCL, the Graphcore Communication Library's public collectives (gcl/Collectives.hpp): reduce,
// scatter, gather and exchange tensors across the replicas of a replicated graph, all of them
// or within communication groups. The simulator computes them across its replicas and costs
// them as a ring over each group's IPU-Links.

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/CollectiveTypes.hpp>
#include <vector>

namespace gcl {

/// The reductions (the same enumeration as PopLibs').
typedef popops::CollectiveOperator CollectiveOperator;

/// How replicas are grouped for a collective, N replicas in groups of k: ALL replicas together
/// (the size is ignored); CONSECUTIVE groups {0..k-1}, {k..2k-1}... (with a stride s, members
/// s apart: {0, s, 2s...}, {1, 1+s...} within each block of k x s replicas); ORTHOGONAL groups
/// sliced across that order, m = N / k apart: {0, m, 2m...}, {1, m+1...}.
enum class CommGroupType { ALL, CONSECUTIVE, ORTHOGONAL };

/// The groups of replicas a collective runs within: every group performs the collective among
/// its own members, each replica taking part in its group's. A CONSECUTIVE or ORTHOGONAL group
/// size of 0, groups that do not divide the replication factor, or an ORTHOGONAL group with a
/// stride other than 1 throw poplar::poplar_error naming the group.
struct CommGroup {
    CommGroup() = default;
    CommGroup(const CommGroupType& groupType, unsigned groupSize, unsigned groupStride = 1)
        : type(groupType), replicaGroupSize(groupSize), replicaGroupStride(groupStride) {}

    CommGroupType type = CommGroupType::ALL;
    unsigned replicaGroupSize = 0;
    unsigned replicaGroupStride = 1;
};

/// Reduces `data` across the replicas of each group with `op`; returns the result, mapped as
/// `data`, on every replica.
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
/// Reduces `data` (flattened) across the group; the member of rank r receives part r of the
/// result, a 1-D tensor of ceil(numElements / group size) elements (zero past the end).
poplar::Tensor reduceScatterCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         CollectiveOperator op, poplar::program::Sequence& prog,
                                         const CommGroup& group,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {});
poplar::Tensor reduceScatterCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         CollectiveOperator op, poplar::program::Sequence& prog,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {});
/// Every replica receives every group member's `data`: shape {group size, data's shape}, row r
/// holding the data of the member of rank r.
poplar::Tensor allGatherCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog, const CommGroup& group,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});
poplar::Tensor allGatherCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {});

/// Exchanges slices between the members of each group: `data`'s first dimension has one
/// slice per member (the group size), and slice i of the member of rank j's result is slice j
/// of the member of rank i's `data`. The result is mapped as `data`.
poplar::Tensor allToAllCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                    poplar::program::Sequence& prog, const CommGroup& group,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {});
poplar::Tensor allToAllCrossReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                    poplar::program::Sequence& prog,
                                    const poplar::DebugContext& debugContext = {},
                                    const poplar::OptionFlags& options = {});

} // namespace gcl
