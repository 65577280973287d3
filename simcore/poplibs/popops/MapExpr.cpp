// popops::map over expressions: the expression is compiled to a small postfix program that one
// vertex type per element type interprets, so any formula runs as a single compute set (one pass
// over the data) rather than one compute set per operation.

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
namespace pv = tilescope::poplibs::popops_vertices;
using poplar::Tensor;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// Postfix instructions: the kind in the low 8 bits, the argument (input or constant index,
/// operation type) above.
enum Instruction : unsigned { PushInput = 0, PushConst = 1, Unary = 2, Binary = 3, Ternary = 4 };
constexpr unsigned kMaxStackDepth = 16;

unsigned encode(Instruction kind, unsigned argument) {
    return kind | (argument << 8);
}

template <typename C> C evalUnary(expr::UnaryOpType op, C x) {
    using U = expr::UnaryOpType;
    switch (op) {
    case U::ABSOLUTE:
        return pv::applyUnary<U::ABSOLUTE>(x);
    case U::EXPONENT:
        return pv::applyUnary<U::EXPONENT>(x);
    case U::LOGARITHM:
        return pv::applyUnary<U::LOGARITHM>(x);
    case U::NEGATE:
        return pv::applyUnary<U::NEGATE>(x);
    case U::RELU:
        return pv::applyUnary<U::RELU>(x);
    case U::SIGMOID:
        return pv::applyUnary<U::SIGMOID>(x);
    case U::SQRT:
        return pv::applyUnary<U::SQRT>(x);
    case U::SQUARE:
        return pv::applyUnary<U::SQUARE>(x);
    case U::TANH:
        return pv::applyUnary<U::TANH>(x);
    case U::CEIL:
        return pv::applyUnary<U::CEIL>(x);
    case U::COS:
        return pv::applyUnary<U::COS>(x);
    case U::FLOOR:
        return pv::applyUnary<U::FLOOR>(x);
    case U::INVERSE:
        return pv::applyUnary<U::INVERSE>(x);
    case U::LOGICAL_NOT:
        return pv::applyUnary<U::LOGICAL_NOT>(x);
    case U::ROUND:
        return pv::applyUnary<U::ROUND>(x);
    case U::RSQRT:
        return pv::applyUnary<U::RSQRT>(x);
    case U::SIGNUM:
        return pv::applyUnary<U::SIGNUM>(x);
    case U::SIN:
        return pv::applyUnary<U::SIN>(x);
    }
    return x;
}

template <typename C> C evalBinary(expr::BinaryOpType op, C x, C y) {
    using B = expr::BinaryOpType;
    switch (op) {
    case B::ADD:
        return pv::applyBinary<B::ADD>(x, y);
    case B::DIVIDE:
        return pv::applyBinary<B::DIVIDE>(x, y);
    case B::EQUAL:
        return static_cast<C>(pv::applyBinary<B::EQUAL>(x, y));
    case B::GREATER_THAN:
        return static_cast<C>(pv::applyBinary<B::GREATER_THAN>(x, y));
    case B::LESS_THAN:
        return static_cast<C>(pv::applyBinary<B::LESS_THAN>(x, y));
    case B::MAXIMUM:
        return pv::applyBinary<B::MAXIMUM>(x, y);
    case B::MINIMUM:
        return pv::applyBinary<B::MINIMUM>(x, y);
    case B::MULTIPLY:
        return pv::applyBinary<B::MULTIPLY>(x, y);
    case B::POWER:
        if constexpr (std::is_integral_v<C>)
            return static_cast<C>(std::pow(double(x), double(y)));
        else
            return pv::applyBinary<B::POWER>(x, y);
    case B::SUBTRACT:
        return pv::applyBinary<B::SUBTRACT>(x, y);
    case B::GREATER_THAN_EQUAL:
        return static_cast<C>(pv::applyBinary<B::GREATER_THAN_EQUAL>(x, y));
    case B::LESS_THAN_EQUAL:
        return static_cast<C>(pv::applyBinary<B::LESS_THAN_EQUAL>(x, y));
    case B::LOGICAL_AND:
        return static_cast<C>(pv::applyBinary<B::LOGICAL_AND>(x, y));
    case B::LOGICAL_OR:
        return static_cast<C>(pv::applyBinary<B::LOGICAL_OR>(x, y));
    case B::NOT_EQUAL:
        return static_cast<C>(pv::applyBinary<B::NOT_EQUAL>(x, y));
    case B::REMAINDER:
        return pv::applyBinary<B::REMAINDER>(x, y);
    }
    return x;
}

template <typename C> C evalTernary(expr::TernaryOpType op, C a, C b, C c) {
    if (op == expr::TernaryOpType::SELECT)
        return c != C(0) ? a : b;
    return std::min(std::max(a, b), c);
}

