// popnn::bn: batch normalisation over NormCore's rows, one per channel.

#include "popnn/NormCore.hpp"

#include <popnn/BatchNorm.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

namespace popnn {
namespace bn {

namespace pl = tilescope::poplibs;
namespace nc = tilescope::poplibs::norm;
using poplar::Tensor;

namespace {
nc::Layout layout(const std::string& api) {
    nc::Layout l;
    l.batch = true;
    l.api = "popnn::bn::" + api;
    return l;
}
} // namespace

std::pair<Tensor, Tensor> batchNormStatistics(poplar::Graph& graph, const Tensor acts, float eps,
                                              poplar::program::Sequence& prog,
                                              bool unbiasedVarEstimate, bool stableAlgo,
                                              const poplar::Type& partialsType,
                                              const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, eps, unbiasedVarEstimate, stableAlgo),
                              "batchNormStatistics");
    auto r = nc::statistics(graph, acts, eps, prog, unbiasedVarEstimate, stableAlgo, partialsType,
                            layout("batchNormStatistics"), di);
    const Tensor mean = r.first, iStdDev = r.second;
    di.addOutputs(DI_ARGS(mean, iStdDev));
    return r;
}

Tensor batchNormWhiten(poplar::Graph& graph, const Tensor& acts, const Tensor& mean,
                       const Tensor& invStdDev, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, mean, invStdDev), "batchNormWhiten");
    Tensor out = nc::whiten(graph, acts, mean, invStdDev, prog, layout("batchNormWhiten"), di);
    di.addOutput(out);
    return out;
}

std::pair<Tensor, Tensor> batchNormalise(poplar::Graph& graph, const Tensor& acts,
                                         const Tensor& gamma, const Tensor& beta,
                                         const Tensor& mean, const Tensor& invStdDev,
                                         poplar::program::Sequence& prog,
                                         const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, gamma, beta, mean, invStdDev),
                              "batchNormalise");
    const auto l = layout("batchNormalise");
    Tensor whitened = nc::whiten(graph, acts, mean, invStdDev, prog, l, di);
    Tensor out = nc::affine(graph, whitened, gamma, beta, prog, l, di);
    di.addOutput(out);
    return {out, whitened};
}

Tensor batchNormalise(poplar::Graph& graph, const Tensor& acts, const Tensor& combinedMultiplicand,
                      const Tensor& addend, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, combinedMultiplicand, addend),
                              "batchNormalise");
    Tensor out =
        nc::affine(graph, acts, combinedMultiplicand, addend, prog, layout("batchNormalise"), di);
    di.addOutput(out);
    return out;
}

std::pair<Tensor, Tensor> batchNormParamGradients(poplar::Graph& graph, const Tensor& acts,
                                                  const Tensor& gradsIn, const Tensor& mean,
                                                  const Tensor& iStdDev,
                                                  poplar::program::Sequence& prog,
                                                  const poplar::Type& partialsType,
                                                  const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, gradsIn, mean, iStdDev),
                              "batchNormParamGradients");
    const auto l = layout("batchNormParamGradients");
    Tensor whitened = nc::whiten(graph, acts, mean, iStdDev, prog, l, di);
    return nc::paramGradients(graph, whitened, gradsIn, prog, partialsType, l, di);
}

std::pair<Tensor, Tensor> batchNormParamGradients(poplar::Graph& graph, const Tensor& actsWhitened,
                                                  const Tensor& gradsIn,
                                                  poplar::program::Sequence& prog,
                                                  const poplar::Type& partialsType,
                                                  const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(actsWhitened, gradsIn),
                              "batchNormParamGradients");
    return nc::paramGradients(graph, actsWhitened, gradsIn, prog, partialsType,
                              layout("batchNormParamGradients"), di);
}

Tensor batchNormGradients(poplar::Graph& graph, const Tensor& acts, const Tensor& gradsIn,
                          const Tensor& mean, const Tensor& invStdDev, const Tensor& gamma,
                          poplar::program::Sequence& prog, const poplar::Type& partialsType,
                          const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, gradsIn, mean, invStdDev, gamma),
                              "batchNormGradients");
    const auto l = layout("batchNormGradients");
    Tensor whitened = nc::whiten(graph, acts, mean, invStdDev, prog, l, di);
    Tensor out =
        nc::gradients(graph, whitened, gradsIn, invStdDev, gamma, prog, partialsType, l, di);
    di.addOutput(out);
    return out;
}

Tensor batchNormGradients(poplar::Graph& graph, const Tensor& actsWhitened, const Tensor& gradsIn,
                          const Tensor& invStdDev, const Tensor& gamma,
                          poplar::program::Sequence& prog, const poplar::Type& partialsType,
                          const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(actsWhitened, gradsIn, invStdDev, gamma),
                              "batchNormGradients");
    Tensor out = nc::gradients(graph, actsWhitened, gradsIn, invStdDev, gamma, prog, partialsType,
                               layout("batchNormGradients"), di);
    di.addOutput(out);
    return out;
}

void batchNormParamUpdate(poplar::Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          float scale, Tensor& gamma, Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(gammaDelta, betaDelta, scale, gamma, beta),
                              "batchNormParamUpdate");
    nc::paramUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di);
}

void batchNormParamUpdate(poplar::Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          const Tensor& scale, Tensor& gamma, Tensor& beta,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(gammaDelta, betaDelta, scale, gamma, beta),
                              "batchNormParamUpdate");
    nc::paramUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di);
}

} // namespace bn
} // namespace popnn
