// popops::fill, popops::zero and popops::cast, and their vertices.

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popops/Cast.hpp"
#include "popops/ElementWiseVertices.hpp"
#include "popops/Fill.hpp"
#include "popops/PopopsCodelets.hpp"
#include "popops/Zero.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <cmath>
#include <limits>
#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <type_traits>

namespace popops {

namespace pl = tilescope::poplibs;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// Writes the state value `in` to every element of `out`.
template <typename T> class Fill : public poplar::Vertex {
public:
    poplar::Output<poplar::Vector<T>> out;
    T in{};
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = in;
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<Fill*>(o);
        describeField(f, "out", v.out);
        describeField(f, "in", v.in);
    }
};

/// `value` converted to D as the device converts: any non-zero value (NaN included) is true;
/// floating to integer rounds toward zero and saturates at D's range (NaN gives 0), so no
/// out-of-range conversion is undefined on the host.
template <typename D, typename C> D convertElement(C value) {
    if constexpr (std::is_same_v<D, bool>) {
        return value != C(0);
    } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<C>) {
        if (std::isnan(value))
            return D(0);
        if (value <= static_cast<C>(std::numeric_limits<D>::lowest()))
            return std::numeric_limits<D>::lowest();
        if (value >= static_cast<C>(std::numeric_limits<D>::max()))
            return std::numeric_limits<D>::max();
        return static_cast<D>(value);
    } else {
        return static_cast<D>(static_cast<pl::popops_vertices::ComputeType<D>>(value));
    }
}

/// Converts each element of `src` to the type of `dst` (see convertElement).
template <typename S, typename D> class Cast : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<S>> src;
    poplar::Output<poplar::Vector<D>> dst;
    bool compute() {
        for (std::size_t i = 0; i < dst.size(); ++i)
            dst[i] = convertElement<D>(static_cast<pl::popops_vertices::ComputeType<S>>(src[i]));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<Cast*>(o);
        describeField(f, "src", v.src);
        describeField(f, "dst", v.dst);
    }
};

template <typename T> poplar::Type typeOf() {
    return poplar::equivalent_device_type<T>().value;
}

template <typename S, typename D> void registerCast(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<Cast<S, D>>(
        graph, poputil::templateVertex("popops::Cast", typeOf<S>(), typeOf<D>()),
        &Cast<S, D>::visit);
}

template <typename S> void registerCastsFrom(poplar::Graph& graph) {
    registerCast<S, float>(graph);
    registerCast<S, poplar::half>(graph);
    registerCast<S, int>(graph);
    registerCast<S, unsigned>(graph);
    registerCast<S, bool>(graph);
}

template <typename T> void registerFill(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<Fill<T>>(
        graph, poputil::templateVertex("popops::Fill", typeOf<T>()), &Fill<T>::visit);
}

/// The element types fill and cast support, all of them either way for cast.
bool isSupportedType(const poplar::Type& type) {
    return type == poplar::FLOAT || type == poplar::HALF || type == poplar::INT ||
           type == poplar::UNSIGNED_INT || type == poplar::BOOL;
}
constexpr const char* kSupportedTypes = "FLOAT, HALF, INT, UNSIGNED_INT and BOOL are supported";

void checkSupported(const char* api, const poplar::Tensor& t) {
    const auto type = t.elementType();
    if (!isSupportedType(type))
        throw poputil::poplibs_error(std::string("popops::") + api + ": tensor '" + t.getName() +
                                     "' has type " + type.toString() + "; " + kSupportedTypes);
}

/// Sets a Fill vertex's value, converted to the element type as cast converts.
void setFillValue(poplar::Graph& graph, poplar::VertexRef v, const poplar::Type& type,
                  double fillValue) {
    if (type == poplar::INT)
        graph.setInitialValue(v["in"], convertElement<int>(fillValue));
    else if (type == poplar::UNSIGNED_INT)
        graph.setInitialValue(v["in"], convertElement<unsigned>(fillValue));
    else if (type == poplar::BOOL)
        graph.setInitialValue(v["in"], convertElement<bool>(fillValue));
    else
        graph.setInitialValue(v["in"], static_cast<float>(fillValue));
}

} // namespace

namespace detail {
void registerFillAndCastVertices(poplar::Graph& graph) {
    registerFill<float>(graph);
    registerFill<poplar::half>(graph);
    registerFill<int>(graph);
    registerFill<unsigned>(graph);
    registerFill<bool>(graph);
    registerCastsFrom<float>(graph);
    registerCastsFrom<poplar::half>(graph);
    registerCastsFrom<int>(graph);
    registerCastsFrom<unsigned>(graph);
    registerCastsFrom<bool>(graph);
}
} // namespace detail

