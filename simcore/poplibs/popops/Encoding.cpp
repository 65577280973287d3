// popops::encodeOneHot and popops::iota, and their vertices.

#include "popops/Encoding.hpp"

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

namespace pl = tilescope::poplibs;
using poplar::Tensor;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// Each row of numClasses outputs is `off` except `on` at the row's index (none when the index
/// is masked or out of range).
template <typename Index, typename Out> class EncodeOneHot : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<Index>> indices;
    poplar::Output<poplar::Vector<Out>> out;
    poplar::Input<Out> on;
    poplar::Input<Out> off;
    unsigned numClasses = 1;
    bool compute() {
        for (std::size_t row = 0; row < indices.size(); ++row) {
            const auto hot = static_cast<unsigned>(indices[row]);
            for (unsigned c = 0; c < numClasses; ++c)
                out[row * numClasses + c] = c == hot ? Out(on) : Out(off);
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<EncodeOneHot*>(o);
        describeField(f, "indices", v.indices);
        describeField(f, "out", v.out);
        describeField(f, "on", v.on);
        describeField(f, "off", v.off);
        describeField(f, "numClasses", v.numClasses);
    }
};

/// out[i] = start + i.
template <typename T> class Iota : public poplar::Vertex {
public:
    poplar::Output<poplar::Vector<T>> out;
    T start{};
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = static_cast<T>(start + static_cast<T>(i));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<Iota*>(o);
        describeField(f, "out", v.out);
        describeField(f, "start", v.start);
    }
};

template <typename T> poplar::Type typeOf() {
    return poplar::equivalent_device_type<T>().value;
}

template <typename Index, typename Out> void registerEncode(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<EncodeOneHot<Index, Out>>(
        graph, poputil::templateVertex("popops::EncodeOneHot", typeOf<Index>(), typeOf<Out>()),
        &EncodeOneHot<Index, Out>::visit);
}

template <typename Index> void registerEncodeFrom(poplar::Graph& graph) {
    registerEncode<Index, float>(graph);
    registerEncode<Index, poplar::half>(graph);
    registerEncode<Index, int>(graph);
    registerEncode<Index, unsigned>(graph);
}

/// A scalar constant of `type` for the default on (1) and off (0) values (converted from float,
/// exact for both).
Tensor scalarConstant(poplar::Graph& graph, const poplar::Type& type, float value,
                      const poplar::DebugContext& dc) {
    Tensor t = graph.addConstant(type, {}, value, dc);
    graph.setTileMapping(t, 0);
    return t;
}

void encode(poplar::Graph& graph, const Tensor& indices, const Tensor& encoded,
            poplar::program::Sequence& prog, const Tensor* on, const Tensor* off,
            const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(indices, encoded, on, off), "encodeOneHot");
    const std::string api = "popops::encodeOneHot";
    const auto indexType = indices.elementType(), type = encoded.elementType();
    if (indices.rank() != 1 || (indexType != poplar::UNSIGNED_INT && indexType != poplar::INT))
        throw poputil::poplibs_error(api + ": indices '" + indices.getName() + "' " +
                                     indices.shapeToString() + " of type " + indexType.toString() +
                                     " must be a 1-D UNSIGNED_INT or INT tensor");
    if (encoded.rank() != 2 || encoded.dim(0) != indices.dim(0) || encoded.dim(1) == 0)
        throw poputil::poplibs_error(api + ": encoded '" + encoded.getName() + "' " +
                                     encoded.shapeToString() + " must be {" +
                                     std::to_string(indices.dim(0)) + ", classes}");
    if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
        type != poplar::UNSIGNED_INT)
        throw poputil::poplibs_error(api + ": encoded '" + encoded.getName() + "' has type " +
                                     type.toString() +
                                     "; FLOAT, HALF, INT and UNSIGNED_INT are supported");
    for (const Tensor* value : {on, off})
        if (value && (value->numElements() != 1 || value->elementType() != type))
            throw poputil::poplibs_error(api + ": on/off value '" + value->getName() +
                                         "' must be a single " + type.toString() + " element");
    if (indices.numElements() == 0)
        return;
    const Tensor onValue = on ? on->reshape({}) : scalarConstant(graph, type, 1.0f, {di, "on"});
    const Tensor offValue = off ? off->reshape({}) : scalarConstant(graph, type, 0.0f, {di, "off"});
    const std::size_t classes = encoded.dim(1);
    poplar::ComputeSet cs = graph.addComputeSet({di, "encodeOneHot"});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popops::EncodeOneHot", indexType, type), indices,
        {{"indices", indices}, {"out", encoded}},
        [&](std::size_t rows) { return pl::cycles::fill(target, type, rows * classes) + rows; },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["numClasses"], static_cast<unsigned>(classes));
            graph.connect(v["on"], onValue);
            graph.connect(v["off"], offValue);
        });
    prog.add(poplar::program::Execute(cs, {di}));
}

