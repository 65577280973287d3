// poplin convolutions: creation of inputs and weights where the plan reads them, the forward
// pass (and with transposed, flipped weights the input gradient), FLOP counts and plan reports.

#include "poplin/ConvBuild.hpp"

#include <ostream>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

namespace poplin {

namespace pl = tilescope::poplibs;
namespace cv = tilescope::poplibs::conv;
using poplar::Tensor;

namespace {

std::vector<std::size_t> inputShape(const ConvParams& p) {
    std::vector<std::size_t> s = {p.batchSize, p.getNumInputChans()};
    s.insert(s.end(), p.inputFieldShape.begin(), p.inputFieldShape.end());
    return s;
}
std::vector<std::size_t> weightsShape(const ConvParams& p, bool transposed = false) {
    std::vector<std::size_t> s = {p.numConvGroups, transposed ? p.inputChannels : p.outputChannels,
                                  transposed ? p.outputChannels : p.inputChannels};
    s.insert(s.end(), p.kernelShape.begin(), p.kernelShape.end());
    return s;
}

/// Multiply-accumulates that meet an input element (not padding or a dilation hole).
std::uint64_t usefulMacs(const ConvParams& p) {
    std::uint64_t perChannelPair = 1;
    for (unsigned d = 0; d < p.getNumFieldDims(); ++d) {
        std::uint64_t n = 0;
        for (unsigned o = 0; o < p.getOutputSize(d); ++o)
            for (unsigned k = 0; k < p.kernelShape[d]; ++k)
                n += getInputIndex(d, o, k, p) != ~0u;
        perChannelPair *= n;
    }
    return perChannelPair * p.batchSize * p.numConvGroups * p.inputChannels * p.outputChannels;
}

double perfectCycles(const poplar::Graph& graph, const ConvParams& p, std::uint64_t flops) {
    const auto& target = graph.getTarget();
    const double macsPerCycle =
        target.getNumTiles() * (p.inputType == poplar::HALF ? 64.0 : 16.0); // CycleEstimates.hpp
    return double(flops) / 2.0 / macsPerCycle;
}

Tensor createTensor(poplar::Graph& graph, const ConvParams& params, bool weights,
                    const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                    PlanningCache* cache) {
    const std::string api = weights ? "poplin::createWeights" : "poplin::createInput";
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(options),
                              weights ? "createWeights" : "createInput");
    params.validate();
    const auto o = cv::parseOptions(options, api);
    const ConvParams p3 = pl::canonicalParams(params);
    const auto plan = cv::getPlan(graph, p3, o, false, cache);
    Tensor t =
        graph.addVariable(params.inputType, weights ? weightsShape(params) : inputShape(params),
                          {di, weights ? "weights" : "input"});
    const Tensor c = cv::canonical(t, weights);
    const auto bR = cv::ranges(p3.batchSize, plan.blockB),
               gR = cv::ranges(p3.numConvGroups, plan.blockG),
               oR = cv::ranges(p3.outputChannels, plan.blockO),
               fR = cv::ranges(p3.getOutputSize(0), plan.blockF),
               iR = cv::ranges(p3.inputChannels, plan.blockI);
    const std::size_t Ci = p3.inputChannels;
    if (weights) {
        // Each weights block is read by the tiles of every batch and row block.
        for (const auto& gb : gR)
            for (const auto& oc : oR)
                for (const auto& ic : iR) {
                    std::vector<unsigned> readers;
                    for (const auto& b : bR)
                        for (const auto& f : fR)
                            readers.push_back(
                                plan.tileOf(b.index, gb.index, oc.index, f.index, ic.index));
                    for (std::size_t g = gb.begin; g < gb.end; ++g)
                        cv::spread(graph,
                                   c[g].slice({oc.begin, ic.begin, 0, 0, 0},
                                              {oc.end, ic.end, p3.kernelShape[0], p3.kernelShape[1],
                                               p3.kernelShape[2]}),
                                   readers);
                }
    } else {
        // Each input row goes to the first row block that reads it (rows no block reads go
        // with their neighbours), shared among the tiles of every output channel block.
        const std::size_t F0 = p3.inputFieldShape[0];
        std::vector<std::size_t> owner(F0, fR.size());
        for (const auto& f : fR) {
            const auto [lo, hi] = cv::inputRows(p3, f.begin, f.end);
            for (std::size_t r = lo; r < std::min(hi, F0); ++r)
                if (owner[r] == fR.size())
                    owner[r] = f.index;
        }
        for (std::size_t r = 0; r < F0; ++r)
            if (owner[r] == fR.size())
                owner[r] = r ? owner[r - 1] : 0;
        for (std::size_t r0 = 0; r0 < F0;) {
            std::size_t r1 = r0 + 1;
            while (r1 < F0 && owner[r1] == owner[r0])
                ++r1;
            for (const auto& b : bR)
                for (const auto& gb : gR)
                    for (const auto& ic : iR) {
                        std::vector<unsigned> readers;
                        for (const auto& oc : oR)
                            readers.push_back(
                                plan.tileOf(b.index, gb.index, oc.index, owner[r0], ic.index));
                        for (std::size_t g = gb.begin; g < gb.end; ++g)
                            cv::spread(graph,
                                       c.slice({b.begin, g * Ci + ic.begin, r0, 0, 0},
                                               {b.end, g * Ci + ic.end, r1, p3.inputFieldShape[1],
                                                p3.inputFieldShape[2]}),
                                       readers);
                    }
            r0 = r1;
        }
    }
    di.addOutput(t);
    return t;
}

} // namespace

