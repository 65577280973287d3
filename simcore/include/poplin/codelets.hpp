#pragma once
// poplin::addCodelets: makes the poplin vertex types available to a graph.

#include <poplar/Graph.hpp>

namespace poplin {

/// Registers the matrix product and convolution vertices (and popops', which matMul's reductions
/// use).
void addCodelets(poplar::Graph& graph);

} // namespace poplin
