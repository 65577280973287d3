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

/// Maps `a`, the convolution's weights {M, K} (A), as PopLibs creates them for the plan: each
/// block of the plan spread over the tiles that read it (its plan row), in shares of whole
/// weight groups (a conv unit's input channels times the conv units).
void mapPlannedWeights(poplar::Graph& graph, const poplar::Tensor& a, const MatMulPlan& plan);

/// The rearrangement of a product's operands before its convolution, as PopLibs' convolution
/// builds it at the IPU level (lib/poplin/Convolution.cpp: rearrangeActs / rearrangeWeights, the
/// regroup of lib/popops/Rearrange.cpp, regroupTensor, and ConvProgramTree's TransformPreProgram):
/// the input's and the weights' groups are gathered onto the IPU's tiles by one Copy
/// ("preRegroup"), transposed there in one compute set ("PreArrange", shared by both operands as
/// in the SDK 2.0 tree), and copied to the planned layout by a second Copy. `lower` adds the
/// three steps to a program; operands that need no rearrangement add nothing.
class ProductPreArrangement {
public:
    ProductPreArrangement(poplar::Graph& graph, PoplibsOpDebugInfo& di) : graph_(graph), di_(di) {}

    /// A row-major B ({K, N}, N contiguous) rearranged into the convolution's input {N, K} in
    /// the planned layout (PopLibs always rearranges it: its input channels K are strided).
    /// When B's columns come in groups of a multiple of the regroup grain, the groups are
    /// transposed; otherwise only the copy to the planned layout is made, reading B as it is.
    poplar::Tensor input(const poplar::Tensor& B, const MatMulPlan& plan);

    /// A ({M, K}) as the convolution's weights: itself when its input channels K are innermost
    /// already (a row-major A), otherwise (A's rows innermost in groups of a multiple of the
    /// grain, as a product returns its result) regrouped with transposes and copied to the
    /// planned layout, as PopLibs' rearrangeWeights does when the weights' innermost grouping
    /// is not their input channels.
    poplar::Tensor weights(const poplar::Tensor& A, const MatMulPlan& plan);

    /// Adds the gathering copy, the transpose compute set and the copy to the planned layouts.
    void lower(poplar::program::Sequence& prog);

private:
    /// `x` ({C, R}) whose rows come in groups of `from` contiguous elements, regrouped into
    /// {R, C} with C innermost in groups of `to`; returns the transposed data as an {R, C} view.
    poplar::Tensor regroup(const poplar::Tensor& x, std::size_t from, std::size_t to);

    poplar::Graph& graph_;
    PoplibsOpDebugInfo& di_;
    std::vector<poplar::Tensor> gatherSources_, gatherDestinations_;
    std::vector<poplar::Tensor> planSources_, planDestinations_;
    poplar::ComputeSet transposes_;
    bool haveTransposes_ = false;
};

/// The innermost grouping of `x` ({C, R}): the largest g dividing R such that every group of g
/// consecutive elements of a row is contiguous in memory and on one tile (PopLibs'
/// detectInnermostGrouping); 1 when the rows are strided.
std::size_t innermostGrouping(const poplar::Graph& graph, const poplar::Tensor& x);

/// PopLibs' smallest regroup group for a type (lib/popops/Rearrange.cpp,
/// getMinimumRegroupGrainSize): 2 for 4-byte types, 4 for 2-byte types.
std::size_t minimumRegroupGrain(const poplar::Target& target, const poplar::Type& type);

} // namespace tilescope::poplibs
