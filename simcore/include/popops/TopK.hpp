#pragma once
// popops top-k: the k largest or smallest values in the innermost dimension of a tensor, with
// their indices or a second tensor permuted alike.

#include <cstddef>
#include <iosfwd>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popops/SortOrder.hpp>
#include <utility>
#include <vector>

namespace popops {

/// What a topK* call picks and how it orders its outputs: the `k` largest (or, with
/// `largest` false, smallest) elements of each innermost row, returned in `sortOrder`
/// (SortOrder::NONE returns them best first: largest first when `largest`, else smallest
/// first). Equal elements always keep their input order, so every sort here is stable and
/// `stableSort` only documents the requirement.
struct TopKParams {
    unsigned k;          ///< outputs per row; at most the innermost dimension
    bool largest;        ///< pick the largest (else the smallest) elements
    SortOrder sortOrder; ///< the order of the k outputs
    bool stableSort;     ///< equal elements keep their input order (always so here)

    TopKParams(unsigned k, bool largest, SortOrder sortOrder, bool stableSort = false) noexcept;
};

/// Prints the parameters, e.g. "{k=3, largest=true, sortOrder=DESCENDING, stableSort=false}".
std::ostream& operator<<(std::ostream& os, const TopKParams& p);

/// A new tensor of `shape` and `type` mapped across the tiles for use as a topK input.
poplar::Tensor createTopKInput(poplar::Graph& graph, const poplar::Type& type,
                               const std::vector<std::size_t>& shape, const TopKParams& params,
                               const poplar::DebugContext& debugContext = {});

/// The top k values in the innermost dimension of `t` (FLOAT, HALF, INT or UNSIGNED_INT, rank
/// >= 1): a new tensor of t's shape with the innermost dimension k.
poplar::Tensor topK(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& t,
                    const TopKParams& params, const poplar::DebugContext& debugContext = {});

/// As topK on `keys`, also returning `values` (the same shape as keys) permuted alike:
/// {top keys, their values}.
std::pair<poplar::Tensor, poplar::Tensor>
topKKeyValue(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& keys,
             const poplar::Tensor& values, const TopKParams& params,
             const poplar::DebugContext& debugContext = {});

/// As topK, also returning the UNSIGNED_INT indices of the values in t's innermost dimension:
/// {top values, indices}.
std::pair<poplar::Tensor, poplar::Tensor>
topKWithPermutation(poplar::Graph& graph, poplar::program::Sequence& prog, const poplar::Tensor& t,
                    const TopKParams& params, const poplar::DebugContext& debugContext = {});

} // namespace popops