void iotaFrom(poplar::Graph& graph, const Tensor& t, long long start,
              poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, start), "iota");
    const auto type = t.elementType();
    if (t.rank() != 1 || (type != poplar::UNSIGNED_INT && type != poplar::INT))
        throw poputil::poplibs_error("popops::iota: tensor '" + t.getName() + "' " +
                                     t.shapeToString() + " of type " + type.toString() +
                                     " must be a 1-D UNSIGNED_INT or INT tensor");
    const auto mapping = graph.getTileMapping(t);
    poplar::ComputeSet cs = graph.addComputeSet({di, "iota"});
    const std::string vertexType = poputil::templateVertex("popops::Iota", type);
    const auto& target = graph.getTarget();
    for (unsigned tile = 0; tile < mapping.size(); ++tile)
        for (const auto& region : mapping[tile]) {
            poplar::VertexRef v = graph.addVertex(cs, vertexType);
            graph.connect(v["out"], t.slice(region.begin(), region.end()));
            const long long first = start + static_cast<long long>(region.begin());
            if (type == poplar::INT)
                graph.setInitialValue(v["start"], static_cast<int>(first));
            else
                graph.setInitialValue(v["start"], static_cast<unsigned>(first));
            graph.setTileMapping(v, tile);
            graph.setPerfEstimate(v, pl::cycles::fill(target, type, region.size()) + 1);
        }
    prog.add(poplar::program::Execute(cs, {di}));
}

} // namespace

namespace detail {
void registerEncodingVertices(poplar::Graph& graph) {
    registerEncodeFrom<unsigned>(graph);
    registerEncodeFrom<int>(graph);
    tilescope::sim::registerBuiltinVertex<Iota<int>>(
        graph, poputil::templateVertex("popops::Iota", poplar::INT), &Iota<int>::visit);
    tilescope::sim::registerBuiltinVertex<Iota<unsigned>>(
        graph, poputil::templateVertex("popops::Iota", poplar::UNSIGNED_INT),
        &Iota<unsigned>::visit);
}
} // namespace detail

void encodeOneHot(poplar::Graph& graph, const Tensor& indices, const Tensor& encoded,
                  poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    encode(graph, indices, encoded, prog, nullptr, nullptr, debugContext);
}

void encodeOneHot(poplar::Graph& graph, const Tensor& indices, const Tensor& encoded,
                  poplar::program::Sequence& prog, const Tensor& on, const Tensor& off,
                  const poplar::DebugContext& debugContext) {
    encode(graph, indices, encoded, prog, &on, &off, debugContext);
}

void iota(poplar::Graph& graph, const Tensor& t, unsigned startInteger,
          poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    iotaFrom(graph, t, startInteger, prog, debugContext);
}

void iota(poplar::Graph& graph, const Tensor& t, int startInteger, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext) {
    iotaFrom(graph, t, startInteger, prog, debugContext);
}

} // namespace popops
