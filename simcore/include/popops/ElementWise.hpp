#pragma once
// popops element-wise operations. Binary operations broadcast their operands with numpy rules
// (trailing dimensions equal or 1); the in-place forms write the first operand, which must
// already have the broadcast shape. Each call adds one compute set to `prog` and records an
// operation (layer "PopLibs") with its estimated FLOPs.

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popops/Expr.hpp>
#include <popops/ExprOp.hpp>
#include <type_traits>
#include <vector>

namespace popops {

poplar::Tensor map(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& t,
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {});
poplar::Tensor map(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                   const poplar::Tensor& b, poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {});
void mapInPlace(poplar::Graph& graph, expr::UnaryOpType op, const poplar::Tensor& t,
                poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                const poplar::OptionFlags& options = {});
void mapInPlace(poplar::Graph& graph, expr::BinaryOpType op, const poplar::Tensor& a,
                const poplar::Tensor& b, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext = {},
                const poplar::OptionFlags& options = {});

/// The ternary operations (broadcasting all three operands); SELECT takes a BOOL third operand.
poplar::Tensor map(poplar::Graph& graph, expr::TernaryOpType op, const poplar::Tensor& a,
                   const poplar::Tensor& b, const poplar::Tensor& c,
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {});
void mapInPlace(poplar::Graph& graph, expr::TernaryOpType op, const poplar::Tensor& a,
                const poplar::Tensor& b, const poplar::Tensor& c, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext = {},
                const poplar::OptionFlags& options = {});

/// Evaluates `expr` element by element over `ts` (placeholder _i is ts[i-1]), all broadcast to
/// one shape and of one element type, in a single compute set. The result has that type, or
/// BOOL when the outermost operation is a comparison.
poplar::Tensor map(poplar::Graph& graph, const expr::Expr& expr,
                   const std::vector<poplar::Tensor>& ts, poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {});
/// As map, writing the result to ts[0], which must have the broadcast shape.
void mapInPlace(poplar::Graph& graph, const expr::Expr& expr, const std::vector<poplar::Tensor>& ts,
                poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                const poplar::OptionFlags& options = {});

#define TILESCOPE_POPOPS_UNARY(name, OP)                                                           \
    inline poplar::Tensor name(                                                                    \
        poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,            \
        const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {}) {  \
        return map(graph, expr::UnaryOpType::OP, t, prog, debugContext, options);                  \
    }                                                                                              \
    inline void name##InPlace(                                                                     \
        poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,            \
        const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {}) {  \
        mapInPlace(graph, expr::UnaryOpType::OP, t, prog, debugContext, options);                  \
    }

#define TILESCOPE_POPOPS_COMPARISON(name, OP)                                                      \
    inline poplar::Tensor name(poplar::Graph& graph, const poplar::Tensor& a,                      \
                               const poplar::Tensor& b, poplar::program::Sequence& prog,           \
                               const poplar::DebugContext& debugContext = {},                      \
                               const poplar::OptionFlags& options = {}) {                          \
        return map(graph, expr::BinaryOpType::OP, a, b, prog, debugContext, options);              \
    }

#define TILESCOPE_POPOPS_BINARY(name, OP)                                                          \
    TILESCOPE_POPOPS_COMPARISON(name, OP)                                                          \
    inline void name##InPlace(poplar::Graph& graph, const poplar::Tensor& a,                       \
                              const poplar::Tensor& b, poplar::program::Sequence& prog,            \
                              const poplar::DebugContext& debugContext = {},                       \
                              const poplar::OptionFlags& options = {}) {                           \
        mapInPlace(graph, expr::BinaryOpType::OP, a, b, prog, debugContext, options);              \
    }

