#pragma once
// popops::encodeOneHot and popops::iota: writing one-hot rows and integer ranges.

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/EncodingConstants.hpp>

namespace popops {

/// Writes `encoded` {N, C} (FLOAT, HALF, INT or UNSIGNED_INT) as one-hot rows: row i is 1 at
/// column indices[i] and 0 elsewhere. `indices` is {N} of UNSIGNED_INT or INT; a row whose index
/// is MASKED_LABEL_CODE (or otherwise not below C) is all 0.
void encodeOneHot(poplar::Graph& graph, const poplar::Tensor& indices,
                  const poplar::Tensor& encoded, poplar::program::Sequence& prog,
                  const poplar::DebugContext& debugContext = {});
/// As above with the values `on` and `off` (single elements of encoded's type) in place of 1
/// and 0.
void encodeOneHot(poplar::Graph& graph, const poplar::Tensor& indices,
                  const poplar::Tensor& encoded, poplar::program::Sequence& prog,
                  const poplar::Tensor& on, const poplar::Tensor& off,
                  const poplar::DebugContext& debugContext = {});

/// Writes startInteger, startInteger + 1, ... to the mapped 1-D UNSIGNED_INT or INT tensor `t`.
void iota(poplar::Graph& graph, const poplar::Tensor& t, unsigned startInteger,
          poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});
/// As above for a signed start.
void iota(poplar::Graph& graph, const poplar::Tensor& t, int startInteger,
          poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

} // namespace popops
