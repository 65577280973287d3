#include "poplin/ConvBuild.hpp"

#include "poplin/ConvReduce.hpp"
#include "poplin/PlanningCacheImpl.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>
#include <poplin/ConvUtil.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

namespace tilescope::poplibs::conv {

using poplar::Tensor;

bool parseBoolOption(const std::string& name, const std::string& value, const std::string& api) {
    if (value == "true")
        return true;
    if (value == "false")
        return false;
    throw poplar::invalid_option(api + ": option '" + name + "' must be 'true' or 'false', got '" +
                                 value + "'");
}

Options parseOptions(const poplar::OptionFlags& options, const std::string& api) {
    static const char* const passes[] = {
        "NONE",          "INFERENCE_FWD",    "TRAINING_FWD",    "TRAINING_BWD",
        "TRAINING_WU",   "FC_INFERENCE_FWD", "FC_TRAINING_FWD", "FC_TRAINING_BWD",
        "FC_TRAINING_WU"};
    Options o;
    for (const auto& [name, value] : options) {
        if (name == "availableMemoryProportion") {
            std::size_t used = 0;
            double p = 0;
            try {
                p = std::stod(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != value.size() || !(p > 0.0 && p <= 1.0))
                throw poplar::invalid_option(api +
                                             ": option 'availableMemoryProportion' must be "
                                             "a number in (0, 1], got '" +
                                             value + "'");
            o.availableMemoryProportion = p;
        } else if (name == "partialsType") {
            if (value == "float")
                o.partialsType = poplar::FLOAT;
            else if (value == "half")
                o.partialsType = poplar::HALF;
            else
                throw poplar::invalid_option(api +
                                             ": option 'partialsType' must be 'float' or "
                                             "'half', got '" +
                                             value + "'");
        } else if (name == "pass") {
            if (std::find(std::begin(passes), std::end(passes), value) == std::end(passes))
                throw poplar::invalid_option(api +
                                             ": option 'pass' must be one of NONE, "
                                             "INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD, "
                                             "TRAINING_WU, FC_INFERENCE_FWD, FC_TRAINING_FWD, "
                                             "FC_TRAINING_BWD, FC_TRAINING_WU, got '" +
                                             value + "'");
            o.pass = value;
        } else if (name == "use128BitConvUnitLoad") {
            o.use128BitConvUnitLoad = parseBoolOption(name, value, api);
        } else if (name == "enableMultiStageReduce" || name == "enableFastReduce" ||
                   name == "remapOutputTensor" || name == "enableConvDithering") {
            parseBoolOption(name, value, api); // tuning of PopLibs' own code: checked, no effect
        } else {
            throw poplar::invalid_option(
                api + ": unknown option '" + name +
                "' (known: availableMemoryProportion, partialsType, pass, use128BitConvUnitLoad, "
                "enableMultiStageReduce, enableFastReduce, remapOutputTensor, "
                "enableConvDithering)");
        }
    }
    return o;
}

ConvPlan getPlan(const poplar::Graph& graph, const poplin::ConvParams& p3, const Options& o,
                 bool weightUpdate, poplin::PlanningCache* cache) {
    std::ostringstream key;
    key << p3 << ' ' << o.partialsType << ' ' << o.availableMemoryProportion << ' ' << weightUpdate
        << ' ' << graph.getTarget().getNumTiles() << ' ' << o.use128BitConvUnitLoad;
    if (cache)
        if (auto it = cache->impl().convPlans.find(key.str()); it != cache->impl().convPlans.end())
            return it->second;
    auto plan = planConvolution(graph.getTarget(), p3, o.partialsType, o.availableMemoryProportion,
                                weightUpdate, o.use128BitConvUnitLoad);
    if (cache)
        cache->impl().convPlans.emplace(key.str(), plan);
    return plan;
}

std::vector<Range> ranges(std::size_t size, std::size_t block) {
    std::vector<Range> out;
    for (std::size_t i = 0; i * block < size; ++i)
        out.push_back({i, i * block, std::min(size, (i + 1) * block)});
    return out;
}

Tensor canonical(const Tensor& t, bool weights) {
    const std::size_t lead = weights ? 3 : 2;
    const std::vector<std::size_t> given = t.shape();
    const std::size_t fieldDims = given.size() - lead;
    std::vector<std::size_t> shape = given;
    shape.insert(shape.begin() + long(lead + canonicalInsertAt(fieldDims)), 3 - fieldDims, 1);
    return t.reshape(shape);
}

void checkShape(const std::string& api, const std::string& what, const Tensor& t,
                const std::vector<std::size_t>& shape) {
    if (t.shape() != shape)
        throw poputil::poplibs_error(api + ": " + what + " '" + t.getName() + "' has shape " +
                                     t.shapeToString() + ", the parameters need " +
                                     shapeString(shape));
}

std::pair<std::size_t, std::size_t> inputRows(const poplin::ConvParams& p3, std::size_t r0,
                                              std::size_t r1) {
    std::size_t lo = ~std::size_t(0), hi = 0;
    for (std::size_t r = r0; r < r1; ++r)
        for (std::size_t k = 0; k < p3.kernelShape[0]; ++k) {
            const unsigned i = poplin::getInputIndex(0, unsigned(r), unsigned(k), p3);
            if (i != ~0u)
                lo = std::min<std::size_t>(lo, i), hi = std::max<std::size_t>(hi, i + 1);
        }
    if (hi == 0)
        return {0, 1};
    return {lo, hi};
}

std::vector<int> tables(const poplin::ConvParams& p3, std::size_t r0, std::size_t r1,
                        std::size_t lo) {
    std::vector<int> t;
    for (unsigned d = 0; d < 3; ++d) {
        const std::size_t begin = d == 0 ? r0 : 0;
        const std::size_t end = d == 0 ? r1 : p3.getOutputSize(d);
        const std::size_t base = d == 0 ? lo : 0;
        for (std::size_t o = begin; o < end; ++o)
            for (std::size_t k = 0; k < p3.kernelShape[d]; ++k) {
                const unsigned i = poplin::getInputIndex(d, unsigned(o), unsigned(k), p3);
                t.push_back(i == ~0u ? -1 : static_cast<int>(i - base));
            }
    }
    return t;
}

Tensor tableConstant(poplar::Graph& graph, const std::vector<int>& table, unsigned tile,
                     const poplar::DebugContext& debugContext) {
    Tensor t = graph.addConstant<int>(poplar::INT, {table.size()}, table.data(), debugContext);
    graph.setTileMapping(t, tile);
    return t;
}

void setVertexState(poplar::Graph& graph, poplar::VertexRef v, const Tensor& table,
                    std::size_t batch, std::size_t inChans, std::size_t outChans,
                    const std::size_t in[3], const std::size_t out[3],
                    const std::size_t kernel[3]) {
    graph.connect(v["table"], table);
    graph.setInitialValue(v["batch"], unsigned(batch));
    graph.setInitialValue(v["inChans"], unsigned(inChans));
    graph.setInitialValue(v["outChans"], unsigned(outChans));
    const char* inNames[] = {"inSize0", "inSize1", "inSize2"};
    const char* outNames[] = {"outSize0", "outSize1", "outSize2"};
    const char* kNames[] = {"kernelSize0", "kernelSize1", "kernelSize2"};
    for (int d = 0; d < 3; ++d) {
        graph.setInitialValue(v[inNames[d]], unsigned(in[d]));
        graph.setInitialValue(v[outNames[d]], unsigned(out[d]));
        graph.setInitialValue(v[kNames[d]], unsigned(kernel[d]));
    }
}

void spread(poplar::Graph& graph, const Tensor& t, const std::vector<unsigned>& tiles) {
    const Tensor flat = t.flatten();
    const std::size_t n = flat.numElements();
    const std::size_t share = (n + tiles.size() - 1) / tiles.size();
    for (std::size_t i = 0; i < tiles.size() && i * share < n; ++i)
        graph.setTileMapping(flat.slice(i * share, std::min(n, (i + 1) * share)), tiles[i]);
}

Tensor forward(poplar::Graph& graph, const Tensor& in5, const Tensor& w6,
               const poplin::ConvParams& p3, const ConvPlan& plan, const Options& o,
               poplar::program::Sequence& prog, PoplibsOpDebugInfo& di) {
    const auto& target = graph.getTarget();
    const std::size_t B = p3.batchSize, G = p3.numConvGroups, Co = p3.outputChannels,
                      Ci = p3.inputChannels;
    const std::size_t out[3] = {p3.getOutputSize(0), p3.getOutputSize(1), p3.getOutputSize(2)};
    const std::size_t kernel[3] = {p3.kernelShape[0], p3.kernelShape[1], p3.kernelShape[2]};
    const std::size_t F1 = p3.inputFieldShape[1], F2 = p3.inputFieldShape[2];
    const auto bR = ranges(B, plan.blockB), gR = ranges(G, plan.blockG),
               oR = ranges(Co, plan.blockO), fR = ranges(out[0], plan.blockF),
               iR = ranges(Ci, plan.blockI);
    const bool split = iR.size() > 1;
    const bool direct = !split && o.partialsType == p3.outputType;
    const poplar::Type partialsType = direct ? p3.outputType : o.partialsType;
    Tensor partials =
        graph.addVariable(partialsType, {iR.size(), B, G * Co, out[0], out[1], out[2]},
                          {di, direct ? "output" : "partials"});

    const std::string vertexType = poputil::templateVertex(
        std::string("poplin::") + convMethodName(plan.method), p3.inputType, partialsType);
    poplar::ComputeSet cs = graph.addComputeSet({di, "Convolve"});
    const unsigned workers = target.getNumWorkerContexts();
    for (const auto& f : fR) {
        const auto [lo, hi] = inputRows(p3, f.begin, f.end);
        const auto table = tables(p3, f.begin, f.end, lo);
        const std::size_t inBlock[3] = {hi - lo, F1, F2};
        const std::size_t outBlock[3] = {f.end - f.begin, out[1], out[2]};
        for (const auto& b : bR)
            for (const auto& gb : gR)
                for (const auto& oc : oR)
                    for (const auto& ic : iR) {
                        const unsigned tile =
                            plan.tileOf(b.index, gb.index, oc.index, f.index, ic.index);
                        const Tensor tableT = tableConstant(graph, table, tile, {di, "worklist"});
                        const std::size_t groups = gb.end - gb.begin;
                        const std::uint64_t cycles = convVertexCycles(
                            target, p3.inputType, plan.method, groups, b.end - b.begin,
                            oc.end - oc.begin, ic.end - ic.begin, outBlock, kernel,
                            p3.outputTransform.stride[2], plan.convGroupsPerGroup, nullptr,
                            plan.use128BitConvUnitLoad);
                        // One vertex for the tile's conv groups, their blocks one after the
                        // other in each operand (PopLibs' numConvGroupGroups).
                        std::vector<Tensor> ins, ws, outs;
                        for (std::size_t g = gb.begin; g < gb.end; ++g) {
                            const Tensor dst = partials[ic.index].slice(
                                {b.begin, g * Co + oc.begin, f.begin, 0, 0},
                                {b.end, g * Co + oc.end, f.end, out[1], out[2]});
                            graph.setTileMapping(dst, tile);
                            outs.push_back(dst.flatten());
                            ins.push_back(in5.slice({b.begin, g * Ci + ic.begin, lo, 0, 0},
                                                    {b.end, g * Ci + ic.end, hi, F1, F2})
                                              .flatten());
                            ws.push_back(
                                w6[g]
                                    .slice({oc.begin, ic.begin, 0, 0, 0},
                                           {oc.end, ic.end, kernel[0], kernel[1], kernel[2]})
                                    .flatten());
                        }
                        poplar::VertexRef v = graph.addVertex(cs, vertexType);
                        graph.connect(v["in"], poplar::concat(ins));
                        graph.connect(v["weights"], poplar::concat(ws));
                        graph.connect(v["out"], poplar::concat(outs));
                        if (plan.method == ConvMethod::Slic) {
                            // The SLIC vertex's second partials buffer, one conv group group's
                            // partials plus 200 bytes (as the planner's slicBufferBytes).
                            const std::size_t groupGroups =
                                (groups + plan.convGroupsPerGroup - 1) / plan.convGroupsPerGroup;
                            const std::size_t partialBytes = target.getTypeSize(partialsType);
                            const std::size_t bytes = slicBufferBytes(
                                groups * outs[0].numElements() * partialBytes, groupGroups);
                            Tensor buffer = graph.addVariable(
                                partialsType, {(bytes + partialBytes - 1) / partialBytes},
                                {di, "slicBuffer"});
                            graph.setTileMapping(buffer, tile);
                            graph.connect(v["outFieldBuffer"], buffer);
                        }
                        graph.setInitialValue(v["convGroups"], unsigned(groups));
                        setVertexState(graph, v, tableT, b.end - b.begin, ic.end - ic.begin,
                                       oc.end - oc.begin, inBlock, outBlock, kernel);
                        graph.setTileMapping(v, tile);
                        graph.setPerfEstimate(v, (cycles + workers - 1) / workers);
                    }
    }
    prog.add(poplar::program::Execute(cs, {di}));
    if (direct)
        return partials[0];

    // Sum (or only convert) the partials, each output block spread over the tiles of its sums.
    Tensor result =
        graph.addVariable(p3.outputType, {B, G * Co, out[0], out[1], out[2]}, {di, "output"});
    for (const auto& f : fR)
        for (const auto& b : bR)
            for (const auto& gb : gR)
                for (const auto& oc : oR) {
                    std::vector<unsigned> tiles;
                    for (const auto& ic : iR)
                        tiles.push_back(
                            plan.tileOf(b.index, gb.index, oc.index, f.index, ic.index));
                    for (std::size_t g = gb.begin; g < gb.end; ++g)
                        spread(graph,
                               result.slice({b.begin, g * Co + oc.begin, f.begin, 0, 0},
                                            {b.end, g * Co + oc.end, f.end, out[1], out[2]}),
                               tiles);
                }
    // PopLibs reduces a convolution's partials with its own ReduceAdd stages
    // (lib/poplin/ConvReduce.cpp, convolutionReduction), which its planner costs
    // (addReduceCycleEstimate: estimateConvReduceCycles).
    reducePartials(graph, partials, result, prog, di);
    return result;
}

} // namespace tilescope::poplibs::conv
