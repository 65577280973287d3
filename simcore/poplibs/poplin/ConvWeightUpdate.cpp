// poplin's weight-update pass: weight deltas as partial sums over blocks of the batch and the
// output field (ConvWeightDeltas vertices) reduced into the weights' shape, the SGD-style
// weight update, and the bias gradient and update.

#include "poplin/ConvBuild.hpp"
#include "poplin/ConvReduce.hpp"

#include <poplin/Convolution.hpp>
#include <popops/Reduction.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace poplin {

namespace pl = tilescope::poplibs;
namespace cv = tilescope::poplibs::conv;
using poplar::Tensor;

namespace {

Tensor weightDeltas(poplar::Graph& graph, const Tensor& zDeltas, const Tensor& activations,
                    const ConvParams& params, poplar::program::Sequence& prog,
                    const poplar::OptionFlags& options, PlanningCache* cache,
                    pl::PoplibsOpDebugInfo& di) {
    const std::string api = "poplin::calculateWeightDeltas";
    params.validate();
    std::vector<std::size_t> inShape = {params.batchSize, params.getNumInputChans()};
    inShape.insert(inShape.end(), params.inputFieldShape.begin(), params.inputFieldShape.end());
    std::vector<std::size_t> outShape = {params.batchSize, params.getNumOutputChans()};
    const auto field = params.getOutputFieldShape();
    outShape.insert(outShape.end(), field.begin(), field.end());
    cv::checkShape(api, "activations", activations, inShape);
    cv::checkShape(api, "zDeltas", zDeltas, outShape);
    if (activations.elementType() != params.inputType || zDeltas.elementType() != params.inputType)
        throw poputil::poplibs_error(
            api + ": zDeltas '" + zDeltas.getName() + "' (" + zDeltas.elementType().toString() +
            ") and activations '" + activations.getName() + "' (" +
            activations.elementType().toString() + ") must have the parameters' input type " +
            params.inputType.toString());
    const auto o = cv::parseOptions(options, api);
    const ConvParams p3 = pl::canonicalParams(params);
    const auto plan = cv::getPlan(graph, p3, o, true, cache);
    di.setValue("plan", plan.describe());
    di.setValue("estimatedCycles", plan.estimatedCycles);
    const auto& target = graph.getTarget();
    const Tensor x5 = cv::canonical(activations, false), dy5 = cv::canonical(zDeltas, false);
    const std::size_t B = p3.batchSize, G = p3.numConvGroups, Co = p3.outputChannels,
                      Ci = p3.inputChannels;
    const std::size_t out[3] = {p3.getOutputSize(0), p3.getOutputSize(1), p3.getOutputSize(2)};
    const std::size_t kernel[3] = {p3.kernelShape[0], p3.kernelShape[1], p3.kernelShape[2]};
    const std::size_t F1 = p3.inputFieldShape[1], F2 = p3.inputFieldShape[2];
    const auto bR = cv::ranges(B, plan.blockB), gR = cv::ranges(G, plan.blockG),
               oR = cv::ranges(Co, plan.blockO), fR = cv::ranges(out[0], plan.blockF),
               iR = cv::ranges(Ci, plan.blockI);
    const std::size_t parts = bR.size() * fR.size();
    const poplar::Type wType = params.inputType;
    const bool direct = parts == 1 && o.partialsType == wType;
    const poplar::Type partialsType = direct ? wType : o.partialsType;
    Tensor partials =
        graph.addVariable(partialsType, {parts, G, Co, Ci, kernel[0], kernel[1], kernel[2]},
                          {di, direct ? "weightDeltas" : "partials"});
    const std::string vertexType =
        poputil::templateVertex("poplin::ConvWeightDeltas", params.inputType, partialsType);
    poplar::ComputeSet cs = graph.addComputeSet({di, "WeightDeltas"});
    const unsigned workers = target.getNumWorkerContexts();
    for (const auto& f : fR) {
        const auto [lo, hi] = cv::inputRows(p3, f.begin, f.end);
        const auto table = cv::tables(p3, f.begin, f.end, lo);
        const std::size_t inBlock[3] = {hi - lo, F1, F2};
        const std::size_t outBlock[3] = {f.end - f.begin, out[1], out[2]};
        for (const auto& b : bR) {
            const std::size_t part = b.index * fR.size() + f.index;
            for (const auto& gb : gR)
                for (const auto& oc : oR)
                    for (const auto& ic : iR) {
                        const unsigned tile =
                            plan.tileOf(b.index, gb.index, oc.index, f.index, ic.index);
                        const Tensor tableT =
                            cv::tableConstant(graph, table, tile, {di, "worklist"});
                        const std::size_t groups = gb.end - gb.begin;
                        const std::uint64_t cycles = pl::convWeightDeltaCycles(
                            target, p3.inputType, groups, b.end - b.begin, oc.end - oc.begin,
                            ic.end - ic.begin, outBlock, kernel, plan.use128BitConvUnitLoad);
                        // One vertex for the tile's conv groups, their blocks one after the
                        // other in each operand, as the forward pass.
                        std::vector<Tensor> deltas, ins, outs;
                        for (std::size_t g = gb.begin; g < gb.end; ++g) {
                            const Tensor dst = partials[part][g].slice(
                                {oc.begin, ic.begin, 0, 0, 0},
                                {oc.end, ic.end, kernel[0], kernel[1], kernel[2]});
                            graph.setTileMapping(dst, tile);
                            outs.push_back(dst.flatten());
                            deltas.push_back(
                                dy5.slice({b.begin, g * Co + oc.begin, f.begin, 0, 0},
                                          {b.end, g * Co + oc.end, f.end, out[1], out[2]})
                                    .flatten());
                            ins.push_back(x5.slice({b.begin, g * Ci + ic.begin, lo, 0, 0},
                                                   {b.end, g * Ci + ic.end, hi, F1, F2})
                                              .flatten());
                        }
                        poplar::VertexRef v = graph.addVertex(cs, vertexType);
                        graph.connect(v["deltas"], poplar::concat(deltas));
                        graph.connect(v["in"], poplar::concat(ins));
                        graph.connect(v["out"], poplar::concat(outs));
                        graph.setInitialValue(v["convGroups"], unsigned(groups));
                        cv::setVertexState(graph, v, tableT, b.end - b.begin, ic.end - ic.begin,
                                           oc.end - oc.begin, inBlock, outBlock, kernel);
                        graph.setTileMapping(v, tile);
                        graph.setPerfEstimate(v, (cycles + workers - 1) / workers);
                    }
        }
    }
    prog.add(poplar::program::Execute(cs, {di}));
    std::vector<std::size_t> wShape = {G, Co, Ci};
    wShape.insert(wShape.end(), params.kernelShape.begin(), params.kernelShape.end());
    if (direct)
        return partials[0].reshape(wShape);
    Tensor result = graph.addVariable(wType, {G, Co, Ci, kernel[0], kernel[1], kernel[2]},
                                      {di, "weightDeltas"});
    for (const auto& gb : gR)
        for (const auto& oc : oR)
            for (const auto& ic : iR) {
                std::vector<unsigned> tiles;
                for (const auto& b : bR)
                    for (const auto& f : fR)
                        tiles.push_back(
                            plan.tileOf(b.index, gb.index, oc.index, f.index, ic.index));
                for (std::size_t g = gb.begin; g < gb.end; ++g)
                    cv::spread(graph,
                               result[g].slice({oc.begin, ic.begin, 0, 0, 0},
                                               {oc.end, ic.end, kernel[0], kernel[1], kernel[2]}),
                               tiles);
            }
    // PopLibs' weight-update pass is a convolution: its partials reduce as any convolution's
    // (lib/poplin/ConvReduce.cpp), as its planner costs them.
    pl::reducePartials(graph, partials, result, prog, di);
    return result.reshape(wShape);
}

template <typename Scale>
void weightUpdate(poplar::Graph& graph, const Tensor& zDeltas, const Tensor& weights,
                  const Tensor& activations, const ConvParams& params, const Scale& scale,
                  poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                  const poplar::OptionFlags& options, PlanningCache* cache) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(zDeltas, weights, activations, options),
                              "convolutionWeightUpdate");
    Tensor deltas = weightDeltas(graph, zDeltas, activations, params, prog, options, cache, di);
    if (weights.shape() != deltas.shape())
        throw poputil::poplibs_error("poplin::convolutionWeightUpdate: weights '" +
                                     weights.getName() + "' of shape " + weights.shapeToString() +
                                     " do not match the parameters' " + deltas.shapeToString());
    popops::scaledAddTo(graph, weights, deltas, scale, prog, {di, "update"});
    di.addFlops(getWuFlops(params) + 2 * weights.numElements());
}

