#pragma once
// popops::cast: element type conversion.

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// A new tensor of `dstType` holding `src`'s values converted (FLOAT, HALF and INT, either way;
/// floating to INT rounds toward zero), mapped like `src`.
poplar::Tensor cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Type& dstType,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

} // namespace popops
