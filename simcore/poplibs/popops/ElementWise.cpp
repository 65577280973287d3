// popops element-wise operations: map over unary and binary operation types, with broadcasting
// and in-place forms, and the registration of their vertices.

#include "popops/ElementWise.hpp"

#include "common/ElementWiseBuilder.hpp"
#include "popops/BroadcastScalar.hpp"
#include "popops/ElementWiseCycles.hpp"
#include "popops/ElementWiseVertices.hpp"
#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <string>

namespace popops {

namespace pv = tilescope::poplibs::popops_vertices;
namespace pl = tilescope::poplibs;
using poplar::Tensor;

namespace {

const char* opName(expr::UnaryOpType op) {
    switch (op) {
    case expr::UnaryOpType::ABSOLUTE:
        return "ABSOLUTE";
    case expr::UnaryOpType::EXPONENT:
        return "EXPONENT";
    case expr::UnaryOpType::LOGARITHM:
        return "LOGARITHM";
    case expr::UnaryOpType::NEGATE:
        return "NEGATE";
    case expr::UnaryOpType::RELU:
        return "RELU";
    case expr::UnaryOpType::SIGMOID:
        return "SIGMOID";
    case expr::UnaryOpType::SQRT:
        return "SQRT";
    case expr::UnaryOpType::SQUARE:
        return "SQUARE";
    case expr::UnaryOpType::TANH:
        return "TANH";
    case expr::UnaryOpType::CEIL:
        return "CEIL";
    case expr::UnaryOpType::COS:
        return "COS";
    case expr::UnaryOpType::FLOOR:
        return "FLOOR";
    case expr::UnaryOpType::INVERSE:
        return "INVERSE";
    case expr::UnaryOpType::LOGICAL_NOT:
        return "LOGICAL_NOT";
    case expr::UnaryOpType::ROUND:
        return "ROUND";
    case expr::UnaryOpType::RSQRT:
        return "RSQRT";
    case expr::UnaryOpType::SIGNUM:
        return "SIGNUM";
    case expr::UnaryOpType::SIN:
        return "SIN";
    }
    return "?";
}

const char* opName(expr::BinaryOpType op) {
    switch (op) {
    case expr::BinaryOpType::ADD:
        return "ADD";
    case expr::BinaryOpType::DIVIDE:
        return "DIVIDE";
    case expr::BinaryOpType::EQUAL:
        return "EQUAL";
    case expr::BinaryOpType::GREATER_THAN:
        return "GREATER_THAN";
    case expr::BinaryOpType::LESS_THAN:
        return "LESS_THAN";
    case expr::BinaryOpType::MAXIMUM:
        return "MAXIMUM";
    case expr::BinaryOpType::MINIMUM:
        return "MINIMUM";
    case expr::BinaryOpType::MULTIPLY:
        return "MULTIPLY";
    case expr::BinaryOpType::POWER:
        return "POWER";
    case expr::BinaryOpType::SUBTRACT:
        return "SUBTRACT";
    case expr::BinaryOpType::GREATER_THAN_EQUAL:
        return "GREATER_THAN_EQUAL";
    case expr::BinaryOpType::LESS_THAN_EQUAL:
        return "LESS_THAN_EQUAL";
    case expr::BinaryOpType::LOGICAL_AND:
        return "LOGICAL_AND";
    case expr::BinaryOpType::LOGICAL_OR:
        return "LOGICAL_OR";
    case expr::BinaryOpType::NOT_EQUAL:
        return "NOT_EQUAL";
    case expr::BinaryOpType::REMAINDER:
        return "REMAINDER";
    }
    return "?";
}

std::string vertexName(const char* base, expr::UnaryOpType op, const poplar::Type& type) {
    return poputil::templateVertex(base, std::string("popops::expr::UnaryOpType::") + opName(op),
                                   type);
}
std::string vertexName(const char* base, expr::BinaryOpType op, const poplar::Type& type) {
    return poputil::templateVertex(base, std::string("popops::expr::BinaryOpType::") + opName(op),
                                   type);
}

/// The element types the vertices are instantiated for, and which operations each supports.
template <typename Op> void checkType(const char* api, Op op, const Tensor& t) {
    const poplar::Type type = t.elementType();
    const bool floating = type == poplar::FLOAT || type == poplar::HALF;
    const bool supported = (floating && pv::supports<float>(op)) ||
                           (type == poplar::INT && pv::supports<int>(op)) ||
                           (type == poplar::BOOL && pv::supports<bool>(op));
    if (supported)
        return;
    std::string which;
    if (pv::isLogical(op))
        which = " (logical operations take BOOL tensors only)";
    else if (type == poplar::BOOL)
        which = " (BOOL tensors support LOGICAL_NOT, LOGICAL_AND, LOGICAL_OR, EQUAL and "
                "NOT_EQUAL)";
    else if (!floating && type != poplar::INT)
        which = " (FLOAT, HALF, INT and BOOL only)";
    throw poputil::poplibs_error(std::string("popops::") + api + ": operation " + opName(op) +
                                 " does not support tensor '" + t.getName() + "' of type " +
                                 type.toString() + which);
}

std::uint64_t flopsOf(const Tensor& out, const poplar::Type& type) {
    return type == poplar::INT || type == poplar::BOOL ? 0 : out.numElements();
}

template <typename T, expr::UnaryOpType Op> void registerUnary(poplar::Graph& graph) {
    if constexpr (pv::supports<T>(Op)) {
        const auto type = poplar::equivalent_device_type<T>().value;
        tilescope::sim::registerBuiltinVertex<pv::UnaryOp1D<Op, T>>(
            graph, vertexName("popops::UnaryOp1D", Op, type), &pv::UnaryOp1D<Op, T>::visit);
        tilescope::sim::registerBuiltinVertex<pv::UnaryOp1DInPlace<Op, T>>(
            graph, vertexName("popops::UnaryOp1DInPlace", Op, type),
            &pv::UnaryOp1DInPlace<Op, T>::visit);
    }
}

template <typename T, expr::BinaryOpType Op> void registerBinary(poplar::Graph& graph) {
    if constexpr (pv::supports<T>(Op)) {
        const auto type = poplar::equivalent_device_type<T>().value;
        tilescope::sim::registerBuiltinVertex<pv::BinaryOp1D<Op, T>>(
            graph, vertexName("popops::BinaryOp1D", Op, type), &pv::BinaryOp1D<Op, T>::visit);
        if constexpr (!pv::givesBool(Op) || std::is_same_v<T, bool>)
            tilescope::sim::registerBuiltinVertex<pv::BinaryOp1DInPlace<Op, T>>(
                graph, vertexName("popops::BinaryOp1DInPlace", Op, type),
                &pv::BinaryOp1DInPlace<Op, T>::visit);
    }
    if constexpr (pv::hasBroadcastScalar<T>(Op)) {
        const auto type = poplar::equivalent_device_type<T>().value;
        tilescope::sim::registerBuiltinVertex<pv::BroadcastScalar1D<Op, T>>(
            graph, vertexName("popops::BroadcastScalar1D", Op, type),
            &pv::BroadcastScalar1D<Op, T>::visit);
        tilescope::sim::registerBuiltinVertex<pv::BroadcastScalar2DData<Op, T>>(
            graph, vertexName("popops::BroadcastScalar2DData", Op, type),
            &pv::BroadcastScalar2DData<Op, T>::visit);
        if constexpr (!pv::givesBool(Op) || std::is_same_v<T, bool>) {
            tilescope::sim::registerBuiltinVertex<pv::BroadcastScalar1DInPlace<Op, T>>(
                graph, vertexName("popops::BroadcastScalar1DInPlace", Op, type),
                &pv::BroadcastScalar1DInPlace<Op, T>::visit);
            tilescope::sim::registerBuiltinVertex<pv::BroadcastScalar2DDataInPlace<Op, T>>(
                graph, vertexName("popops::BroadcastScalar2DDataInPlace", Op, type),
                &pv::BroadcastScalar2DDataInPlace<Op, T>::visit);
        }
    }
}

/// Whether PopLibs runs `op` on `type` with a scalar operand on its BroadcastScalar1D vertex
/// (haveScalarBroadcastVertexForOp, lib/popops/ElementWise.cpp); the registered vertices above
/// follow the same rule.
bool hasBroadcastScalarVertex(expr::BinaryOpType op, const poplar::Type& type) {
    if (type == poplar::FLOAT)
        return pv::hasBroadcastScalar<float>(op);
    if (type == poplar::HALF)
        return pv::hasBroadcastScalar<poplar::half>(op);
    if (type == poplar::INT)
        return pv::hasBroadcastScalar<int>(op);
    if (type == poplar::BOOL)
        return pv::hasBroadcastScalar<bool>(op);
    return false;
}

/// PopLibs' isBinaryOpCommutative, for the operations of this subset.
bool commutative(expr::BinaryOpType op) {
    using B = expr::BinaryOpType;
    return op == B::ADD || op == B::MULTIPLY || op == B::MAXIMUM || op == B::MINIMUM ||
           op == B::EQUAL || op == B::NOT_EQUAL || op == B::LOGICAL_AND || op == B::LOGICAL_OR;
}

template <typename T> void registerForType(poplar::Graph& graph) {
    using U = expr::UnaryOpType;
    using B = expr::BinaryOpType;
    registerUnary<T, U::ABSOLUTE>(graph);
    registerUnary<T, U::EXPONENT>(graph);
    registerUnary<T, U::LOGARITHM>(graph);
    registerUnary<T, U::NEGATE>(graph);
    registerUnary<T, U::RELU>(graph);
    registerUnary<T, U::SIGMOID>(graph);
    registerUnary<T, U::SQRT>(graph);
    registerUnary<T, U::SQUARE>(graph);
    registerUnary<T, U::TANH>(graph);
    registerUnary<T, U::CEIL>(graph);
    registerUnary<T, U::COS>(graph);
    registerUnary<T, U::FLOOR>(graph);
    registerUnary<T, U::INVERSE>(graph);
    registerUnary<T, U::LOGICAL_NOT>(graph);
    registerUnary<T, U::ROUND>(graph);
    registerUnary<T, U::RSQRT>(graph);
    registerUnary<T, U::SIGNUM>(graph);
    registerUnary<T, U::SIN>(graph);
    registerBinary<T, B::ADD>(graph);
    registerBinary<T, B::DIVIDE>(graph);
    registerBinary<T, B::EQUAL>(graph);
    registerBinary<T, B::GREATER_THAN>(graph);
    registerBinary<T, B::LESS_THAN>(graph);
    registerBinary<T, B::MAXIMUM>(graph);
    registerBinary<T, B::MINIMUM>(graph);
    registerBinary<T, B::MULTIPLY>(graph);
    registerBinary<T, B::POWER>(graph);
    registerBinary<T, B::SUBTRACT>(graph);
    registerBinary<T, B::GREATER_THAN_EQUAL>(graph);
    registerBinary<T, B::LESS_THAN_EQUAL>(graph);
    registerBinary<T, B::LOGICAL_AND>(graph);
    registerBinary<T, B::LOGICAL_OR>(graph);
    registerBinary<T, B::NOT_EQUAL>(graph);
    registerBinary<T, B::REMAINDER>(graph);
}

std::string lower(const char* s) {
    std::string out(s);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

namespace detail {
Tensor scalarOperand(poplar::Graph& graph, const Tensor& like, double value, bool floating,
                     const poplar::Type& valueType) {
    const poplar::Type type = like.elementType();
    const bool matches =
        floating ? (type == poplar::FLOAT || type == poplar::HALF) : valueType == type;
    if (!matches)
        throw poputil::poplibs_error(
            "popops: type mismatch between binary operation tensor '" + like.getName() +
            "' of type " + type.toString() + " and its constant operand (" +
            (floating
                 ? std::string("a floating-point number needs FLOAT or HALF")
                 : "an integer of type " + valueType.toString() + " needs a tensor of that type") +
            ")");
    Tensor t;
    if (type == poplar::FLOAT || type == poplar::HALF)
        t = graph.addConstant(type, {}, static_cast<float>(value), {"constOperand"});
    else if (type == poplar::INT)
        t = graph.addConstant(type, {}, static_cast<int>(value), {"constOperand"});
    else if (type == poplar::UNSIGNED_INT)
        t = graph.addConstant(type, {}, static_cast<unsigned>(value), {"constOperand"});
    else if (type == poplar::BOOL)
        t = graph.addConstant(type, {}, value != 0, {"constOperand"});
    else
        throw poputil::poplibs_error("popops: tensor '" + like.getName() + "' of type " +
                                     type.toString() +
                                     " has no element-wise operations with a constant");
    graph.setTileMapping(t, 0);
    return t;
}

void registerElementWiseVertices(poplar::Graph& graph) {
    registerForType<float>(graph);
    registerForType<poplar::half>(graph);
    registerForType<int>(graph);
    registerForType<bool>(graph);
}
} // namespace detail

Tensor map(poplar::Graph& graph, expr::UnaryOpType op, const Tensor& t,
           poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
           const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t), lower(opName(op)));
    checkType("map", op, t);
    const poplar::Type type = t.elementType();
    Tensor out = pl::createOutput(graph, type, t.shape(), t, {di, "out"});
    poplar::ComputeSet cs = graph.addComputeSet({di, lower(opName(op))});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(graph, cs, vertexName("popops::UnaryOp1D", op, type), out,
                               {{"in", t}, {"out", out}}, [&](std::size_t n) {
                                   return pl::cycles::unaryOp1DWorkerCycles(target, op, type, false,
                                                                            n);
                               });
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(flopsOf(out, type));
    di.addOutput(out);
    return out;
}

void mapInPlace(poplar::Graph& graph, expr::UnaryOpType op, const Tensor& t,
                poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t), lower(opName(op)) + "InPlace");
    checkType("mapInPlace", op, t);
    const poplar::Type type = t.elementType();
    poplar::ComputeSet cs = graph.addComputeSet({di, lower(opName(op)) + "InPlace"});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(graph, cs, vertexName("popops::UnaryOp1DInPlace", op, type), t,
                               {{"inOut", t}}, [&](std::size_t n) {
                                   return pl::cycles::unaryOp1DWorkerCycles(target, op, type, true,
                                                                            n);
                               });
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(flopsOf(t, type));
}

