#pragma once
// What popops' and GCL's collectives share (poplibs/popops/Collectives.cpp): the program of one
// collective, with PopLibs' cost of its reductions.

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/CollectiveTypes.hpp>
#include <string>
#include <tilescope/sim/Collectives.hpp>

namespace tilescope::poplibs {

enum class Collective { AllReduce, ReduceScatter, AllGather, AllToAll };

/// Adds to `prog` the collective from `data` into `destination` (made by makeCollectiveOutput,
/// or `data` itself for an in-place all-reduce), run within each group of `grouping` (default:
/// every replica). `api` names the caller in errors.
void addCollective(poplar::Graph& graph, Collective kind, popops::CollectiveOperator op,
                   const poplar::Tensor& data, const poplar::Tensor& destination,
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                   const std::string& api, const sim::ReplicaGrouping& grouping = {});

/// A new tensor for the collective's result over groups of `grouping` (k replicas each):
/// all-reduce and all-to-all like `data`; reduce-scatter 1-D of ceil(n / k) elements mapped as
/// the start of `data`; all-gather {k, shape} with every row mapped as `data`.
poplar::Tensor makeCollectiveOutput(poplar::Graph& graph, Collective kind,
                                    const poplar::Tensor& data,
                                    const poplar::DebugContext& debugContext,
                                    const sim::ReplicaGrouping& grouping = {});

} // namespace tilescope::poplibs