TILESCOPE_POPOPS_UNARY(abs, ABSOLUTE)
TILESCOPE_POPOPS_UNARY(exp, EXPONENT)
TILESCOPE_POPOPS_UNARY(log, LOGARITHM)
TILESCOPE_POPOPS_UNARY(neg, NEGATE)
TILESCOPE_POPOPS_UNARY(relu, RELU)
TILESCOPE_POPOPS_UNARY(sigmoid, SIGMOID)
TILESCOPE_POPOPS_UNARY(sqrt, SQRT)
TILESCOPE_POPOPS_UNARY(square, SQUARE)
TILESCOPE_POPOPS_UNARY(tanh, TANH)
TILESCOPE_POPOPS_UNARY(ceil, CEIL)
TILESCOPE_POPOPS_UNARY(cos, COS)
TILESCOPE_POPOPS_UNARY(floor, FLOOR)
TILESCOPE_POPOPS_UNARY(inv, INVERSE)
TILESCOPE_POPOPS_UNARY(logicalNot, LOGICAL_NOT)
TILESCOPE_POPOPS_UNARY(round, ROUND)
TILESCOPE_POPOPS_UNARY(rsqrt, RSQRT)
TILESCOPE_POPOPS_UNARY(signum, SIGNUM)
TILESCOPE_POPOPS_UNARY(sin, SIN)

TILESCOPE_POPOPS_BINARY(add, ADD)
TILESCOPE_POPOPS_BINARY(div, DIVIDE)
TILESCOPE_POPOPS_COMPARISON(eq, EQUAL)
TILESCOPE_POPOPS_COMPARISON(gt, GREATER_THAN)
TILESCOPE_POPOPS_COMPARISON(lt, LESS_THAN)
TILESCOPE_POPOPS_BINARY(max, MAXIMUM)
TILESCOPE_POPOPS_BINARY(min, MINIMUM)
TILESCOPE_POPOPS_BINARY(mul, MULTIPLY)
TILESCOPE_POPOPS_BINARY(pow, POWER)
TILESCOPE_POPOPS_BINARY(sub, SUBTRACT)
TILESCOPE_POPOPS_COMPARISON(gteq, GREATER_THAN_EQUAL)
TILESCOPE_POPOPS_COMPARISON(lteq, LESS_THAN_EQUAL)
TILESCOPE_POPOPS_COMPARISON(neq, NOT_EQUAL)
TILESCOPE_POPOPS_BINARY(logicalAnd, LOGICAL_AND)
TILESCOPE_POPOPS_BINARY(logicalOr, LOGICAL_OR)
TILESCOPE_POPOPS_BINARY(rem, REMAINDER)

namespace detail {
/// A scalar constant of `like`'s element type holding `value`, mapped to tile 0: the operand of
/// the forms below that take a number. As in the SDK, a floating number needs a FLOAT or HALF
/// tensor and an integer one of exactly its own type (`valueType`); otherwise poplar_error.
poplar::Tensor scalarOperand(poplar::Graph& graph, const poplar::Tensor& like, double value,
                             bool floating, const poplar::Type& valueType);
template <typename T>
poplar::Tensor scalarOperandOf(poplar::Graph& graph, const poplar::Tensor& like, T value,
                               std::true_type /*floating*/) {
    return scalarOperand(graph, like, static_cast<double>(value), true, like.elementType());
}
template <typename T>
poplar::Tensor scalarOperandOf(poplar::Graph& graph, const poplar::Tensor& like, T value,
                               std::false_type /*floating*/) {
    return scalarOperand(graph, like, static_cast<double>(value), false,
                         poplar::equivalent_device_type<T>().value);
}
template <typename T>
poplar::Tensor scalarOperand(poplar::Graph& graph, const poplar::Tensor& like, T value) {
    return scalarOperandOf(graph, like, value, std::is_floating_point<T>());
}
} // namespace detail