/// Evaluates the postfix `program` for each element; HALF computes in float.
template <typename T, typename Out> class MapExpr : public poplar::Vertex {
public:
    poplar::Vector<poplar::Input<poplar::Vector<T>>> in;
    poplar::Output<poplar::Vector<Out>> out;
    poplar::Vector<unsigned> program;
    poplar::Vector<float> constants;

    bool compute() {
        using C = pv::ComputeType<T>;
        C stack[kMaxStackDepth];
        for (std::size_t i = 0; i < out.size(); ++i) {
            unsigned top = 0;
            for (unsigned instruction : program) {
                const unsigned argument = instruction >> 8;
                switch (instruction & 0xff) {
                case PushInput:
                    stack[top++] = static_cast<C>(in[argument][i]);
                    break;
                case PushConst:
                    stack[top++] = static_cast<C>(constants[argument]);
                    break;
                case Unary:
                    stack[top - 1] =
                        evalUnary(static_cast<expr::UnaryOpType>(argument), stack[top - 1]);
                    break;
                case Binary:
                    --top;
                    stack[top - 1] = evalBinary(static_cast<expr::BinaryOpType>(argument),
                                                stack[top - 1], stack[top]);
                    break;
                default:
                    top -= 2;
                    stack[top - 1] = evalTernary(static_cast<expr::TernaryOpType>(argument),
                                                 stack[top - 1], stack[top], stack[top + 1]);
                }
            }
            out[i] = static_cast<Out>(stack[0]);
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<MapExpr*>(o);
        describeField(f, "in", v.in);
        describeField(f, "out", v.out);
        describeField(f, "program", v.program);
        describeField(f, "constants", v.constants);
    }
};

/// An expression compiled for MapExpr, with what its cost and FLOPs depend on.
struct CompiledExpr {
    std::vector<unsigned> program;
    std::vector<float> constants;
    unsigned maxInput = 0; ///< highest placeholder index used (1-based)
    unsigned depth = 0, maxDepth = 0;
    unsigned simpleOps = 0, transcendentalOps = 0, integerUnsafeOps = 0;
    unsigned fusedOps = 0; ///< unary, binary and ternary operations (PopLibs' numFusedOps)
    bool comparisonAtRoot = false;
    /// PopLibs fuses only expressions of more than one operation (analyseExpr); a single one
    /// runs on that operation's own vertex and is costed as it. Pow by a constant 2, 0.5, -0.5
    /// or -1 is first rewritten to Square, Sqrt, Rsqrt or Inv, as PopLibs' expression
    /// optimisations do (tests/popops/MapExprOptimisations.cpp).
    enum class Single { None, Unary, Binary, Ternary } single = Single::None;
    expr::UnaryOpType singleUnary = expr::UnaryOpType::ABSOLUTE;
    expr::BinaryOpType singleBinary = expr::BinaryOpType::ADD;
    expr::TernaryOpType singleTernary = expr::TernaryOpType::SELECT;

    void push() { maxDepth = std::max(maxDepth, ++depth); }
    void compile(const expr::Expr& e) {
        comparisonAtRoot = compileNode(e);
        if (fusedOps == 1)
            findSingle(e);
    }
    void findSingle(const expr::Expr& e) {
        if (auto* u = dynamic_cast<const expr::UnaryOp*>(&e)) {
            single = Single::Unary;
            singleUnary = u->opType();
        } else if (auto* b = dynamic_cast<const expr::BinaryOp*>(&e)) {
            single = Single::Binary;
            singleBinary = b->opType();
            auto* c = dynamic_cast<const expr::Const*>(&b->rhs());
            if (b->opType() == expr::BinaryOpType::POWER && c) {
                const float k = c->value();
                const bool rewritten = k == 2.0f || k == 0.5f || k == -0.5f || k == -1.0f;
                singleUnary = k == 2.0f    ? expr::UnaryOpType::SQUARE
                              : k == 0.5f  ? expr::UnaryOpType::SQRT
                              : k == -0.5f ? expr::UnaryOpType::RSQRT
                                           : expr::UnaryOpType::INVERSE;
                if (rewritten)
                    single = Single::Unary;
            }
        } else if (auto* t = dynamic_cast<const expr::TernaryOp*>(&e)) {
            single = Single::Ternary;
            singleTernary = t->opType();
        }
    }
    /// Logical operations take BOOL operands: inside an expression those are comparisons and
    /// other logical operations (expressions over BOOL tensors are not supported).
    [[noreturn]] static void throwLogicalNeedsBool() {
        throw poputil::poplibs_error(
            "popops::map: logical operations (Not, And, Or) take BOOL operands, such as "
            "comparisons; for BOOL tensors use popops::logicalNot, logicalAnd and logicalOr");
    }
    /// Appends the postfix code of `e`; returns whether its value is BOOL.
    bool compileNode(const expr::Expr& e) {
        if (auto* p = dynamic_cast<const expr::PlaceHolder*>(&e)) {
            if (p->index() == 0)
                throw poputil::poplibs_error("popops::map: placeholders are numbered from _1");
            maxInput = std::max(maxInput, p->index());
            program.push_back(encode(PushInput, p->index() - 1));
            push();
            return false;
        } else if (auto* c = dynamic_cast<const expr::Const*>(&e)) {
            program.push_back(encode(PushConst, static_cast<unsigned>(constants.size())));
            constants.push_back(c->value());
            push();
            return false;
        } else if (auto* u = dynamic_cast<const expr::UnaryOp*>(&e)) {
            const bool operandIsBool = compileNode(u->operand());
            if (pv::isLogical(u->opType()) && !operandIsBool)
                throwLogicalNeedsBool();
            program.push_back(encode(Unary, static_cast<unsigned>(u->opType())));
            ++fusedOps;
            (pv::isTranscendental(u->opType()) ? transcendentalOps : simpleOps)++;
            integerUnsafeOps += !pv::supports<int>(u->opType()) && !pv::isLogical(u->opType());
            return pv::isLogical(u->opType());
        } else if (auto* b = dynamic_cast<const expr::BinaryOp*>(&e)) {
            const bool lhsIsBool = compileNode(b->lhs());
            const bool rhsIsBool = compileNode(b->rhs());
            if (pv::isLogical(b->opType()) && !(lhsIsBool && rhsIsBool))
                throwLogicalNeedsBool();
            program.push_back(encode(Binary, static_cast<unsigned>(b->opType())));
            --depth;
            ++fusedOps;
            (pv::isTranscendental(b->opType()) ? transcendentalOps : simpleOps)++;
            integerUnsafeOps += !pv::supports<int>(b->opType()) && !pv::isLogical(b->opType());
            return pv::givesBool(b->opType());
        } else if (auto* t = dynamic_cast<const expr::TernaryOp*>(&e)) {
            const bool a = compileNode(t->arg0());
            const bool b = compileNode(t->arg1());
            compileNode(t->arg2());
            program.push_back(encode(Ternary, static_cast<unsigned>(t->opType())));
            depth -= 2;
            ++fusedOps;
            simpleOps += t->opType() == expr::TernaryOpType::CLAMP ? 2 : 1;
            return t->opType() == expr::TernaryOpType::SELECT && a && b;
        }
        throw poputil::poplibs_error("popops::map: unsupported expression node");
    }
};

template <typename T> poplar::Type typeOf() {
    return poplar::equivalent_device_type<T>().value;
}

template <typename T, typename Out> void registerOne(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<MapExpr<T, Out>>(
        graph, poputil::templateVertex("popops::MapExpr", typeOf<T>(), typeOf<Out>()),
        &MapExpr<T, Out>::visit);
}

/// Thread cycles of one worker over `n` elements of `type`: PopLibs' generated-codelet estimate,
/// or for a single operation that operation's own vertex (in place for mapInPlace).
std::uint64_t mapWorkerCycles(const poplar::Target& target, const CompiledExpr& ce,
                              const poplar::Type& type, std::size_t inputs, bool inPlace,
                              std::size_t n) {
    switch (ce.single) {
    case CompiledExpr::Single::Unary:
        return pl::cycles::unaryOp1DWorkerCycles(target, ce.singleUnary, type, inPlace, n);
    case CompiledExpr::Single::Binary:
        return pl::cycles::binaryOp1DWorkerCycles(target, ce.singleBinary, type, inPlace, n);
    case CompiledExpr::Single::Ternary:
        return pl::cycles::ternaryOpWorkerCycles(
            target, ce.singleTernary == expr::TernaryOpType::CLAMP, type, n);
    case CompiledExpr::Single::None:
        break;
    }
    return pl::cycles::mapExprWorkerCycles(target, type, static_cast<unsigned>(inputs), ce.fusedOps,
                                           n);
}

/// Adds the compute set evaluating the compiled expression over `inputs` (already broadcast to
/// out's shape) into `out`.
void addMap(poplar::Graph& graph, const CompiledExpr& ce, const std::vector<Tensor>& inputs,
            const Tensor& out, poplar::program::Sequence& prog, pl::PoplibsOpDebugInfo& di,
            const std::string& api) {
    const poplar::Type type = inputs.front().elementType();
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const auto& target = graph.getTarget();
    const std::string vertexType =
        poputil::templateVertex("popops::MapExpr", type, out.elementType());
    pl::addElementWiseVertices(
        graph, cs, vertexType, out, {{"out", out}},
        [&](std::size_t n) {
            return mapWorkerCycles(target, ce, type, inputs.size(), api == "mapInPlace", n);
        },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["program"], poplar::ArrayRef<unsigned>(ce.program));
            graph.setInitialValue(v["constants"], poplar::ArrayRef<float>(ce.constants));
        },
        {{"in", inputs}});
    prog.add(poplar::program::Execute(cs, {di}));
    if (type == poplar::FLOAT || type == poplar::HALF)
        di.addFlops(out.numElements() * (ce.simpleOps + ce.transcendentalOps));
}

