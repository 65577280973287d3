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

/// The product A x B (grouped or not) in C's type, checked against C.
Tensor productFor(poplar::Graph& graph, const Tensor& C, const Tensor& A, const Tensor& B,
                  bool grouped, poplar::program::Sequence& prog, pl::PoplibsOpDebugInfo& di,
                  const poplar::OptionFlags& options, PlanningCache* cache,
                  const std::string& api) {
    Tensor product =
        grouped ? matMulGrouped(graph, A, B, prog, C.elementType(), {di, "product"}, options, cache)
                : matMul(graph, A, B, prog, C.elementType(), {di, "product"}, options, cache);
    checkAccumulator(C, product, api);
    return product;
}

} // namespace

void matMulAcc(poplar::Graph& graph, const Tensor& C, float k, const Tensor& A, const Tensor& B,
               poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
               const poplar::OptionFlags& options, PlanningCache* cache) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(C, k, A, B, options), "matMulAcc");
    Tensor product =
        productFor(graph, C, A, B, false, prog, di, options, cache, "poplin::matMulAcc");
    popops::scaledAddTo(graph, C, product, k, prog, {di});
}

void matMulAcc(poplar::Graph& graph, const Tensor& C, const Tensor& k, const Tensor& A,
               const Tensor& B, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
               PlanningCache* cache) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(C, k, A, B, options), "matMulAcc");
    Tensor product =
        productFor(graph, C, A, B, false, prog, di, options, cache, "poplin::matMulAcc");
    popops::scaledAddTo(graph, C, product, k, prog, {di});
}

void matMulGroupedAcc(poplar::Graph& graph, const Tensor& C, float k, const Tensor& A,
                      const Tensor& B, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                      PlanningCache* cache) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(C, k, A, B, options), "matMulGroupedAcc");
    Tensor product =
        productFor(graph, C, A, B, true, prog, di, options, cache, "poplin::matMulGroupedAcc");
    popops::scaledAddTo(graph, C, product, k, prog, {di});
}

void matMulGroupedAcc(poplar::Graph& graph, const Tensor& C, const Tensor& k, const Tensor& A,
                      const Tensor& B, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                      PlanningCache* cache) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(C, k, A, B, options), "matMulGroupedAcc");
    Tensor product =
        productFor(graph, C, A, B, true, prog, di, options, cache, "poplin::matMulGroupedAcc");
    popops::scaledAddTo(graph, C, product, k, prog, {di});
}

} // namespace poplin
