#pragma once
// poputil utilities: copying and cloning tensors, and index arithmetic.

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <vector>

namespace poputil {

/// A new variable mapped like `in` (see Graph::clone), with a Copy of `in` into it added to
/// `prog`.
poplar::Tensor duplicate(
    poplar::Graph& graph, const poplar::Tensor& in, poplar::program::Sequence& prog,
    const poplar::DebugContext& debugContext = {},
    poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// N clones of `t` stacked into a new tensor of shape {N, t's shape...}, each laid out like `t`.
poplar::Tensor
cloneN(poplar::Graph& graph, const poplar::Tensor& t, unsigned N,
       const poplar::DebugContext& debugContext = {},
       poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// The coordinates in `shape` of the row-major flat `index`.
template <class T> std::vector<T> unflattenIndex(const std::vector<T>& shape, std::size_t index) {
    std::vector<T> coord(shape.size());
    for (std::size_t i = shape.size(); i > 0; --i) {
        coord[i - 1] = static_cast<T>(index % shape[i - 1]);
        index /= shape[i - 1];
    }
    return coord;
}

/// The row-major flat index of `indices` in `shape`.
template <class T>
std::size_t flattenIndex(const std::vector<T>& shape, const std::vector<T>& indices) {
    std::size_t index = 0;
    for (std::size_t i = 0; i != shape.size() && i != indices.size(); ++i)
        index = index * shape[i] + indices[i];
    return index;
}

/// The total number of elements in a sequence of interval lists.
std::size_t intervalSequenceNumElements(const std::vector<std::vector<poplar::Interval>>& seq);

/// [0, rangeUpperBound) split into `splitCount` slice sizes as evenly as possible, the
/// remainder going one each to the first slices.
std::vector<int> balancedPartition(int rangeUpperBound, int splitCount);

} // namespace poputil