/// Checks the operands, compiles the expression and broadcasts the operands to one shape.
CompiledExpr prepare(const std::string& api, const expr::Expr& e, const std::vector<Tensor>& ts,
                     std::vector<std::size_t>& shape) {
    if (ts.empty())
        throw poputil::poplibs_error("popops::" + api + ": no tensors given");
    CompiledExpr ce;
    ce.compile(e);
    if (ce.maxInput > ts.size())
        throw poputil::poplibs_error("popops::" + api + ": the expression uses _" +
                                     std::to_string(ce.maxInput) + " but only " +
                                     std::to_string(ts.size()) + " tensors were given");
    if (ce.maxDepth > kMaxStackDepth)
        throw poputil::poplibs_error(
            "popops::" + api + ": the expression nests too deeply (" + std::to_string(ce.maxDepth) +
            " values live at once, at most " + std::to_string(kMaxStackDepth) + ")");
    const poplar::Type type = ts.front().elementType();
    const bool integer = type == poplar::INT || type == poplar::UNSIGNED_INT;
    if (type != poplar::FLOAT && type != poplar::HALF && !integer)
        throw poputil::poplibs_error("popops::" + api + ": tensor '" + ts.front().getName() +
                                     "' has type " + type.toString() +
                                     "; FLOAT, HALF, INT and UNSIGNED_INT are supported");
    if (integer && ce.integerUnsafeOps)
        throw poputil::poplibs_error(
            "popops::" + api + ": the expression uses operations " + type.toString() +
            " tensors do not support (exp, log, sqrt, rsqrt, inv, tanh, sigmoid, sin, "
            "cos, ceil, floor, round, pow)");
    for (const auto& t : ts)
        if (t.elementType() != type)
            throw poputil::poplibs_error("popops::" + api + ": tensor '" + t.getName() +
                                         "' of type " + t.elementType().toString() +
                                         " differs from '" + ts.front().getName() + "' (" +
                                         type.toString() + ")");
    shape = pl::broadcastShapes("popops::" + api, ts);
    return ce;
}

} // namespace

