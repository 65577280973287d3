#pragma once
// popnn group normalisation: statistics of activations {N, C, ...} per batch element and group
// of channels (group g holds channels [g * C / numGroups, (g + 1) * C / numGroups), or with the
// option "groupNormStridedChannelGrouping" "true" channels g, g + numGroups, ...), whitening,
// the per-channel affine normalisation, and the gradients, as PopLibs' popnn::gn.
//
// mean and invStdDev are {N * numGroups} (element n * numGroups + g) in the activations' type.

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <utility>

namespace popnn {
namespace gn {

std::pair<poplar::Tensor, poplar::Tensor>
groupNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                    poplar::program::Sequence& prog, unsigned numGroups, bool unbiasedVarEstimate,
                    bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
                    const poplar::DebugContext& debugContext = {},
                    const poplar::OptionFlags& options = {});

poplar::Tensor groupNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                               poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {},
                               const poplar::OptionFlags& options = {});

/// {whitened * gamma + beta, whitened}, gamma and beta {C}.
std::pair<poplar::Tensor, poplar::Tensor>
groupNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
               const poplar::Tensor& beta, const poplar::Tensor& mean,
               const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {},
               const poplar::OptionFlags& options = {});

/// {gammaDelta, betaDelta} {C}.
std::pair<poplar::Tensor, poplar::Tensor> groupNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gradsIn,
    const poplar::Tensor& mean, const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
    const poplar::Type& partialsType = poplar::FLOAT, const poplar::DebugContext& debugContext = {},
    const poplar::OptionFlags& options = {});
std::pair<poplar::Tensor, poplar::Tensor> groupNormParamGradients(
    poplar::Graph& graph, const poplar::Tensor& actsWhitened, const poplar::Tensor& gradsIn,
    poplar::program::Sequence& prog, const poplar::Type& partialsType = poplar::FLOAT,
    const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {});

/// The gradient with respect to the activations through the whole layer, statistics included
/// (as batchNormGradients, means over each batch element's group).
poplar::Tensor groupNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                  const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
                                  poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});
poplar::Tensor groupNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                                  const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});

/// gamma -= scale * gammaDelta, beta -= scale * betaDelta.
void groupNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                          poplar::Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {});
void groupNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                          poplar::Tensor& gamma, poplar::Tensor& beta,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {},
                          const poplar::OptionFlags& options = {});

} // namespace gn
} // namespace popnn
