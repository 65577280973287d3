#pragma once
// popops::allTrue: the logical AND of every element of a BOOL tensor.

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// Adds to `prog` the reduction of BOOL tensor `A` with LOGICAL_AND and returns a new scalar BOOL
/// tensor holding the result (true for an empty `A`). Other element types are refused.
poplar::Tensor allTrue(poplar::Graph& graph, poplar::Tensor A, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});

} // namespace popops
