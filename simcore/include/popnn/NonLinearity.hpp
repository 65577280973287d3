#pragma once
// popnn non-linearities and their gradients.

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

namespace popnn {

/// SOFTMAX normalises over the innermost dimension (subtracting the maximum first, so it is the
/// numerically stable form); the others act element by element. GELU uses the tanh
/// approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
enum class NonLinearityType { SIGMOID, RELU, TANH, GELU, SOFTMAX };

/// f(t) as a new tensor mapped like t (FLOAT or HALF).
poplar::Tensor nonLinearity(poplar::Graph& graph, NonLinearityType nonLinearityType,
                            poplar::Tensor t, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {},
                            const poplar::OptionFlags& options = {});
/// t = f(t).
void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nonLinearityType, poplar::Tensor t,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {},
                         const poplar::OptionFlags& options = {});
/// The gradient with respect to the input: outGradient * f'(x) for RELU, SIGMOID and TANH, where
/// `act` is the forward output f(x) (their derivatives are functions of f(x)); for GELU `act` is
/// the forward input x, as in PopLibs, and f' is the derivative of the same tanh approximation;
/// for SOFTMAX (over the innermost dimension, `act` = y) y * (dy - sum(dy * y)).
poplar::Tensor nonLinearityInputGradient(poplar::Graph& graph, NonLinearityType nonLinearityType,
                                         poplar::Tensor act, poplar::Tensor outGradient,
                                         poplar::program::Sequence& prog,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {});

} // namespace popnn