template <typename Scale>
void biasUpdate(poplar::Graph& graph, const Tensor& zDeltas, const Tensor& biases,
                const Scale& scale, const poplar::OptionFlags& options,
                poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(zDeltas, biases, options),
                              "convolutionBiasUpdate");
    const auto o = cv::parseOptions(options, "poplin::convolutionBiasUpdate");
    if (zDeltas.rank() < 2 || biases.rank() != 1 || biases.dim(0) != zDeltas.dim(1))
        throw poputil::poplibs_error("poplin::convolutionBiasUpdate: biases '" + biases.getName() +
                                     "' " + biases.shapeToString() +
                                     " do not match the channels of zDeltas '" + zDeltas.getName() +
                                     "' " + zDeltas.shapeToString());
    std::vector<std::size_t> dims = {0};
    for (std::size_t d = 2; d < zDeltas.rank(); ++d)
        dims.push_back(d);
    // The bias gradient: the output gradient summed over the batch and the field.
    Tensor grad = popops::reduce(graph, zDeltas, o.partialsType, dims, popops::Operation::ADD, prog,
                                 {di, "biasGradient"});
    popops::scaledAddTo(graph, biases, grad, scale, prog, {di, "update"});
    di.addFlops(zDeltas.numElements() + 2 * biases.numElements());
}

} // namespace

