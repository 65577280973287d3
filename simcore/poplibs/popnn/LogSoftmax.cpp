// popnn::logSoftmax, composed of popops reductions and element-wise operations.

#include "popnn/LogSoftmax.hpp"

#include "common/ElementWiseBuilder.hpp"

#include <poplar/exceptions.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduction.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

namespace pl = tilescope::poplibs;
using poplar::Tensor;

namespace {

void logSoftmaxInto(poplar::Graph& graph, const Tensor& t, const Tensor& out,
                    poplar::program::Sequence& prog, pl::PoplibsOpDebugInfo& di,
                    const std::string& api) {
    if (t.elementType() != poplar::FLOAT && t.elementType() != poplar::HALF)
        throw poputil::poplibs_error("popnn::" + api + ": tensor '" + t.getName() + "' has type " +
                                     t.elementType().toString() + "; FLOAT and HALF are supported");
    if (t.rank() == 0 || t.numElements() == 0)
        throw poputil::poplibs_error("popnn::" + api +
                                     ": needs a non-empty tensor of rank >= 1, "
                                     "got '" +
                                     t.getName() + "' of shape " + t.shapeToString());
    namespace pe = popops::expr;
    const std::size_t cols = t.dim(t.rank() - 1);
    const std::size_t rows = t.numElements() / cols;
    const Tensor in2d = t.reshape({rows, cols});
    const Tensor maxima =
        popops::reduce(graph, in2d, {1}, popops::Operation::MAX, prog, {di, "max"});
    const Tensor shifted = popops::sub(graph, in2d, maxima.reshape({rows, 1}), prog, {di, "shift"});
    const Tensor exps = popops::exp(graph, shifted, prog, {di, "exp"});
    Tensor logSums =
        popops::reduce(graph, exps, poplar::FLOAT, {1}, popops::Operation::ADD, prog, {di, "sum"});
    popops::logInPlace(graph, logSums, prog, {di, "log"});
    if (t.elementType() != poplar::FLOAT)
        logSums = popops::cast(graph, logSums, t.elementType(), prog, {di, "cast"});
    popops::mapInPlace(graph, pe::_1 - pe::_2, {shifted, logSums.reshape({rows, 1})}, prog,
                       {di, "normalise"});
    prog.add(poplar::program::Copy(shifted, out.reshape({rows, cols}), false, {di, "copy"}));
    di.addFlops(5 * t.numElements());
}

} // namespace

Tensor logSoftmax(poplar::Graph& graph, Tensor t, poplar::program::Sequence& prog,
                  const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t), "logSoftmax");
    Tensor out = pl::createOutput(graph, t.elementType(), t.shape(), t, {di, "out"});
    logSoftmaxInto(graph, t, out, prog, di, "logSoftmax");
    di.addOutput(out);
    return out;
}

void logSoftmaxInPlace(poplar::Graph& graph, Tensor t, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t), "logSoftmaxInPlace");
    logSoftmaxInto(graph, t, t, prog, di, "logSoftmaxInPlace");
}

} // namespace popnn
