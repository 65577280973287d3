#pragma once
// Registration of each group of popnn vertices; popnn::addCodelets calls them all.

#include <poplar/Graph.hpp>

namespace popnn::detail {
void registerNonLinearityVertices(poplar::Graph& graph);
void registerLossVertices(poplar::Graph& graph);
void registerArgMinMaxVertices(poplar::Graph& graph);
void registerPoolingVertices(poplar::Graph& graph);
} // namespace popnn::detail
