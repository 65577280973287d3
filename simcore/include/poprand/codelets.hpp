#pragma once
// poprand::addCodelets: makes the poprand vertex types available to a graph.

#include <poplar/Graph.hpp>

namespace poprand {

/// Registers the random-number vertices (uniform and normal, FLOAT, HALF and INT outputs).
void addCodelets(poplar::Graph& graph);

} // namespace poprand