namespace detail {
void registerMapExprVertices(poplar::Graph& graph) {
    registerOne<float, float>(graph);
    registerOne<poplar::half, poplar::half>(graph);
    registerOne<int, int>(graph);
    registerOne<unsigned, unsigned>(graph);
    registerOne<float, bool>(graph);
    registerOne<poplar::half, bool>(graph);
    registerOne<int, bool>(graph);
    registerOne<unsigned, bool>(graph);
}
} // namespace detail

Tensor map(poplar::Graph& graph, const expr::Expr& e, const std::vector<Tensor>& ts,
           poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
           const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(ts), "map");
    std::vector<std::size_t> shape;
    const CompiledExpr ce = prepare("map", e, ts, shape);
    const poplar::Type type = ts.front().elementType();
    Tensor like;
    for (const auto& t : ts)
        if (!like.valid() && t.shape() == shape)
            like = t;
    Tensor out = pl::createOutput(graph, ce.comparisonAtRoot ? poplar::BOOL : type, shape, like,
                                  {di, "out"});
    std::vector<Tensor> inputs;
    for (const auto& t : ts)
        inputs.push_back(pl::broadcastTo(t, shape));
    addMap(graph, ce, inputs, out, prog, di, "map");
    di.addOutput(out);
    return out;
}

void mapInPlace(poplar::Graph& graph, const expr::Expr& e, const std::vector<Tensor>& ts,
                poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(ts), "mapInPlace");
    std::vector<std::size_t> shape;
    const CompiledExpr ce = prepare("mapInPlace", e, ts, shape);
    if (shape != ts.front().shape())
        throw poputil::poplibs_error("popops::mapInPlace: tensor '" + ts.front().getName() +
                                     "' of shape " + ts.front().shapeToString() +
                                     " is written in place, so the operands must broadcast to it, "
                                     "not to " +
                                     pl::shapeString(shape));
    if (ce.comparisonAtRoot)
        throw poputil::poplibs_error("popops::mapInPlace: the expression gives BOOL results and "
                                     "cannot write tensor '" +
                                     ts.front().getName() + "'");
    std::vector<Tensor> inputs;
    for (const auto& t : ts)
        inputs.push_back(pl::broadcastTo(t, shape));
    addMap(graph, ce, inputs, ts.front(), prog, di, "mapInPlace");
}

} // namespace popops
