#pragma once
// popnn::logSoftmax: the logarithm of the softmax over the innermost dimension.

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popnn {

/// log(softmax(t)) over the innermost dimension, computed as (t - max) - log(sum(exp(t - max)))
/// so that it stays finite where softmax underflows; the sums accumulate in FLOAT. FLOAT or HALF.
poplar::Tensor logSoftmax(poplar::Graph& graph, poplar::Tensor t, poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {});
/// t = logSoftmax(t).
void logSoftmaxInPlace(poplar::Graph& graph, poplar::Tensor t, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});

} // namespace popnn
