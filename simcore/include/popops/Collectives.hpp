#pragma once
// PopLibs' cross-replica collectives over a replicated graph (popops/Collectives.hpp), computed
// across the replicas and costed as a ring over their IPU-Links. GCL's gcl/Collectives.hpp
// offers the same with communication groups.

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/CollectiveTypes.hpp>

namespace popops {

/// Reduces `data` across the replicas with `op`; every replica receives the result in a new
/// tensor mapped as `data`. Throws poplar::poplar_error for a logical operator on data that is
/// not BOOL, or an arithmetic one on BOOL.
poplar::Tensor replicatedAllReduce(poplar::Graph& graph, const poplar::Tensor& data,
                                   popops::CollectiveOperator op, poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext = {},
                                   const poplar::OptionFlags& options = {});
/// As replicatedAllReduce, into `output` (same type and element count as `data`).
void replicatedAllReduceWithOutput(poplar::Graph& graph, const poplar::Tensor& data,
                                   poplar::Tensor& output, popops::CollectiveOperator op,
                                   poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext = {},
                                   const poplar::OptionFlags& options = {});
/// As replicatedAllReduce, into `data` itself.
void replicatedAllReduceInPlace(poplar::Graph& graph, poplar::Tensor& data,
                                popops::CollectiveOperator op, poplar::program::Sequence& prog,
                                const poplar::DebugContext& debugContext = {},
                                const poplar::OptionFlags& options = {});
/// Reduces `data` (flattened) across the replicas; replica r receives part r of the result, a
/// 1-D tensor of ceil(numElements / replicas) elements (zero past the end of `data`).
poplar::Tensor replicatedReduceScatter(poplar::Graph& graph, const poplar::Tensor& data,
                                       popops::CollectiveOperator op,
                                       poplar::program::Sequence& prog,
                                       const poplar::DebugContext& debugContext = {},
                                       const poplar::OptionFlags& options = {});
/// Every replica receives every replica's `data`: a tensor of shape {replicas, data's shape},
/// row r holding replica r's.
poplar::Tensor replicatedAllGather(poplar::Graph& graph, const poplar::Tensor& data,
                                   poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext = {},
                                   const poplar::OptionFlags& options = {});

/// Exchanges slices between the replicas: `input`'s first dimension has one slice per
/// replica, and slice i of replica j's result is slice j of replica i's `input` (as GCL's
/// allToAllCrossReplica over every replica). The result is mapped as `input`.
poplar::Tensor allToAllPersonalizedExchange(poplar::Graph& graph, const poplar::Tensor& input,
                                            poplar::program::Sequence& sequence,
                                            const poplar::DebugContext& debugContext = {},
                                            const poplar::OptionFlags& options = {});

} // namespace popops