std::uint64_t getFwdFlops(const ConvParams& params) {
    return 2 * usefulMacs(params);
}
std::uint64_t getBwdFlops(const ConvParams& params) {
    return 2 * usefulMacs(params);
}
std::uint64_t getWuFlops(const ConvParams& params) {
    return 2 * usefulMacs(params);
}
double getFwdPerfectCycleCount(const poplar::Graph& graph, const ConvParams& params) {
    return perfectCycles(graph, params, getFwdFlops(params));
}
double getBwdPerfectCycleCount(const poplar::Graph& graph, const ConvParams& params) {
    return perfectCycles(graph, params, getBwdFlops(params));
}
double getWuPerfectCycleCount(const poplar::Graph& graph, const ConvParams& params) {
    return perfectCycles(graph, params, getWuFlops(params));
}

Tensor createWeights(poplar::Graph& graph, const ConvParams& params,
                     const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                     PlanningCache* cache) {
    return createTensor(graph, params, true, debugContext, options, cache);
}

Tensor createInput(poplar::Graph& graph, const ConvParams& params,
                   const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                   PlanningCache* cache) {
    return createTensor(graph, params, false, debugContext, options, cache);
}

Tensor createBiases(poplar::Graph& graph, const Tensor& activations,
                    const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(activations), "createBiases");
    if (activations.rank() < 2)
        throw poputil::poplibs_error("poplin::createBiases: activations '" + activations.getName() +
                                     "' of shape " + activations.shapeToString() +
                                     " have no channel dimension");
    Tensor b = graph.addVariable(activations.elementType(), {activations.dim(1)}, {di, "biases"});
    poputil::mapTensorLinearly(graph, b);
    di.addOutput(b);
    return b;
}

