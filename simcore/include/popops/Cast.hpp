#pragma once
// popops::cast: element type conversion.

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// A new tensor of `dstType` holding `src`'s values converted (FLOAT, HALF, INT, UNSIGNED_INT
/// and BOOL, either way; non-zero is true; floating to an integer type rounds toward zero and
/// saturates), mapped like `src`.
poplar::Tensor cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Type& dstType,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// Converts `src` into the existing tensor `dst` of the same number of elements.
void cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Tensor& dst,
          poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});
/// As above, returned as a program for the caller to add.
poplar::program::Program cast(poplar::Graph& graph, poplar::Tensor src, poplar::Tensor dst,
                              const poplar::DebugContext& debugContext = {});
/// A new tensor of `dstType`, mapped like `src`, whose conversion vertices are added to `cs`
/// (which the caller executes).
poplar::Tensor cast(poplar::Graph& graph, poplar::Tensor src, const poplar::Type& dstType,
                    poplar::ComputeSet cs, const poplar::DebugContext& debugContext = {});

} // namespace popops
