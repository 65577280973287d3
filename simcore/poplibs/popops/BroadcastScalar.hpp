#pragma once
// The vertices of a binary operation with a one-element operand, chosen per tile as PopLibs'
// createVertexBinaryOpBroadcastScalar does (lib/popops/ElementWise.cpp).

#include <poplar/Graph.hpp>
#include <popops/ExprOp.hpp>
#include <string>

namespace popops::detail {

/// Adds to `cs` the vertices computing `out` = `data` (op) `scalar` (`data` already broadcast
/// to `out`'s shape), or `data` (op)= `scalar` in place when `out` is invalid. On each tile the
/// mapped elements fall into contiguous regions; PopLibs compares one BroadcastScalar1D
/// MultiVertex per region (machine cycles) with BroadcastScalar2DData worker vertices taking
/// the regions split between the workers (thread cycles, times the workers), and builds the
/// cheaper. `vertexName(base)` gives a vertex class for a base name such as
/// "popops::BroadcastScalar1D".
void addBroadcastScalarVertices(poplar::Graph& graph, poplar::ComputeSet cs, expr::BinaryOpType op,
                                const poplar::Tensor& data, const poplar::Tensor& scalar,
                                const poplar::Tensor& out, const std::string& vertex1D,
                                const std::string& vertex2D);

} // namespace popops::detail