Tensor convolution(poplar::Graph& graph, const Tensor& in, const Tensor& weights,
                   const ConvParams& params, bool transposeAndFlipWeights,
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                   const poplar::OptionFlags& options, PlanningCache* cache) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, weights, transposeAndFlipWeights, options),
                              "convolution");
    const std::string api = "poplin::convolution";
    params.validate();
    cv::checkShape(api, "input", in, inputShape(params));
    cv::checkShape(api, "weights", weights, weightsShape(params, transposeAndFlipWeights));
    if (in.elementType() != params.inputType || weights.elementType() != params.inputType)
        throw poputil::poplibs_error(
            api + ": input '" + in.getName() + "' (" + in.elementType().toString() +
            ") and weights '" + weights.getName() + "' (" + weights.elementType().toString() +
            ") must have the parameters' input type " + params.inputType.toString());
    const auto o = cv::parseOptions(options, api);
    const ConvParams p3 = pl::canonicalParams(params);
    const auto plan = cv::getPlan(graph, p3, o, false, cache);
    di.setValue("plan", plan.describe());
    di.setValue("pass", o.pass);
    di.setValue("estimatedCycles", plan.estimatedCycles);
    Tensor w6 = cv::canonical(weights, true);
    if (transposeAndFlipWeights)
        w6 = w6.dimShuffle({0, 2, 1, 3, 4, 5}).reverse(3).reverse(4).reverse(5);
    Tensor out5 = cv::forward(graph, cv::canonical(in, false), w6, p3, plan, o, prog, di);
    std::vector<std::size_t> outShape = {params.batchSize, params.getNumOutputChans()};
    const auto field = params.getOutputFieldShape();
    outShape.insert(outShape.end(), field.begin(), field.end());
    Tensor out = out5.reshape(outShape);
    di.addFlops(getFwdFlops(params));
    di.addOutput(out);
    return out;
}

void weightsTransposeChansFlipXY(poplar::Graph&, const Tensor& weightsIn, const Tensor& weightsOut,
                                 poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(weightsIn, weightsOut),
                              "weightsTransposeChansFlipXY");
    if (weightsIn.rank() < 4 || weightsIn.rank() > 6 || weightsOut.rank() != weightsIn.rank() ||
        weightsIn.dim(0) != weightsOut.dim(0) || weightsIn.dim(1) != weightsOut.dim(2) ||
        weightsIn.dim(2) != weightsOut.dim(1))
        throw poputil::poplibs_error(
            "poplin::weightsTransposeChansFlipXY: weights '" + weightsIn.getName() + "' " +
            weightsIn.shapeToString() + " and '" + weightsOut.getName() + "' " +
            weightsOut.shapeToString() + " are not {G, Co, Ci, K...} and {G, Ci, Co, K...}");
    Tensor t = cv::canonical(weightsIn, true)
                   .dimShuffle({0, 2, 1, 3, 4, 5})
                   .reverse(3)
                   .reverse(4)
                   .reverse(5);
    prog.add(poplar::program::Copy(t, cv::canonical(weightsOut, true), false, {di}));
}

void addBias(poplar::Graph& graph, const Tensor& in, const Tensor& biases,
             poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, biases), "addBias");
    if (in.rank() < 2 || biases.rank() != 1 || biases.dim(0) != in.dim(1))
        throw poputil::poplibs_error("poplin::addBias: biases '" + biases.getName() + "' " +
                                     biases.shapeToString() + " do not match the channels of '" +
                                     in.getName() + "' " + in.shapeToString());
    std::vector<std::size_t> shape(in.rank() - 1, 1);
    shape[0] = biases.dim(0);
    popops::addInPlace(graph, in, biases.reshape(shape), prog, {di});
}

PlanCosts reportPlanEstimatedCosts(const poplar::Graph& graph, const ConvParams& params,
                                   const poplar::OptionFlags& options, PlanningCache* cache) {
    params.validate();
    const auto plan =
        cv::getPlan(graph, pl::canonicalParams(params),
                    cv::parseOptions(options, "poplin::reportPlanEstimatedCosts"), false, cache);
    return {plan.estimatedCycles, plan.bytesPerTile};
}

void reportPlanInfo(std::ostream& out, const poplar::Graph& graph, const ConvParams& params,
                    const poplar::OptionFlags& options, PlanningCache* cache) {
    params.validate();
    const auto plan =
        cv::getPlan(graph, pl::canonicalParams(params),
                    cv::parseOptions(options, "poplin::reportPlanInfo"), false, cache);
    out << "Convolution " << params << "\n  plan: " << plan.describe()
        << "\n  estimated cycles: " << plan.estimatedCycles
        << "\n  bytes per tile: " << plan.bytesPerTile << "\n";
}

} // namespace poplin
