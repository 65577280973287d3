// popops ternary element-wise operations, select and clamp, with broadcasting and in-place
// forms, and their vertices.

#include "common/ElementWiseBuilder.hpp"
#include "popops/ElementWise.hpp"
#include "popops/ElementWiseCycles.hpp"
#include "popops/ElementWiseVertices.hpp"
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
using TernaryOpType = expr::TernaryOpType;

namespace {

const char* opName(TernaryOpType op) {
    return op == TernaryOpType::CLAMP ? "CLAMP" : "SELECT";
}

/// The type of the third operand: the BOOL condition of SELECT, the upper bound of CLAMP.
template <TernaryOpType Op, typename T>
using ThirdType = std::conditional_t<Op == TernaryOpType::SELECT, bool, T>;

template <TernaryOpType Op, typename T> T applyTernary(T a, T b, ThirdType<Op, T> c) {
    if constexpr (Op == TernaryOpType::SELECT) {
        return c ? a : b;
    } else {
        using C = pl::popops_vertices::ComputeType<T>;
        const C x = static_cast<C>(a), lo = static_cast<C>(b), hi = static_cast<C>(c);
        return static_cast<T>(std::min(std::max(x, lo), hi));
    }
}

template <TernaryOpType Op, typename T> class TernaryOp1D : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> in1;
    poplar::Input<poplar::Vector<T>> in2;
    poplar::Input<poplar::Vector<ThirdType<Op, T>>> in3;
    poplar::Output<poplar::Vector<T>> out;
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = applyTernary<Op, T>(in1[i], in2[i], in3[i]);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<TernaryOp1D*>(o);
        describeField(f, "in1", v.in1);
        describeField(f, "in2", v.in2);
        describeField(f, "in3", v.in3);
        describeField(f, "out", v.out);
    }
};

template <TernaryOpType Op, typename T> class TernaryOp1DInPlace : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<T>> in1Out;
    poplar::Input<poplar::Vector<T>> in2;
    poplar::Input<poplar::Vector<ThirdType<Op, T>>> in3;
    bool compute() {
        for (std::size_t i = 0; i < in1Out.size(); ++i)
            in1Out[i] = applyTernary<Op, T>(T(in1Out[i]), in2[i], in3[i]);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<TernaryOp1DInPlace*>(o);
        describeField(f, "in1Out", v.in1Out);
        describeField(f, "in2", v.in2);
        describeField(f, "in3", v.in3);
    }
};

std::string vertexName(const char* base, TernaryOpType op, const poplar::Type& type) {
    return poputil::templateVertex(base, std::string("popops::expr::TernaryOpType::") + opName(op),
                                   type);
}

template <TernaryOpType Op, typename T> void registerOne(poplar::Graph& graph) {
    const auto type = poplar::equivalent_device_type<T>().value;
    tilescope::sim::registerBuiltinVertex<TernaryOp1D<Op, T>>(
        graph, vertexName("popops::TernaryOp1D", Op, type), &TernaryOp1D<Op, T>::visit);
    tilescope::sim::registerBuiltinVertex<TernaryOp1DInPlace<Op, T>>(
        graph, vertexName("popops::TernaryOp1DInPlace", Op, type),
        &TernaryOp1DInPlace<Op, T>::visit);
}

/// Checks the operand types: SELECT takes any of FLOAT, HALF, INT, UNSIGNED_INT and BOOL for
/// its first two operands and a BOOL condition; CLAMP one of FLOAT, HALF and INT throughout.
void checkTypes(const std::string& api, TernaryOpType op, const Tensor& a, const Tensor& b,
                const Tensor& c) {
    const poplar::Type type = a.elementType();
    const auto describe = [](const Tensor& t) {
        return "tensor '" + t.getName() + "' of type " + t.elementType().toString();
    };
    if (b.elementType() != type)
        throw poputil::poplibs_error(api + ": " + describe(a) + " and " + describe(b) +
                                     " must have the same element type");
    if (op == TernaryOpType::SELECT) {
        if (c.elementType() != poplar::BOOL)
            throw poputil::poplibs_error(api + ": the condition, " + describe(c) +
                                         ", must be BOOL");
        if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
            type != poplar::UNSIGNED_INT && type != poplar::BOOL)
            throw poputil::poplibs_error(api + ": " + describe(a) +
                                         " is not supported (FLOAT, HALF, INT, UNSIGNED_INT and "
                                         "BOOL)");
    } else {
        if (c.elementType() != type)
            throw poputil::poplibs_error(api + ": " + describe(a) + " and " + describe(c) +
                                         " must have the same element type");
        if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT)
            throw poputil::poplibs_error(api + ": " + describe(a) +
                                         " is not supported (FLOAT, HALF and INT)");
    }
}

