#pragma once
// Registration of each group of popops vertices; popops::addCodelets calls them all.

#include <poplar/Graph.hpp>

namespace popops::detail {
void registerElementWiseVertices(poplar::Graph& graph);
void registerTernaryVertices(poplar::Graph& graph);
void registerEncodingVertices(poplar::Graph& graph);
void registerFillAndCastVertices(poplar::Graph& graph);
void registerScaledAddVertices(poplar::Graph& graph);
void registerReduceVertices(poplar::Graph& graph);
void registerMapExprVertices(poplar::Graph& graph);
void registerDynamicSliceVertices(poplar::Graph& graph);
void registerMultiSliceVertices(poplar::Graph& graph);
void registerTransposeVertices(poplar::Graph& graph);
} // namespace popops::detail