void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          double fillValue, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, fillValue), "fill");
    checkSupported("fill", t);
    const auto type = t.elementType();
    poplar::ComputeSet cs = graph.addComputeSet({di, "fill"});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popops::Fill", type), t, {{"out", t}},
        [&](std::size_t n) { return pl::cycles::fill(target, type, n); },
        [&](poplar::VertexRef v) { setFillValue(graph, v, type, fillValue); });
    prog.add(poplar::program::Execute(cs, {di}));
}

void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext) {
    fill(graph, t, prog, 0.0,
         poplar::DebugContext(debugContext, debugContext.getPathName().empty() ? "zero" : ""));
}

void fill(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet fillCS, double fillValue) {
    checkSupported("fill", t);
    const auto type = t.elementType();
    const poplar::Tensor flat = t.flatten();
    const auto& target = graph.getTarget();
    const std::string vertexType = poputil::templateVertex("popops::Fill", type);
    for (const auto& region : tileRegions) {
        if (region.end() > flat.numElements())
            throw poputil::poplibs_error("popops::fill: region [" + std::to_string(region.begin()) +
                                         ", " + std::to_string(region.end()) +
                                         ") is outside tensor '" + t.getName() + "' of " +
                                         std::to_string(flat.numElements()) + " elements");
        if (region.size() == 0)
            continue;
        poplar::VertexRef v = graph.addVertex(fillCS, vertexType);
        graph.connect(v["out"], flat.slice(region.begin(), region.end()));
        setFillValue(graph, v, type, fillValue);
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, pl::cycles::fill(target, type, region.size()));
    }
}

void fill(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet fillCS,
          double fillValue) {
    fill(graph, t, {poplar::Interval(0, t.numElements())}, tile, fillCS, fillValue);
}

void fill(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet fillCS,
          double fillValue) {
    for (unsigned tile = 0; tile < mapping.size(); ++tile)
        if (!mapping[tile].empty())
            fill(graph, t, mapping[tile], tile, fillCS, fillValue);
}

void zero(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet zeroCS) {
    fill(graph, t, tileRegions, tile, zeroCS, 0.0);
}

void zero(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet zeroCS) {
    fill(graph, t, tile, zeroCS, 0.0);
}

void zero(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet zeroCS) {
    fill(graph, t, mapping, zeroCS, 0.0);
}

namespace {

void checkCastTypes(const poplar::Tensor& src, const poplar::Type& dstType) {
    checkSupported("cast", src);
    if (!isSupportedType(dstType))
        throw poputil::poplibs_error("popops::cast: cannot cast tensor '" + src.getName() +
                                     "' to " + dstType.toString() + "; " + kSupportedTypes);
}

/// Adds the vertices converting `src` into `dst` (same element count) to `cs`, placed where
/// `dst` lives.
void addCastVertices(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Tensor& dst,
                     poplar::ComputeSet cs) {
    if (src.numElements() != dst.numElements())
        throw poputil::poplibs_error("popops::cast: tensor '" + src.getName() + "' of shape " +
                                     src.shapeToString() + " and tensor '" + dst.getName() +
                                     "' of shape " + dst.shapeToString() +
                                     " have different numbers of elements");
    const auto srcType = src.elementType(), dstType = dst.elementType();
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popops::Cast", srcType, dstType), dst,
        {{"src", src.reshape(dst.shape())}, {"dst", dst}},
        [&](std::size_t n) { return pl::cycles::cast(target, srcType, dstType, n); });
}

} // namespace

poplar::Tensor cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Type& dstType,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(src, dstType), "cast");
    checkCastTypes(src, dstType);
    poplar::Tensor out = pl::createOutput(graph, dstType, src.shape(), src, {di, "out"});
    poplar::ComputeSet cs = graph.addComputeSet({di, "cast"});
    addCastVertices(graph, src, out, cs);
    prog.add(poplar::program::Execute(cs, {di}));
    di.addOutput(out);
    return out;
}

void cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Tensor& dst,
          poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(src, dst), "cast");
    checkCastTypes(src, dst.elementType());
    poplar::ComputeSet cs = graph.addComputeSet({di, "cast"});
    addCastVertices(graph, src, dst, cs);
    prog.add(poplar::program::Execute(cs, {di}));
}

poplar::program::Program cast(poplar::Graph& graph, poplar::Tensor src, poplar::Tensor dst,
                              const poplar::DebugContext& debugContext) {
    poplar::program::Sequence prog;
    cast(graph, src, dst, prog, debugContext);
    return prog;
}

poplar::Tensor cast(poplar::Graph& graph, poplar::Tensor src, const poplar::Type& dstType,
                    poplar::ComputeSet cs, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(src, dstType), "cast");
    checkCastTypes(src, dstType);
    poplar::Tensor out = pl::createOutput(graph, dstType, src.shape(), src, {di, "out"});
    addCastVertices(graph, src, out, cs);
    di.addOutput(out);
    return out;
}

} // namespace popops
