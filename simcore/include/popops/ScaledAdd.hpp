#pragma once
// popops::scaledAddTo and scaledSubtractFrom: A += scale * B and A -= scale * B in place.

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// A += scaleB * B, element-wise; A and B have the same shape and element type (FLOAT or HALF).
void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                 const poplar::OptionFlags& options = {});
/// A -= scaleB * B, element-wise.
void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext = {},
                        const poplar::OptionFlags& options = {});

} // namespace popops
