#pragma once
// popnn::calcLoss: loss and its gradient for a batch of model outputs against class labels.

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popops/EncodingConstants.hpp>
#include <utility>

namespace popnn {

/// SUM_SQUARED_LOSS: loss = 0.5 * sum_j (y_j - onehot_j)^2, delta = y - onehot.
/// CROSS_ENTROPY_LOSS (y are probabilities, e.g. softmax outputs): loss = -log(y_label),
/// delta = y - onehot.
enum LossType { SUM_SQUARED_LOSS, CROSS_ENTROPY_LOSS };

/// For modelOutputs {B, C} (FLOAT or HALF) and expected labels {B} (INT or UNSIGNED_INT, each in
/// [0, C) or MASKED_LABEL_CODE for a row to leave out), writes loss {B} and deltas {B, C} of
/// the outputs' type.
void calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
              const poplar::Tensor& expected, const poplar::Tensor& loss,
              const poplar::Tensor& deltas, LossType lossType, poplar::program::Sequence& prog,
              const poplar::DebugContext& debugContext = {});

/// As above, and also counts the rows whose largest output is at the expected label into
/// `numCorrect` (a scalar UNSIGNED_INT or INT tensor).
void calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
              const poplar::Tensor& expected, const poplar::Tensor& loss,
              const poplar::Tensor& deltas, const poplar::Tensor& numCorrect, LossType lossType,
              poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

// The SDK's forms: the same computations returned as a program for the caller to add.

poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, LossType lossType,
                                  const poplar::DebugContext& debugContext = {});
poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& numCorrect,
                                  LossType lossType, const poplar::DebugContext& debugContext = {});
/// With scalar tensors of the outputs' type for loss scaling (CROSS_ENTROPY_LOSS only, as in
/// PopLibs): modelOutputs are taken as probabilities times `modelOutputScaling`, deltas are
/// (deltasScale / modelOutputScaling) * (y - onehot * modelOutputScaling) and the loss is
/// -log(y_label) + log(modelOutputScaling).
poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& deltasScale,
                                  const poplar::Tensor& modelOutputScaling, LossType lossType,
                                  const poplar::DebugContext& debugContext = {});
poplar::program::Program calcLoss(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                  const poplar::Tensor& expected, const poplar::Tensor& loss,
                                  const poplar::Tensor& deltas, const poplar::Tensor& deltasScale,
                                  const poplar::Tensor& modelOutputScaling,
                                  const poplar::Tensor& numCorrect, LossType lossType,
                                  const poplar::DebugContext& debugContext = {});

/// Counts into `numCorrect` (a single UNSIGNED_INT or INT element) the rows of modelOutputs
/// {B, C} whose largest output is at the expected label ({B}, INT or UNSIGNED_INT).
poplar::program::Program calcAccuracy(poplar::Graph& graph, const poplar::Tensor& modelOutputs,
                                      const poplar::Tensor& expected,
                                      const poplar::Tensor& numCorrect,
                                      const poplar::DebugContext& debugContext = {});

/// For a 2D input {rows, columns} (FLOAT, HALF, INT or UNSIGNED_INT), the column of each row's
/// largest element as a new UNSIGNED_INT tensor {rows}; ties go to the first such column.
poplar::Tensor argMax(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});
/// As argMax, also returning each row's largest value (of the input's type): {max, argMax}.
std::pair<poplar::Tensor, poplar::Tensor>
maxAndArgMax(poplar::Graph& graph, const poplar::Tensor& input, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {});
/// As argMax for each row's smallest element.
poplar::Tensor argMin(poplar::Graph& graph, const poplar::Tensor& input,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});
/// As maxAndArgMax for each row's smallest element: {min, argMin}.
std::pair<poplar::Tensor, poplar::Tensor>
minAndArgMin(poplar::Graph& graph, const poplar::Tensor& input, poplar::program::Sequence& prog,
             const poplar::DebugContext& debugContext = {});

/// The K largest values of each row of a 2D input {rows, columns} (FLOAT, HALF, INT or
/// UNSIGNED_INT; K <= columns) as a new tensor {rows, K} of the input's type, largest first
/// (whatever `sort` says: a sorted result is also a valid unsorted one; ties keep the lower
/// column first). `indices` is set to a new UNSIGNED_INT tensor {rows, K} of their columns.
poplar::Tensor topK(poplar::Graph& graph, const poplar::Tensor& input, poplar::Tensor& indices,
                    unsigned K, bool sort, poplar::program::Sequence& prog,
                    const poplar::DebugContext& debugContext = {});

} // namespace popnn
