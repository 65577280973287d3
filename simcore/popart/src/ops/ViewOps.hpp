#pragma once
// The view and data-movement op group (Reshape, Flatten, Squeeze, Unsqueeze, Identity,
// Transpose, Expand, Tile; Concat, Slice, Split, Gather, Pad; Shape, Size, Constant,
// ConstantOfShape, Cast, Where), in three files registered by registerViewOps
// (OpGroups.hpp). Views lower to poplar::Tensor views where the op moves no data; every op has
// a host fold for constant shape subgraphs, and the ops training needs have gradients.

#include "ops/OpLowering.hpp"
#include "ops/ViewParams.hpp"

#include <cstddef>
#include <poplar/Tensor.hpp>
#include <popops/DynamicSlice.hpp>
#include <vector>

namespace popart {
namespace views {

void registerReshapeOps(OpLoweringRegistry& registry);
void registerMovementOps(OpLoweringRegistry& registry);
void registerValueOps(OpLoweringRegistry& registry);
/// Conv, MaxPool, AveragePool and the global pools (ConvOps.cpp).
void registerConvOps(OpLoweringRegistry& registry);
/// Resize and Upsample in nearest mode (ResizeOps.cpp).
void registerResizeOps(OpLoweringRegistry& registry);

/// A shape as poplar dimensions.
std::vector<std::size_t> dims(const Shape& shape);
/// A new variable of `type` and `shape`, mapped linearly over the tiles and filled with
/// `value` in `ctx`'s program.
poplar::Tensor filledVariable(LoweringContext& ctx, const poplar::Type& type, const Shape& shape,
                              double value, const std::string& name);
/// The slice plan of a Gather of `dataShape` along `axis` with `numLookups` indices, as PopART's
/// createSlicePlan makes it: popops::embedding::plan minimising cycles, for the slice (forward)
/// or for the update with ADD (the gradient), with the node's availableMemoryProportion. An
/// empty plan when there is nothing to slice.
popops::SlicePlan gatherSlicePlan(poplar::Graph& graph, const poplar::Type& type,
                                  const std::vector<std::size_t>& dataShape, unsigned axis,
                                  std::size_t numLookups, bool forUpdate,
                                  const NodeAttributes& attrs);
/// The view of `t` that ONNX Slice's per-dimension ranges select (strided, reversed for
/// negative steps).
poplar::Tensor sliceView(const poplar::Tensor& t, const std::vector<DimSlice>& ranges);

} // namespace views
} // namespace popart
