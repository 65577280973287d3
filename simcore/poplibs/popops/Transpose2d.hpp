#pragma once
// On-tile matrix transposes as PopLibs' popops::Transpose2d vertex does them: used where an
// operand arrives in the other orientation (the K^T operand of attention, x^T of a weight
// gradient), so values are moved by transpose vertices instead of element-by-element copies.

#include <cstdint>
#include <poplar/Graph.hpp>
#include <poplar/Type.hpp>
#include <vector>

namespace tilescope::poplibs {

/// Thread cycles of one Transpose2d vertex transposing `matrices` matrices of numSrcRows x
/// numSrcColumns elements: PopLibs' estimator (lib/popops/popopsCycleEstimators.cpp,
/// Transpose2d), whose fast paths need even (4-byte types) or multiple-of-4 (2-byte types)
/// sizes and strides within the hardware repeat and stride limits.
std::uint64_t transpose2dCycles(const poplar::Type& type, std::uint64_t numSrcRows,
                                std::uint64_t numSrcColumns, std::uint64_t matrices);

/// Adds to `cs`, on `tile`, the vertices writing `dst` (a rank-2 {C, R} view) = the transpose of
/// `src` (a rank-2 {R, C} view) of the same element type (FLOAT or HALF). The source rows are
/// split into bands, one vertex per band, so the tile's workers share the work: one band per
/// worker, or with `rowsPerBand` bands of that many rows (PopLibs deals whole transpositions,
/// such as one group of a convolution's input channels, to the workers).
void addTranspose2d(poplar::Graph& graph, poplar::ComputeSet cs, const poplar::Tensor& src,
                    const poplar::Tensor& dst, unsigned tile, std::size_t rowsPerBand = 0);

/// Adds to `cs`, on `tile`, the vertices writing each `dsts[i]` (numSrcColumns x numSrcRows,
/// flat) = the transpose of `srcs[i]` (numSrcRows x numSrcColumns, flat): the tile's
/// transpositions dealt to its workers in equal shares, one vertex per share, as PopLibs'
/// addTransposeVertices splits them when its single-vertex fast path does not apply.
void addTranspositions(poplar::Graph& graph, poplar::ComputeSet cs,
                       const std::vector<poplar::Tensor>& srcs,
                       const std::vector<poplar::Tensor>& dsts, std::size_t numSrcRows,
                       std::size_t numSrcColumns, unsigned tile);

} // namespace tilescope::poplibs
