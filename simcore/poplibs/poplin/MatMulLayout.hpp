#pragma once
// Where a matMul's operands live before the product: the blocks of the plan, the layout PopLibs
// creates the convolution's input in, and the rearrangement of a row-major B into that layout
// as PopLibs' convolution builds it (regroup, transpose, copy to the planned tiles).

#include "common/ElementWiseBuilder.hpp"
#include "poplin/MatMulPlanner.hpp"

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <utility>
#include <vector>

namespace tilescope::poplibs {

/// One block of a dimension cut by the plan: its index and element range [begin, end).
struct Range {
    std::size_t index, begin, end;
};

/// The blocks of a dimension of `size` cut in blocks of `block` (the last may be smaller).
std::vector<Range> ranges(std::size_t size, std::size_t block);

/// How the readers of a block of the convolution's input (B's transpose, rows N, columns K)
/// hold it: a grid of rowParts x columnParts rectangles, one per reader, whose columns are whole
/// groups of the AMP's input channels (the unit PopLibs transposes), as even as the block allows
/// (each reader sends its rectangle to the other readers, so the largest one sets the exchange).
/// Rows per part are a multiple of `grain` (2 for 4-byte, 4 for 2-byte types) where the block
/// allows, the sizes Transpose2d's fast paths need.
struct ReaderGrid {
    std::size_t rowParts = 1, rowsPerPart = 1, columnParts = 1, columnsPerPart = 1;
};
ReaderGrid readerGrid(std::size_t rows, std::size_t columns, std::size_t readers, std::size_t group,
                      std::size_t grain);

/// The rectangle of reader `i` in a block (rows `n`, columns `k`): row and column ranges, empty
/// when the grid has fewer cells than readers.
std::pair<Range, Range> readerRectangle(const Range& n, const Range& k, const ReaderGrid& g,
                                        std::size_t i);

/// Maps `x`, the convolution's input {N, K} (B's transpose), as PopLibs creates it for the plan:
/// each block of the plan spread over the tiles that read it (its plan column), in rectangles.
void mapPlannedInput(poplar::Graph& graph, const poplar::Tensor& x, const MatMulPlan& plan);

/// A row-major B ({K, N}, N contiguous) rearranged into the convolution's input {N, K} in the
/// planned layout, as PopLibs' convolution does when the input's layout is not the one its
/// vertices want (lib/poplin/Convolution.cpp: rearrangeActs, then the regroup of
/// lib/popops/Rearrange.cpp, regroupTensor): when B's columns come in groups of a multiple of
/// the regroup grain, one Copy gathers each group x group block ("preRegroup") onto a tile,
/// the blocks spread evenly over the IPU's tiles; a "PreArrange" compute set transposes them
/// there; a second Copy moves the result to the planned layout ("inputRearranged"). Without
/// such groups only the second Copy is made, reading B element by element.
poplar::Tensor rearrangeInput(poplar::Graph& graph, const poplar::Tensor& B, const MatMulPlan& plan,
                              poplar::program::Sequence& prog, PoplibsOpDebugInfo& di);

/// PopLibs' smallest regroup group for a type (lib/popops/Rearrange.cpp,
/// getMinimumRegroupGrainSize): 2 for 4-byte types, 4 for 2-byte types.
std::size_t minimumRegroupGrain(const poplar::Target& target, const poplar::Type& type);

} // namespace tilescope::poplibs