// The SDK's forms of the binary functions with a number for either operand, e.g.
// popops::mul(graph, t, 2.0f, prog): the number becomes a scalar constant that broadcasts.
#define TILESCOPE_POPOPS_CONSTANT_OPERAND(name, OP)                                                \
    template <typename constType>                                                                  \
    inline typename std::enable_if<std::is_arithmetic<constType>::value, poplar::Tensor>::type     \
    name(poplar::Graph& graph, const poplar::Tensor& a, const constType b,                         \
         poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},           \
         const poplar::OptionFlags& options = {}) {                                                \
        return map(graph, expr::BinaryOpType::OP, a, detail::scalarOperand(graph, a, b), prog,     \
                   debugContext, options);                                                         \
    }                                                                                              \
    template <typename constType>                                                                  \
    inline typename std::enable_if<std::is_arithmetic<constType>::value, poplar::Tensor>::type     \
    name(poplar::Graph& graph, const constType a, const poplar::Tensor& b,                         \
         poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},           \
         const poplar::OptionFlags& options = {}) {                                                \
        return map(graph, expr::BinaryOpType::OP, detail::scalarOperand(graph, b, a), b, prog,     \
                   debugContext, options);                                                         \
    }
#define TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE(name, OP)                                       \
    TILESCOPE_POPOPS_CONSTANT_OPERAND(name, OP)                                                    \
    template <typename constType>                                                                  \
    inline typename std::enable_if<std::is_arithmetic<constType>::value>::type name##InPlace(      \
        poplar::Graph& graph, const poplar::Tensor& a, const constType b,                          \
        poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},            \
        const poplar::OptionFlags& options = {}) {                                                 \
        mapInPlace(graph, expr::BinaryOpType::OP, a, detail::scalarOperand(graph, a, b), prog,     \
                   debugContext, options);                                                         \
    }

TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE(add, ADD)
TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE(div, DIVIDE)
TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE(max, MAXIMUM)
TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE(min, MINIMUM)
TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE(mul, MULTIPLY)
TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE(pow, POWER)
TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE(rem, REMAINDER)
TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE(sub, SUBTRACT)
TILESCOPE_POPOPS_CONSTANT_OPERAND(eq, EQUAL)
TILESCOPE_POPOPS_CONSTANT_OPERAND(neq, NOT_EQUAL)
TILESCOPE_POPOPS_CONSTANT_OPERAND(gt, GREATER_THAN)
TILESCOPE_POPOPS_CONSTANT_OPERAND(gteq, GREATER_THAN_EQUAL)
TILESCOPE_POPOPS_CONSTANT_OPERAND(lt, LESS_THAN)
TILESCOPE_POPOPS_CONSTANT_OPERAND(lteq, LESS_THAN_EQUAL)

#define TILESCOPE_POPOPS_TERNARY(name, OP)                                                         \
    inline poplar::Tensor name(                                                                    \
        poplar::Graph& graph, const poplar::Tensor& a, const poplar::Tensor& b,                    \
        const poplar::Tensor& c, poplar::program::Sequence& prog,                                  \
        const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {}) {  \
        return map(graph, expr::TernaryOpType::OP, a, b, c, prog, debugContext, options);          \
    }                                                                                              \
    inline void name##InPlace(                                                                     \
        poplar::Graph& graph, const poplar::Tensor& a, const poplar::Tensor& b,                    \
        const poplar::Tensor& c, poplar::program::Sequence& prog,                                  \
        const poplar::DebugContext& debugContext = {}, const poplar::OptionFlags& options = {}) {  \
        mapInPlace(graph, expr::TernaryOpType::OP, a, b, c, prog, debugContext, options);          \
    }

TILESCOPE_POPOPS_TERNARY(clamp, CLAMP)
TILESCOPE_POPOPS_TERNARY(select, SELECT)

#undef TILESCOPE_POPOPS_TERNARY
#undef TILESCOPE_POPOPS_UNARY
#undef TILESCOPE_POPOPS_BINARY
#undef TILESCOPE_POPOPS_COMPARISON
#undef TILESCOPE_POPOPS_CONSTANT_OPERAND
#undef TILESCOPE_POPOPS_CONSTANT_OPERAND_IN_PLACE

} // namespace popops
