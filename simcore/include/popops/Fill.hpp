#pragma once
// popops::fill: set every element of a tensor (popops::zero is in popops/Zero.hpp).

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/Zero.hpp>

namespace popops {

/// Adds a compute set to `prog` writing `fillValue` (converted to t's element type) to every
/// element of `t` (FLOAT, HALF, INT, UNSIGNED_INT and BOOL tensors; non-zero is true).
void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          double fillValue, const poplar::DebugContext& debugContext = {});

} // namespace popops
