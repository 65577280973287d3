#pragma once
// The element-wise operation types of popops::map and the named element-wise functions.

namespace popops {
namespace expr {

/// Element-wise functions of one operand.
enum class UnaryOpType {
    ABSOLUTE,
    EXPONENT,
    LOGARITHM,
    NEGATE,
    RELU,
    SIGMOID,
    SQRT,
    SQUARE,
    TANH,
    CEIL,
    COS,
    FLOOR,
    INVERSE,
    LOGICAL_NOT, ///< BOOL operands only
    ROUND,       ///< halves away from zero
    RSQRT,
    SIGNUM,
    SIN,
};

/// Element-wise functions of three operands: CLAMP(a, lo, hi) = min(max(a, lo), hi);
/// SELECT(a, b, c) = c ? a : b with a BOOL `c`.
enum class TernaryOpType {
    CLAMP,
    SELECT,
};

/// Element-wise functions of two operands. Comparisons and logical operations give BOOL results.
enum class BinaryOpType {
    ADD,
    DIVIDE,
    EQUAL,
    GREATER_THAN,
    LESS_THAN,
    MAXIMUM,
    MINIMUM,
    MULTIPLY,
    POWER,
    SUBTRACT,
    GREATER_THAN_EQUAL,
    LESS_THAN_EQUAL,
    LOGICAL_AND, ///< BOOL operands only
    LOGICAL_OR,  ///< BOOL operands only
    NOT_EQUAL,
    REMAINDER, ///< the sign of the dividend, as fmod and C++ integer %
};

} // namespace expr
} // namespace popops
