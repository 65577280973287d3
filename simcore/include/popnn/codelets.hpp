#pragma once
// popnn::addCodelets: makes the popnn vertex types available to a graph.

#include <poplar/Graph.hpp>

namespace popnn {

/// Registers the non-linearity, loss, arg-max and pooling vertices (and popops', which
/// softmax uses).
void addCodelets(poplar::Graph& graph);

} // namespace popnn
