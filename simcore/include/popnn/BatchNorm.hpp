#pragma once
// popnn batch normalisation: per-channel statistics of activations {N, C, ...} over the batch
// and the field, whitening, the affine normalisation, and the gradients, as PopLibs' popnn::bn.
//
// mean and invStdDev are {C} in the activations' type; invStdDev = 1 / sqrt(var + eps), the
// variance biased unless `unbiasedVarEstimate` (then times n / (n - 1)). `stableAlgo` computes
// the variance from the differences to the mean rather than from the mean of squares.
// Statistics are reduced in `partialsType`.

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <utility>

namespace popnn {
namespace bn {

/// The mean and inverse standard deviation {C} of `acts` {N, C, ...}.
std::pair<poplar::Tensor, poplar::Tensor>
batchNormStatistics(poplar::Graph& graph, const poplar::Tensor acts, float eps,
                    poplar::program::Sequence& prog, bool unbiasedVarEstimate,
                    bool stableAlgo = false, const poplar::Type& partialsType = poplar::FLOAT,
                    const poplar::DebugContext& debugContext = {});

/// (acts - mean) * invStdDev, per channel.
poplar::Tensor batchNormWhiten(poplar::Graph& graph, const poplar::Tensor& acts,
                               const poplar::Tensor& mean, const poplar::Tensor& invStdDev,
                               poplar::program::Sequence& prog,
                               const poplar::DebugContext& debugContext = {});

/// {whitened * gamma + beta, whitened}, gamma and beta {C}.
std::pair<poplar::Tensor, poplar::Tensor>
batchNormalise(poplar::Graph& graph, const poplar::Tensor& acts, const poplar::Tensor& gamma,
               const poplar::Tensor& beta, const poplar::Tensor& mean,
               const poplar::Tensor& invStdDev, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext = {});

/// acts * combinedMultiplicand + addend per channel (inference with folded statistics).
poplar::Tensor batchNormalise(poplar::Graph& graph, const poplar::Tensor& acts,
                              const poplar::Tensor& combinedMultiplicand,
                              const poplar::Tensor& addend, poplar::program::Sequence& prog,
                              const poplar::DebugContext& debugContext = {});

/// {gammaDelta, betaDelta} {C}: the sums over the batch and field of gradsIn * whitened and of
/// gradsIn.
std::pair<poplar::Tensor, poplar::Tensor>
batchNormParamGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                        const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                        const poplar::Tensor& iStdDev, poplar::program::Sequence& prog,
                        const poplar::Type& partialsType = poplar::FLOAT,
                        const poplar::DebugContext& debugContext = {});
std::pair<poplar::Tensor, poplar::Tensor>
batchNormParamGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                        const poplar::Tensor& gradsIn, poplar::program::Sequence& prog,
                        const poplar::Type& partialsType = poplar::FLOAT,
                        const poplar::DebugContext& debugContext = {});

/// The gradient with respect to the activations through the whole layer, statistics included:
/// invStdDev * (g - mean(g) - whitened * mean(g * whitened)) with g = gradsIn * gamma, means over
/// the batch and field of each channel.
poplar::Tensor batchNormGradients(poplar::Graph& graph, const poplar::Tensor& acts,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& mean,
                                  const poplar::Tensor& invStdDev, const poplar::Tensor& gamma,
                                  poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {});
poplar::Tensor batchNormGradients(poplar::Graph& graph, const poplar::Tensor& actsWhitened,
                                  const poplar::Tensor& gradsIn, const poplar::Tensor& invStdDev,
                                  const poplar::Tensor& gamma, poplar::program::Sequence& prog,
                                  const poplar::Type& partialsType = poplar::FLOAT,
                                  const poplar::DebugContext& debugContext = {});

/// gamma -= scale * gammaDelta, beta -= scale * betaDelta (scale: the learning rate).
void batchNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, float scale, poplar::Tensor& gamma,
                          poplar::Tensor& beta, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {});
void batchNormParamUpdate(poplar::Graph& graph, const poplar::Tensor& gammaDelta,
                          const poplar::Tensor& betaDelta, const poplar::Tensor& scale,
                          poplar::Tensor& gamma, poplar::Tensor& beta,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {});

} // namespace bn
} // namespace popnn
