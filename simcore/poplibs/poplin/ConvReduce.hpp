#pragma once
// The reduction of a product's partial sums as PopLibs' convolution does it
// (lib/poplin/ConvReduce.cpp, ConvReducePlan.cpp): in one or more stages, each its own compute
// set of poplin::ReduceAdd vertices on the tiles that hold the stage's results, or one cast
// compute set when there is nothing to add but the output type differs from the partials'.

#include "common/ElementWiseBuilder.hpp"

#include <cstdint>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <vector>

namespace tilescope::poplibs {

/// PopLibs' multi-stage reduce plan for `partialsDepth` partials per output: the depth left
/// after each intermediate stage (empty: one stage). Fewer messages per tile per stage is the
/// aim: 2 stages from a depth of 16, 3 from 125, each stage's depth near the n-th root.
std::vector<unsigned> multiStageReducePlan(unsigned partialsDepth);

/// Tile cycles of one tile reducing `outputs` results of `partialsDepth` partials through the
/// stages of the plan (as PopLibs' planner estimates it), or of the cast when the depth is 1 and
/// the types differ.
std::uint64_t reducePartialsTileCycles(const poplar::Target& target, const poplar::Type& outType,
                                       const poplar::Type& partialsType, std::uint64_t outputs,
                                       unsigned partialsDepth);

/// Exchange cycles of a tile's partial sums as PopLibs' planner charges them
/// (lib/poplin/ConvPlan.cpp, addExchangeCycleEstimate): the first stage moves all `partials` of
/// the tile (whatever the depth, even 1), each further stage of the multi-stage plan for
/// `partialsDepth` the partials left after the stage before, at `rate` bytes a cycle.
std::uint64_t partialSumExchangeCycles(std::uint64_t partials, unsigned partialsDepth,
                                       std::uint64_t partialBytes, std::uint64_t rate);

/// Adds to `prog` the compute sets summing `partials` ({D, ...}, mapped) into `out` (shape of
/// partials[0], mapped): intermediate stages (each group's results shared by the tiles that
/// hold the group's partials) and the final one on the tiles of `out`. With D == 1 and the same
/// type nothing is added. Returns the number of compute sets added.
std::size_t reducePartials(poplar::Graph& graph, const poplar::Tensor& partials,
                           const poplar::Tensor& out, poplar::program::Sequence& prog,
                           PoplibsOpDebugInfo& di);

} // namespace tilescope::poplibs
