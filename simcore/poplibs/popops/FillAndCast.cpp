// popops::fill, popops::zero and popops::cast, and their vertices.

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popops/Cast.hpp"
#include "popops/ElementWiseVertices.hpp"
#include "popops/Fill.hpp"
#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>

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

/// Converts each element of `src` to the type of `dst`; floating to integer rounds toward zero.
template <typename S, typename D> class Cast : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<S>> src;
    poplar::Output<poplar::Vector<D>> dst;
    bool compute() {
        for (std::size_t i = 0; i < dst.size(); ++i) {
            const auto value = static_cast<pl::popops_vertices::ComputeType<S>>(src[i]);
            dst[i] = static_cast<D>(value);
        }
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
}

void checkSupported(const char* api, const poplar::Tensor& t) {
    const auto type = t.elementType();
    if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT)
        throw poplar::poplar_error(std::string("popops::") + api + ": tensor '" + t.getName() +
                                   "' has type " + type.toString() +
                                   "; FLOAT, HALF and INT are supported");
}

} // namespace

namespace detail {
void registerFillAndCastVertices(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<Fill<float>>(
        graph, poputil::templateVertex("popops::Fill", poplar::FLOAT), &Fill<float>::visit);
    tilescope::sim::registerBuiltinVertex<Fill<poplar::half>>(
        graph, poputil::templateVertex("popops::Fill", poplar::HALF), &Fill<poplar::half>::visit);
    tilescope::sim::registerBuiltinVertex<Fill<int>>(
        graph, poputil::templateVertex("popops::Fill", poplar::INT), &Fill<int>::visit);
    registerCastsFrom<float>(graph);
    registerCastsFrom<poplar::half>(graph);
    registerCastsFrom<int>(graph);
}
} // namespace detail

void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          double fillValue, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, "fill");
    checkSupported("fill", t);
    const auto type = t.elementType();
    poplar::ComputeSet cs = graph.addComputeSet({di, "fill"});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popops::Fill", type), t, {{"out", t}},
        [&](std::size_t n) {
            return pl::cycles::kVertexOverhead + pl::cycles::vectors(target, type, n);
        },
        [&](poplar::VertexRef v) {
            if (type == poplar::INT)
                graph.setInitialValue(v["in"], static_cast<int>(fillValue));
            else
                graph.setInitialValue(v["in"], static_cast<float>(fillValue));
        });
    prog.add(poplar::program::Execute(cs, {di}));
}

void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext) {
    fill(graph, t, prog, 0.0,
         poplar::DebugContext(debugContext, debugContext.getPathName().empty() ? "zero" : ""));
}

poplar::Tensor cast(poplar::Graph& graph, const poplar::Tensor& src, const poplar::Type& dstType,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, "cast");
    checkSupported("cast", src);
    if (dstType != poplar::FLOAT && dstType != poplar::HALF && dstType != poplar::INT)
        throw poplar::poplar_error("popops::cast: cannot cast tensor '" + src.getName() + "' to " +
                                   dstType.toString() + "; FLOAT, HALF and INT are supported");
    poplar::Tensor out = pl::createOutput(graph, dstType, src.shape(), src, {di, "out"});
    poplar::ComputeSet cs = graph.addComputeSet({di, "cast"});
    const auto& target = graph.getTarget();
    const auto srcType = src.elementType();
    pl::addElementWiseVertices(graph, cs, poputil::templateVertex("popops::Cast", srcType, dstType),
                               out, {{"src", src}, {"dst", out}}, [&](std::size_t n) {
                                   return pl::cycles::kVertexOverhead +
                                          pl::cycles::vectors(target, srcType, n);
                               });
    prog.add(poplar::program::Execute(cs, {di}));
    return out;
}

} // namespace popops