Tensor map(poplar::Graph& graph, expr::BinaryOpType op, const Tensor& a, const Tensor& b,
           poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
           const poplar::OptionFlags&) {
    const std::string api = lower(opName(op));
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(a, b), api);
    if (a.elementType() != b.elementType())
        throw poputil::poplibs_error("popops::" + api + ": tensor '" + a.getName() + "' of type " +
                                     a.elementType().toString() + " and tensor '" + b.getName() +
                                     "' of type " + b.elementType().toString() +
                                     " must have the same element type");
    checkType(api.c_str(), op, a);
    const poplar::Type type = a.elementType();
    const auto shape = pl::broadcastShape("popops::" + api, a, b);
    const poplar::Type outType = pv::givesBool(op) ? poplar::BOOL : type;
    const Tensor& like = a.shape() == shape ? a : b;
    Tensor out = pl::createOutput(graph, outType, shape, like, {di, "out"});
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const auto& target = graph.getTarget();
    // PopLibs' binaryOp: a one-element second operand (or first, for a commutative operation)
    // runs on BroadcastScalar1D or BroadcastScalar2DData over the other operand, chosen per
    // tile (BroadcastScalar.hpp), reading the scalar once per vertex.
    const bool scalarB = b.numElements() == 1, scalarA = a.numElements() == 1;
    if (hasBroadcastScalarVertex(op, type) && (scalarB || (scalarA && commutative(op)))) {
        const Tensor& data = scalarB ? a : b;
        const Tensor& scalar = scalarB ? b : a;
        const Tensor scalarElem = scalar.reshape({});
        detail::addBroadcastScalarVertices(graph, cs, op, pl::broadcastTo(data, shape), scalarElem,
                                           out, vertexName("popops::BroadcastScalar1D", op, type),
                                           vertexName("popops::BroadcastScalar2DData", op, type));
        prog.add(poplar::program::Execute(cs, {di}));
        di.addFlops(flopsOf(out, type));
        di.addOutput(out);
        return out;
    }
    pl::addElementWiseVertices(
        graph, cs, vertexName("popops::BinaryOp1D", op, type), out,
        {{"in1", pl::broadcastTo(a, shape)}, {"in2", pl::broadcastTo(b, shape)}, {"out", out}},
        [&](std::size_t n) {
            return pl::cycles::binaryOp1DWorkerCycles(target, op, type, false, n);
        });
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(flopsOf(out, type));
    di.addOutput(out);
    return out;
}