Tensor calculateWeightDeltas(poplar::Graph& graph, const Tensor& zDeltas, const Tensor& activations,
                             const ConvParams& params, poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext,
                             const poplar::OptionFlags& options, PlanningCache* cache) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(zDeltas, activations, options),
                              "calculateWeightDeltas");
    Tensor out = weightDeltas(graph, zDeltas, activations, params, prog, options, cache, di);
    di.addFlops(getWuFlops(params));
    di.addOutput(out);
    return out;
}

void convolutionWeightUpdate(poplar::Graph& graph, const Tensor& zDeltas, const Tensor& weights,
                             const Tensor& activations, ConvParams params, const Tensor& scale,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext,
                             const poplar::OptionFlags& options, PlanningCache* cache) {
    weightUpdate(graph, zDeltas, weights, activations, params, scale, prog, debugContext, options,
                 cache);
}

void convolutionWeightUpdate(poplar::Graph& graph, const Tensor& zDeltas, const Tensor& weights,
                             const Tensor& activations, ConvParams params, float scale,
                             poplar::program::Sequence& prog,
                             const poplar::DebugContext& debugContext,
                             const poplar::OptionFlags& options, PlanningCache* cache) {
    weightUpdate(graph, zDeltas, weights, activations, params, scale, prog, debugContext, options,
                 cache);
}

void convolutionBiasUpdate(poplar::Graph& graph, const Tensor& zDeltas, const Tensor& biases,
                           const Tensor& scale, const poplar::OptionFlags& options,
                           poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext) {
    biasUpdate(graph, zDeltas, biases, scale, options, prog, debugContext);
}

void convolutionBiasUpdate(poplar::Graph& graph, const Tensor& zDeltas, const Tensor& biases,
                           float scale, const poplar::OptionFlags& options,
                           poplar::program::Sequence& prog,
                           const poplar::DebugContext& debugContext) {
    biasUpdate(graph, zDeltas, biases, scale, options, prog, debugContext);
}

} // namespace poplin
