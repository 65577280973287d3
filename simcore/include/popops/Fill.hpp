#pragma once
// popops::fill and popops::zero: set every element of a tensor.

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// Adds a compute set to `prog` writing `fillValue` (converted to t's element type) to every
/// element of `t`. FLOAT, HALF and INT tensors.
void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          double fillValue, const poplar::DebugContext& debugContext = {});
/// fill(graph, t, prog, 0).
void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext = {});

} // namespace popops