void mapInPlace(poplar::Graph& graph, expr::BinaryOpType op, const Tensor& a, const Tensor& b,
                poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                const poplar::OptionFlags&) {
    const std::string api = lower(opName(op)) + "InPlace";
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(a, b), api);
    if (pv::isComparison(op) && a.elementType() != poplar::BOOL)
        throw poputil::poplibs_error("popops::mapInPlace: comparison " + std::string(opName(op)) +
                                     " gives BOOL results and cannot write tensor '" + a.getName() +
                                     "' in place");
    if (a.elementType() != b.elementType())
        throw poputil::poplibs_error("popops::" + api + ": tensor '" + a.getName() + "' of type " +
                                     a.elementType().toString() + " and tensor '" + b.getName() +
                                     "' of type " + b.elementType().toString() +
                                     " must have the same element type");
    checkType(api.c_str(), op, a);
    const auto shape = pl::broadcastShape("popops::" + api, a, b);
    if (shape != a.shape())
        throw poputil::poplibs_error("popops::" + api + ": tensor '" + a.getName() + "' of shape " +
                                     a.shapeToString() + " is written in place, so tensor '" +
                                     b.getName() + "' of shape " + b.shapeToString() +
                                     " must broadcast to it, not to " + pl::shapeString(shape));
    const poplar::Type type = a.elementType();
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const auto& target = graph.getTarget();
    // In place, PopLibs takes the broadcast-scalar path only for a one-element second operand.
    if (hasBroadcastScalarVertex(op, type) && b.numElements() == 1) {
        const Tensor scalarElem = b.reshape({});
        detail::addBroadcastScalarVertices(
            graph, cs, op, a, scalarElem, Tensor(),
            vertexName("popops::BroadcastScalar1DInPlace", op, type),
            vertexName("popops::BroadcastScalar2DDataInPlace", op, type));
        prog.add(poplar::program::Execute(cs, {di}));
        di.addFlops(flopsOf(a, type));
        return;
    }
    pl::addElementWiseVertices(
        graph, cs, vertexName("popops::BinaryOp1DInPlace", op, type), a,
        {{"in1Out", a}, {"in2", pl::broadcastTo(b, shape)}}, [&](std::size_t n) {
            return pl::cycles::binaryOp1DWorkerCycles(target, op, type, true, n);
        });
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(flopsOf(a, type));
}

} // namespace popops
