#pragma once
// poplin convolutions: creating their inputs and weights, the forward pass, the input gradient
// (a convolution with transposed and flipped weights), weight deltas and updates, and biases.
//
// A planner splits each convolution over tiles by batch, conv group, output channels, the
// outermost output field dimension and input channels (partial sums then reduced), choosing by
// estimated cycles under a memory limit. Each tile runs one convolution-partial vertex per conv
// group it holds: ConvPartial1x1Out (1x1 kernels) or ConvPartialnx1 on the AMP units, or
// ConvPartialHorizontalMac, whichever PopLibs' cycle estimators rate cheaper for its share.
//
// Tensors: inputs {B, G * Ci, F...}, weights {G, Co, Ci, K...}, outputs {B, G * Co, O...}, biases
// {G * Co}. Options: "availableMemoryProportion" (0 < p <= 1, default 0.6), "partialsType"
// ("float" or "half", default "float"), "pass" (NONE, INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD,
// TRAINING_WU, FC_INFERENCE_FWD, FC_TRAINING_FWD, FC_TRAINING_BWD, FC_TRAINING_WU; recorded with
// the plan, it does not change it), "use128BitConvUnitLoad" (true/false, default false: the AMP
// units load weights 128 bits at a time, not 64), and PopLibs' tuning options
// "enableMultiStageReduce", "enableFastReduce", "remapOutputTensor", "enableConvDithering"
// (true/false; accepted without effect). Any other option is refused.

#include <cstdint>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplin/ConvParams.hpp>
#include <poplin/MatMul.hpp> // PlanningCache, shared with matMul as in the SDK
#include <string>

namespace poplin {

/// Floating-point operations of the forward, input-gradient and weight-update passes (two per
/// multiply-accumulate that meets an input element rather than padding).
std::uint64_t getFwdFlops(const ConvParams& params);
std::uint64_t getBwdFlops(const ConvParams& params);
std::uint64_t getWuFlops(const ConvParams& params);
/// Those FLOPs divided by the peak FLOPs per cycle of the graph's target (all tiles).
double getFwdPerfectCycleCount(const poplar::Graph& graph, const ConvParams& params);
double getBwdPerfectCycleCount(const poplar::Graph& graph, const ConvParams& params);
double getWuPerfectCycleCount(const poplar::Graph& graph, const ConvParams& params);

/// A weights variable {G, Co, Ci, K...} mapped where the plan of `params` reads it.
poplar::Tensor createWeights(poplar::Graph& graph, const ConvParams& params,
                             const poplar::DebugContext& debugContext,
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);
/// A biases variable {C} for the output channels of `activations` {B, C, ...}, spread over tiles.
poplar::Tensor createBiases(poplar::Graph& graph, const poplar::Tensor& activations,
                            const poplar::DebugContext& debugContext = {"biases"});
/// An input variable {B, G * Ci, F...} mapped where the plan of `params` reads it.
poplar::Tensor createInput(poplar::Graph& graph, const ConvParams& params,
                           const poplar::DebugContext& debugContext,
                           const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// Convolves `in` {B, G * Ci, F...} with `weights` {G, Co, Ci, K...} into a new tensor
/// {B, G * Co, O...} of params.outputType. With `transposeAndFlipWeights` the weights are given
/// as {G, Ci, Co, K...} (the forward pass's weights, for the input gradient with
/// getGradientParams) and used with their channel axes swapped and each spatial axis reversed.
poplar::Tensor convolution(poplar::Graph& graph, const poplar::Tensor& in,
                           const poplar::Tensor& weights, const ConvParams& params,
                           bool transposeAndFlipWeights, poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {},
                           const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// Copies `weightsIn` {G, Co, Ci, K...} into `weightsOut` {G, Ci, Co, K...} with the channel
/// axes swapped and every spatial axis reversed.
void weightsTransposeChansFlipXY(poplar::Graph& graph, const poplar::Tensor& weightsIn,
                                 const poplar::Tensor& weightsOut, poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = {});

/// The gradient of the loss with respect to the weights {G, Co, Ci, K...}, given the gradient
/// with respect to the output `zDeltas` {B, G * Co, O...} and the forward input `activations`.
poplar::Tensor calculateWeightDeltas(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                                     const poplar::Tensor& activations, const ConvParams& params,
                                     poplar::program::Sequence& prog,
                                     const poplar::DebugContext& debugContext = {},
                                     const poplar::OptionFlags& options = {},
                                     PlanningCache* cache = nullptr);

/// weights += scale * calculateWeightDeltas(...) (pass minus the learning rate for SGD).
void convolutionWeightUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                             const poplar::Tensor& weights, const poplar::Tensor& activations,
                             ConvParams params, const poplar::Tensor& scale,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);
void convolutionWeightUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                             const poplar::Tensor& weights, const poplar::Tensor& activations,
                             ConvParams params, float scale, poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext = {},
                             const poplar::OptionFlags& options = {},
                             PlanningCache* cache = nullptr);

/// biases += scale * (zDeltas summed over every dimension but the channels): the bias gradient
/// applied (pass minus the learning rate for SGD).
void convolutionBiasUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                           const poplar::Tensor& biases, const poplar::Tensor& scale,
                           const poplar::OptionFlags& options, poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {});
void convolutionBiasUpdate(poplar::Graph& graph, const poplar::Tensor& zDeltas,
                           const poplar::Tensor& biases, float scale,
                           const poplar::OptionFlags& options, poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext = {});

/// in {B, C, ...} += biases {C}, broadcast over the batch and the field.
void addBias(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& biases,
             poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// Writes the plan of `params` (splits, vertex, estimated cycles) to `out`.
void reportPlanInfo(std::ostream& out, const poplar::Graph& graph, const ConvParams& params,
                    const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// The estimated cycles and bytes per tile of the plan of `params`.
struct PlanCosts {
    std::size_t cycles;
    std::size_t memory;
};
PlanCosts reportPlanEstimatedCosts(const poplar::Graph& graph, const ConvParams& params,
                                   const poplar::OptionFlags& options = {},
                                   PlanningCache* cache = nullptr);

} // namespace poplin