const char* apiName(TernaryOpType op, bool inPlace) {
    if (op == TernaryOpType::CLAMP)
        return inPlace ? "clampInPlace" : "clamp";
    return inPlace ? "selectInPlace" : "select";
}

} // namespace

namespace detail {
void registerTernaryVertices(poplar::Graph& graph) {
    registerOne<TernaryOpType::SELECT, float>(graph);
    registerOne<TernaryOpType::SELECT, poplar::half>(graph);
    registerOne<TernaryOpType::SELECT, int>(graph);
    registerOne<TernaryOpType::SELECT, unsigned>(graph);
    registerOne<TernaryOpType::SELECT, bool>(graph);
    registerOne<TernaryOpType::CLAMP, float>(graph);
    registerOne<TernaryOpType::CLAMP, poplar::half>(graph);
    registerOne<TernaryOpType::CLAMP, int>(graph);
}
} // namespace detail

Tensor map(poplar::Graph& graph, TernaryOpType op, const Tensor& a, const Tensor& b,
           const Tensor& c, poplar::program::Sequence& prog,
           const poplar::DebugContext& debugContext, const poplar::OptionFlags&) {
    const std::string api = apiName(op, false);
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(a, b, c), api);
    checkTypes("popops::" + api, op, a, b, c);
    const poplar::Type type = a.elementType();
    const auto shape = pl::broadcastShapes("popops::" + api, {a, b, c});
    const Tensor& like = a.shape() == shape ? a : (b.shape() == shape ? b : c);
    Tensor out = pl::createOutput(graph, type, shape, like, {di, "out"});
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(graph, cs, vertexName("popops::TernaryOp1D", op, type), out,
                               {{"in1", pl::broadcastTo(a, shape)},
                                {"in2", pl::broadcastTo(b, shape)},
                                {"in3", pl::broadcastTo(c, shape)},
                                {"out", out}},
                               [&](std::size_t n) {
                                   return pl::cycles::ternaryOpWorkerCycles(
                                       target, op == TernaryOpType::CLAMP, type, n);
                               });
    prog.add(poplar::program::Execute(cs, {di}));
    if (op == TernaryOpType::CLAMP && (type == poplar::FLOAT || type == poplar::HALF))
        di.addFlops(2 * out.numElements());
    di.addOutput(out);
    return out;
}

void mapInPlace(poplar::Graph& graph, TernaryOpType op, const Tensor& a, const Tensor& b,
                const Tensor& c, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext, const poplar::OptionFlags&) {
    const std::string api = apiName(op, true);
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(a, b, c), api);
    checkTypes("popops::" + api, op, a, b, c);
    const auto shape = pl::broadcastShapes("popops::" + api, {a, b, c});
    if (shape != a.shape())
        throw poputil::poplibs_error("popops::" + api + ": tensor '" + a.getName() + "' of shape " +
                                     a.shapeToString() +
                                     " is written in place, so the other operands must broadcast "
                                     "to it, not to " +
                                     pl::shapeString(shape));
    const poplar::Type type = a.elementType();
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, vertexName("popops::TernaryOp1DInPlace", op, type), a,
        {{"in1Out", a}, {"in2", pl::broadcastTo(b, shape)}, {"in3", pl::broadcastTo(c, shape)}},
        [&](std::size_t n) {
            return pl::cycles::ternaryOpWorkerCycles(target, op == TernaryOpType::CLAMP, type, n);
        });
    prog.add(poplar::program::Execute(cs, {di}));
    if (op == TernaryOpType::CLAMP && (type == poplar::FLOAT || type == poplar::HALF))
        di.addFlops(2 * a.numElements());
}

} // namespace popops
