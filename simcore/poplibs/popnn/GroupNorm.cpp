// popnn::gn: group normalisation over NormCore's rows, one per batch element and group.

#include "popnn/NormCore.hpp"

#include <popnn/GroupNorm.hpp>

namespace popnn {
namespace gn {

namespace pl = tilescope::poplibs;
namespace nc = tilescope::poplibs::norm;
using poplar::Tensor;

namespace {
/// The layout of statistics {N * groups}: the groups follow from their count and the
/// activations' channels.
nc::Layout layout(const std::string& api, std::size_t groups, const poplar::OptionFlags& options) {
    nc::Layout l;
    l.batch = false;
    l.groups = static_cast<unsigned>(groups);
    l.api = "popnn::gn::" + api;
    nc::parseGroupOptions(l, options);
    return l;
}
/// The number of groups statistics {N * G} of activations {N, ...} stand for.
std::size_t groupsOf(const Tensor& acts, const Tensor& stat) {
    return acts.rank() > 0 && acts.dim(0) > 0 ? stat.numElements() / acts.dim(0) : 1;
}
} // namespace

std::pair<Tensor, Tensor> groupNormStatistics(poplar::Graph& graph, const Tensor acts, float eps,
                                              poplar::program::Sequence& prog, unsigned numGroups,
                                              bool unbiasedVarEstimate, bool stableAlgo,
                                              const poplar::Type& partialsType,
                                              const poplar::DebugContext& debugContext,
                                              const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext,
                              DI_ARGS(acts, eps, numGroups, unbiasedVarEstimate, stableAlgo),
                              "groupNormStatistics");
    auto r = nc::statistics(graph, acts, eps, prog, unbiasedVarEstimate, stableAlgo, partialsType,
                            layout("groupNormStatistics", numGroups, options), di);
    const Tensor mean = r.first, iStdDev = r.second;
    di.addOutputs(DI_ARGS(mean, iStdDev));
    return r;
}

Tensor groupNormWhiten(poplar::Graph& graph, const Tensor& acts, const Tensor& mean,
                       const Tensor& invStdDev, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext,
                       const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, mean, invStdDev), "groupNormWhiten");
    Tensor out = nc::whiten(graph, acts, mean, invStdDev, prog,
                            layout("groupNormWhiten", groupsOf(acts, mean), options), di);
    di.addOutput(out);
    return out;
}

std::pair<Tensor, Tensor>
groupNormalise(poplar::Graph& graph, const Tensor& acts, const Tensor& gamma, const Tensor& beta,
               const Tensor& mean, const Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext, const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, gamma, beta, mean, invStdDev),
                              "groupNormalise");
    const auto l = layout("groupNormalise", groupsOf(acts, mean), options);
    Tensor whitened = nc::whiten(graph, acts, mean, invStdDev, prog, l, di);
    Tensor out = nc::affine(graph, whitened, gamma, beta, prog, l, di);
    di.addOutput(out);
    return {out, whitened};
}

std::pair<Tensor, Tensor>
groupNormParamGradients(poplar::Graph& graph, const Tensor& acts, const Tensor& gradsIn,
                        const Tensor& mean, const Tensor& iStdDev, poplar::program::Sequence& prog,
                        const poplar::Type& partialsType, const poplar::DebugContext& debugContext,
                        const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, gradsIn, mean, iStdDev),
                              "groupNormParamGradients");
    const auto l = layout("groupNormParamGradients", groupsOf(acts, mean), options);
    Tensor whitened = nc::whiten(graph, acts, mean, iStdDev, prog, l, di);
    return nc::paramGradients(graph, whitened, gradsIn, prog, partialsType, l, di);
}

std::pair<Tensor, Tensor> groupNormParamGradients(poplar::Graph& graph, const Tensor& actsWhitened,
                                                  const Tensor& gradsIn,
                                                  poplar::program::Sequence& prog,
                                                  const poplar::Type& partialsType,
                                                  const poplar::DebugContext& debugContext,
                                                  const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(actsWhitened, gradsIn),
                              "groupNormParamGradients");
    // Parameter gradients are per channel: the grouping does not enter.
    return nc::paramGradients(graph, actsWhitened, gradsIn, prog, partialsType,
                              layout("groupNormParamGradients", 1, options), di);
}

Tensor groupNormGradients(poplar::Graph& graph, const Tensor& acts, const Tensor& gradsIn,
                          const Tensor& mean, const Tensor& invStdDev, const Tensor& gamma,
                          poplar::program::Sequence& prog, const poplar::Type& partialsType,
                          const poplar::DebugContext& debugContext,
                          const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, gradsIn, mean, invStdDev, gamma),
                              "groupNormGradients");
    const auto l = layout("groupNormGradients", groupsOf(acts, mean), options);
    Tensor whitened = nc::whiten(graph, acts, mean, invStdDev, prog, l, di);
    Tensor out =
        nc::gradients(graph, whitened, gradsIn, invStdDev, gamma, prog, partialsType, l, di);
    di.addOutput(out);
    return out;
}

Tensor groupNormGradients(poplar::Graph& graph, const Tensor& actsWhitened, const Tensor& gradsIn,
                          const Tensor& invStdDev, const Tensor& gamma,
                          poplar::program::Sequence& prog, const poplar::Type& partialsType,
                          const poplar::DebugContext& debugContext,
                          const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(actsWhitened, gradsIn, invStdDev, gamma),
                              "groupNormGradients");
    Tensor out =
        nc::gradients(graph, actsWhitened, gradsIn, invStdDev, gamma, prog, partialsType,
                      layout("groupNormGradients", groupsOf(actsWhitened, invStdDev), options), di);
    di.addOutput(out);
    return out;
}

void groupNormParamUpdate(poplar::Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          float scale, Tensor& gamma, Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext, const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(gammaDelta, betaDelta, scale, gamma, beta),
                              "groupNormParamUpdate");
    nc::paramUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di);
}

void groupNormParamUpdate(poplar::Graph& graph, const Tensor& gammaDelta, const Tensor& betaDelta,
                          const Tensor& scale, Tensor& gamma, Tensor& beta,
                          poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                          const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(gammaDelta, betaDelta, scale, gamma, beta),
                              "groupNormParamUpdate");
    nc::paramUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, di);
}

} // namespace gn
} // namespace popnn
