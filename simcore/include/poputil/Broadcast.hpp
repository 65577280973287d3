#pragma once
// poputil broadcasting helpers: numpy-style broadcasting of tensor views.

#include <cstddef>
#include <poplar/Tensor.hpp>
#include <vector>

namespace poputil {

/// Replaces `a` by a view broadcast to `shape` (numpy rules: leading dimensions of size 1 are
/// added, then each dimension must equal the shape's or be 1). Throws poplar::poplar_error when
/// `a` does not broadcast to `shape`.
void broadcastToMatch(poplar::Tensor& a, const std::vector<std::size_t>& shape);
/// Replaces `a` and `b` by views broadcast to the shape both broadcast to.
void broadcastToMatch(poplar::Tensor& a, poplar::Tensor& b);
/// Replaces `a`, `b` and `c` by views broadcast to the shape all three broadcast to.
void broadcastToMatch(poplar::Tensor& a, poplar::Tensor& b, poplar::Tensor& c);
/// `in2` with outer dimensions of size 1 added to reach the rank of `in1` (which must be at
/// least in2's).
poplar::Tensor extendDimensionsToMatch(poplar::Tensor in1, poplar::Tensor in2);

} // namespace poputil
