#pragma once
// popops::addCodelets: makes the popops vertex types available to a graph.

#include <poplar/Graph.hpp>

namespace popops {

/// Registers every popops vertex type (element-wise operations, fill, cast, scaled add, reduce)
/// with the graph; call once per graph before using popops operations. Calling it again is
/// harmless.
void addCodelets(poplar::Graph& graph);

} // namespace popops
