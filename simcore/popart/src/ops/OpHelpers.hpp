#pragma once
// Helpers the op group files share: element-wise expressions over a node's tensors, host
// evaluation with numpy broadcasting (for constant folding), and registry entry builders.

#include "ops/OpLowering.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popart {

namespace pe = popops::expr;

/// popops::map of `e` over `ts` into the node's program, named `name` under the node.
poplar::Tensor mapExpr(LoweringContext& c, const pe::Expr& e, const std::vector<poplar::Tensor>& ts,
                       const std::string& name);
/// `t` cast to `type` (unchanged when it already is).
poplar::Tensor castTo(LoweringContext& c, const poplar::Tensor& t, const poplar::Type& type);
/// A numpy-broadcast shape of two shapes; popart::error naming the node when they do not
/// broadcast.
Shape broadcastShape(const NodeView& v, const Shape& a, const Shape& b);
/// Host evaluation of an element-wise function of the inputs (broadcast), for fold hooks.
HostTensor hostElementWise(const ShapeContext& c, DataType outType,
                           const std::function<double(const std::vector<double>&)>& f);
/// Normalises a possibly negative axis of a tensor of `rank`; popart::error when out of range.
int64_t normaliseAxis(const NodeView& v, int64_t axis, int64_t rank);
/// Whether the type is an integer type (integer arithmetic truncates).
bool isIntegral(DataType type);

/// A registry entry for an ONNX-domain op (all opsets unless limited).
OpLowering onnxOp(const std::string& opType, ForwardFn forward, GradFn grad = GradFn(),
                  int minOpset = 1, int maxOpset = 1000);

} // namespace popart
