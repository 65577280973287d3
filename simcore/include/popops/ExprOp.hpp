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
};

/// Element-wise functions of two operands. Comparisons give BOOL results.
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
};

} // namespace expr
} // namespace popops
