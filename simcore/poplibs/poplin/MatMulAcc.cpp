// poplin::matMulAcc and matMulGroupedAcc: C += k * (A x B), as PopLibs computes it: the product
// in C's type from matMul/matMulGrouped, then popops::scaledAddTo into C, all under one
// operation.

#include "common/ElementWiseBuilder.hpp"
#include "poplin/MatMul.hpp"

#include <popops/ScaledAdd.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace poplin {

namespace pl = tilescope::poplibs;
using poplar::Tensor;

namespace {

/// Checks that C has the product's shape, so the accumulation does not broadcast.
void checkAccumulator(const Tensor& C, const Tensor& product, const std::string& api) {
    if (C.shape() != product.shape())
        throw poputil::poplibs_error(api + ": accumulator '" + C.getName() + "' of shape " +
                                     C.shapeToString() + " does not have the product's shape " +
                                     product.shapeToString());
}

/// C += k * (A x B), grouped or not, recorded as operation `name`: the product in C's type,
/// checked against C, then popops::scaledAddTo with `k` a number or a scalar tensor.
template <typename Scale>
void accumulate(poplar::Graph& graph, const Tensor& C, const Scale& k, const Tensor& A,
                const Tensor& B, bool grouped, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                PlanningCache* cache, const std::string& name) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(C, k, A, B, options), name);
    Tensor product =
        grouped ? matMulGrouped(graph, A, B, prog, C.elementType(), {di, "product"}, options, cache)
                : matMul(graph, A, B, prog, C.elementType(), {di, "product"}, options, cache);
    checkAccumulator(C, product, "poplin::" + name);
    popops::scaledAddTo(graph, C, product, k, prog, {di});
}

} // namespace

void matMulAcc(poplar::Graph& graph, const Tensor& C, float k, const Tensor& A, const Tensor& B,
               poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
               const poplar::OptionFlags& options, PlanningCache* cache) {
    accumulate(graph, C, k, A, B, false, prog, debugContext, options, cache, "matMulAcc");
}

void matMulAcc(poplar::Graph& graph, const Tensor& C, const Tensor& k, const Tensor& A,
               const Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
               PlanningCache* cache) {
    accumulate(graph, C, k, A, B, false, prog, debugContext, options, cache, "matMulAcc");
}

void matMulGroupedAcc(poplar::Graph& graph, const Tensor& C, float k, const Tensor& A,
                      const Tensor& B, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                      PlanningCache* cache) {
    accumulate(graph, C, k, A, B, true, prog, debugContext, options, cache, "matMulGroupedAcc");
}

void matMulGroupedAcc(poplar::Graph& graph, const Tensor& C, const Tensor& k, const Tensor& A,
                      const Tensor& B, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                      PlanningCache* cache) {
    accumulate(graph, C, k, A, B, true, prog, debugContext, options, cache, "matMulGroupedAcc");
}

} // namespace poplin
