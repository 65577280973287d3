// popnn pooling: a pooling is a grouped convolution's geometry (one channel per group, the
// window as kernel, padding or truncation and stride as its transforms), so its vertices read
// poplin's index tables; the planes (batch x channel) are shared among the tiles.

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "poplin/ConvBuild.hpp"
#include "popnn/PoolingVertices.hpp"
#include "popnn/PopnnCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <ostream>
#include <poplar/exceptions.hpp>
#include <poplin/ConvUtil.hpp>
#include <popnn/Pooling.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

namespace popnn {
namespace pooling {

namespace pl = tilescope::poplibs;
namespace cv = tilescope::poplibs::conv;
using poplar::Tensor;

namespace {

std::string describe(const PoolParams& p) {
    std::ostringstream s;
    s << p;
    return s.str();
}

/// The convolution geometry of a pooling; throws poputil::poplibs_error naming what is wrong.
poplin::ConvParams asConvolution(const PoolParams& p) {
    const std::size_t n = p.getNumFieldDims();
    const auto fail = [&](const std::string& what) {
        throw poputil::poplibs_error("popnn::pooling " + describe(p) + ": " + what);
    };
    if (n < 1 || n > 3)
        fail("1 to 3 spatial dimensions are supported");
    if (p.kernelShape.size() != n || p.stride.size() != n ||
        p.inputTruncationOrPaddingLower.size() != n || p.inputTruncationOrPaddingUpper.size() != n)
        fail("kernel, stride and padding need one entry per field dimension");
    if (p.dType != poplar::FLOAT && p.dType != poplar::HALF)
        fail("type " + p.dType.toString() + " is not supported (FLOAT, HALF)");
    poplin::ConvParams c(p.dType, p.batchSize, p.inputFieldShape, p.kernelShape, 1, 1,
                         p.numChannels);
    for (unsigned d = 0; d < n; ++d) {
        const int lo = p.inputTruncationOrPaddingLower[d], hi = p.inputTruncationOrPaddingUpper[d];
        (lo >= 0 ? c.inputTransform.paddingLower[d] : c.inputTransform.truncationLower[d]) =
            static_cast<unsigned>(lo >= 0 ? lo : -lo);
        (hi >= 0 ? c.inputTransform.paddingUpper[d] : c.inputTransform.truncationUpper[d]) =
            static_cast<unsigned>(hi >= 0 ? hi : -hi);
        c.outputTransform.stride[d] = p.stride[d];
    }
    c.validate();
    return c;
}

std::vector<std::size_t> shapeOf(const PoolParams& p, const std::vector<std::size_t>& field) {
    std::vector<std::size_t> s = {p.batchSize, p.numChannels};
    s.insert(s.end(), field.begin(), field.end());
    return s;
}

void checkOptions(const poplar::OptionFlags& options, const std::string& api) {
    for (const auto& [name, value] : options) {
        if (name != "poolUseIntrospectiveMapping")
            throw poplar::invalid_option(api + ": unknown option '" + name +
                                         "' (known: poolUseIntrospectiveMapping)");
        if (value != "true" && value != "false")
            throw poplar::invalid_option(api +
                                         ": option 'poolUseIntrospectiveMapping' must be "
                                         "'true' or 'false', got '" +
                                         value + "'");
    }
}

void checkTensor(const std::string& api, const std::string& what, const Tensor& t,
                 const std::vector<std::size_t>& shape, const poplar::Type& type) {
    cv::checkShape(api, what, t, shape);
    if (t.elementType() != type)
        throw poputil::poplibs_error(api + ": " + what + " '" + t.getName() + "' has type " +
                                     t.elementType().toString() + ", the parameters' is " +
                                     type.toString());
}

/// Thread cycles of a pooling vertex's busiest worker: per output 2 cycles of set-up and
/// store and one per window element (a load and a max or add), `passes` times. Modelled.
std::uint64_t poolingCycles(const poplar::Target& target, std::size_t planes, std::size_t outPlane,
                            std::size_t window, unsigned passes) {
    const std::size_t perWorker =
        (planes + target.getNumWorkerContexts() - 1) / target.getNumWorkerContexts();
    return pl::cycles::kVertexOverhead + passes * perWorker * outPlane * (2 + window);
}

/// Adds one vertex of `vertexType` per tile over its share of the planes; `fields` are
/// {name, tensor viewed as {planes, elements per plane}}.
void addVertices(poplar::Graph& graph, poplar::ComputeSet cs, const std::string& vertexType,
                 const poplin::ConvParams& c,
                 const std::vector<std::pair<std::string, Tensor>>& fields, const Tensor& mapped,
                 unsigned passes, bool scaled, pl::PoplibsOpDebugInfo& di) {
    const poplin::ConvParams p3 = pl::canonicalParams(c);
    const std::size_t in[3] = {p3.inputFieldShape[0], p3.inputFieldShape[1], p3.inputFieldShape[2]};
    const std::size_t out[3] = {p3.getOutputSize(0), p3.getOutputSize(1), p3.getOutputSize(2)};
    const std::size_t kernel[3] = {p3.kernelShape[0], p3.kernelShape[1], p3.kernelShape[2]};
    const auto table = cv::tables(p3, 0, out[0], 0);
    const std::size_t planes = mapped.dim(0);
    const std::size_t tiles = graph.getTarget().getNumTiles();
    const std::size_t per = (planes + tiles - 1) / tiles;
    for (std::size_t t = 0; t * per < planes; ++t) {
        const std::size_t p0 = t * per, p1 = std::min(planes, p0 + per);
        const unsigned tile = static_cast<unsigned>(t);
        graph.setTileMapping(mapped.slice(p0, p1), tile);
        poplar::VertexRef v = graph.addVertex(cs, vertexType);
        for (const auto& [name, tensor] : fields)
            graph.connect(v[name], tensor.slice(p0, p1).flatten());
        cv::setVertexState(graph, v, cv::tableConstant(graph, table, tile, {di, "worklist"}),
                           p1 - p0, 1, 1, in, out, kernel);
        if (scaled)
            graph.setInitialValue(v["scaled"], 1u);
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, poolingCycles(graph.getTarget(), p1 - p0, out[0] * out[1] * out[2],
                                               kernel[0] * kernel[1] * kernel[2], passes));
    }
}

Tensor planes(const Tensor& t) {
    return t.flatten(0, 2).flatten(1, t.rank() - 1);
}

std::string vertexName(const char* base, const poplar::Type& type, PoolingType pt) {
    return poputil::templateVertex(base, type, std::string("popnn::PoolingType::") + asString(pt));
}

std::uint64_t windowElements(const PoolParams& params) {
    const poplin::ConvParams c = asConvolution(params);
    std::uint64_t perPlane = 1;
    for (unsigned d = 0; d < c.getNumFieldDims(); ++d) {
        std::uint64_t n = 0;
        for (unsigned o = 0; o < c.getOutputSize(d); ++o)
            for (unsigned k = 0; k < c.kernelShape[d]; ++k)
                n += poplin::getInputIndex(d, o, k, c) != ~0u;
        perPlane *= n;
    }
    return perPlane * params.batchSize * params.numChannels;
}

template <typename T> void registerFor(poplar::Graph& graph) {
    const poplar::Type type = poplar::equivalent_device_type<T>().value;
    const auto add = [&](auto* tag, const std::string& name) {
        using V = std::remove_pointer_t<decltype(tag)>;
        tilescope::sim::registerBuiltinVertex<V>(graph, name, &V::visit);
    };
    using PT = PoolingType;
    add(static_cast<pl::Pooling<T, PT::MAX>*>(nullptr),
        vertexName("popnn::Pooling", type, PT::MAX));
    add(static_cast<pl::Pooling<T, PT::AVG>*>(nullptr),
        vertexName("popnn::Pooling", type, PT::AVG));
    add(static_cast<pl::Pooling<T, PT::SUM>*>(nullptr),
        vertexName("popnn::Pooling", type, PT::SUM));
    add(static_cast<pl::MaxPoolingGrad<T>*>(nullptr),
        poputil::templateVertex("popnn::MaxPoolingGrad", type));
    add(static_cast<pl::SumPoolingGrad<T, PT::AVG>*>(nullptr),
        vertexName("popnn::SumPoolingGrad", type, PT::AVG));
    add(static_cast<pl::SumPoolingGrad<T, PT::SUM>*>(nullptr),
        vertexName("popnn::SumPoolingGrad", type, PT::SUM));
}

} // namespace

const char* asString(const PoolingType& method) {
    switch (method) {
    case PoolingType::MAX:
        return "MAX";
    case PoolingType::AVG:
        return "AVG";
    case PoolingType::SUM:
        return "SUM";
    }
    return "?";
}

std::ostream& operator<<(std::ostream& o, const PoolParams& p) {
    const auto list = [&](const auto& v) {
        o << '{';
        for (std::size_t i = 0; i < v.size(); ++i)
            o << (i ? "," : "") << v[i];
        o << '}';
    };
    o << "{" << asString(p.poolingType) << " " << p.dType << " B " << p.batchSize << " C "
      << p.numChannels << " field ";
    list(p.inputFieldShape);
    o << " kernel ";
    list(p.kernelShape);
    o << " stride ";
    list(p.stride);
    o << " pad ";
    list(p.inputTruncationOrPaddingLower);
    list(p.inputTruncationOrPaddingUpper);
    return o << "}";
}

std::vector<std::size_t> PoolParams::getOutputFieldShape() const {
    return asConvolution(*this).getOutputFieldShape();
}
std::vector<std::size_t> getOutputFieldShape(const PoolParams& params) {
    return params.getOutputFieldShape();
}
std::uint64_t getFwdFlops(const PoolParams& params) {
    std::uint64_t outputs = params.batchSize * params.numChannels;
    for (auto s : params.getOutputFieldShape())
        outputs *= s;
    return windowElements(params) + (params.poolingType == PoolingType::AVG ? outputs : 0);
}
std::uint64_t getBwdFlops(const PoolParams& params) {
    return getFwdFlops(params);
}
double getFwdPerfectCycleCount(const poplar::Graph& graph, const PoolParams& params) {
    const auto& t = graph.getTarget();
    return double(getFwdFlops(params)) / (t.getNumTiles() * t.getVectorWidth(params.dType));
}
double getBwdPerfectCycleCount(const poplar::Graph& graph, const PoolParams& params) {
    const auto& t = graph.getTarget();
    return double(getBwdFlops(params)) / (t.getNumTiles() * t.getVectorWidth(params.dType));
}

Tensor pool(poplar::Graph& graph, const PoolParams& params, const Tensor& in,
            poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
            const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, options), "pool");
    const std::string api = "popnn::pooling::pool";
    checkOptions(options, api);
    const poplin::ConvParams c = asConvolution(params);
    checkTensor(api, "input", in, shapeOf(params, params.inputFieldShape), params.dType);
    Tensor out =
        graph.addVariable(params.dType, shapeOf(params, c.getOutputFieldShape()), {di, "pooled"});
    poplar::ComputeSet cs =
        graph.addComputeSet({di, std::string("pool") + asString(params.poolingType)});
    addVertices(graph, cs, vertexName("popnn::Pooling", params.dType, params.poolingType), c,
                {{"in", planes(in)}, {"out", planes(out)}}, planes(out), 1, false, di);
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(getFwdFlops(params));
    di.addOutput(out);
    return out;
}

Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params, const Tensor& in,
                         const Tensor& pooled, const Tensor& pooledGradient, bool useScaledGradient,
                         poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                         const poplar::OptionFlags& options) {
    if (params.poolingType != PoolingType::MAX)
        return poolInputGradient(graph, params, 1, pooledGradient, prog, debugContext, options);
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, pooled, pooledGradient, options),
                              "poolInputGradient");
    const std::string api = "popnn::pooling::poolInputGradient";
    checkOptions(options, api);
    const poplin::ConvParams c = asConvolution(params);
    const auto outShape = shapeOf(params, c.getOutputFieldShape());
    checkTensor(api, "input", in, shapeOf(params, params.inputFieldShape), params.dType);
    checkTensor(api, "pooled", pooled, outShape, params.dType);
    checkTensor(api, "pooledGradient", pooledGradient, outShape, params.dType);
    Tensor grad = graph.addVariable(params.dType, in.shape(), {di, "inGradient"});
    poplar::ComputeSet cs = graph.addComputeSet({di, "maxPoolGrad"});
    addVertices(graph, cs, poputil::templateVertex("popnn::MaxPoolingGrad", params.dType), c,
                {{"in", planes(in)},
                 {"pooled", planes(pooled)},
                 {"pooledGrad", planes(pooledGradient)},
                 {"inGrad", planes(grad)}},
                planes(grad), 2, useScaledGradient, di);
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(2 * getBwdFlops(params));
    di.addOutput(grad);
    return grad;
}

Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params,
                         const unsigned fwdChansPerGroup, const Tensor& pooledGradient,
                         poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                         const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(pooledGradient, options), "poolInputGradient");
    const std::string api = "popnn::pooling::poolInputGradient";
    checkOptions(options, api);
    if (params.poolingType == PoolingType::MAX)
        throw poputil::poplibs_error(api + ": MAX pooling needs the forward input and output "
                                           "(use the form taking `in` and `pooled`)");
    if (fwdChansPerGroup == 0 || params.numChannels % fwdChansPerGroup != 0)
        throw poputil::poplibs_error(
            api + ": fwdChansPerGroup " + std::to_string(fwdChansPerGroup) +
            " does not divide the channels (" + std::to_string(params.numChannels) + ")");
    const poplin::ConvParams c = asConvolution(params);
    checkTensor(api, "pooledGradient", pooledGradient, shapeOf(params, c.getOutputFieldShape()),
                params.dType);
    Tensor grad = graph.addVariable(params.dType, shapeOf(params, params.inputFieldShape),
                                    {di, "inGradient"});
    poplar::ComputeSet cs =
        graph.addComputeSet({di, std::string("poolGrad") + asString(params.poolingType)});
    addVertices(graph, cs, vertexName("popnn::SumPoolingGrad", params.dType, params.poolingType), c,
                {{"pooledGrad", planes(pooledGradient)}, {"inGrad", planes(grad)}}, planes(grad), 2,
                false, di);
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(getBwdFlops(params));
    di.addOutput(grad);
    return grad;
}

} // namespace pooling

namespace detail {
void registerPoolingVertices(poplar::Graph& graph) {
    pooling::registerFor<float>(graph);
    pooling::registerFor<poplar::half>(graph);
}
} // namespace detail

} // namespace popnn
