#pragma once
// popops::expr expressions: element-wise formulas over placeholder tensors (_1, _2, ...) and
// constants, e.g. `_1 + _2 * Const(0.5f)`, evaluated by popops::map in one compute set.

#include <memory>
#include <popops/ExprOp.hpp>
#include <type_traits>

namespace popops {
namespace expr {

/// An expression node. Expressions are values: operators and the named classes below copy their
/// operands, so temporaries can be combined freely.
class Expr {
public:
    virtual ~Expr() = default;
    virtual std::unique_ptr<Expr> clone() const = 0;
};

/// A constant, stored as float and converted to the operands' type when evaluated.
class Const : public Expr {
public:
    template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>
    Const(T value) : value_(static_cast<float>(value)) {}
    float value() const { return value_; }
    std::unique_ptr<Expr> clone() const override { return std::unique_ptr<Expr>(new Const(*this)); }

private:
    float value_;
};

/// The index-th tensor passed to map (1-based, as _1 is the first).
class PlaceHolder : public Expr {
public:
    explicit PlaceHolder(unsigned index) : index_(index) {}
    unsigned index() const { return index_; }
    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new PlaceHolder(*this));
    }

private:
    unsigned index_;
};

class UnaryOp : public Expr {
public:
    UnaryOp(UnaryOpType type, const Expr& a) : type_(type), a_(a.clone()) {}
    UnaryOp(const UnaryOp& o) : type_(o.type_), a_(o.a_->clone()) {}
    UnaryOpType opType() const { return type_; }
    const Expr& operand() const { return *a_; }
    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new UnaryOp(*this));
    }

private:
    UnaryOpType type_;
    std::unique_ptr<Expr> a_;
};

class BinaryOp : public Expr {
public:
    BinaryOp(BinaryOpType type, const Expr& a, const Expr& b)
        : type_(type), a_(a.clone()), b_(b.clone()) {}
    BinaryOp(const BinaryOp& o) : type_(o.type_), a_(o.a_->clone()), b_(o.b_->clone()) {}
    BinaryOpType opType() const { return type_; }
    const Expr& lhs() const { return *a_; }
    const Expr& rhs() const { return *b_; }
    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new BinaryOp(*this));
    }

private:
    BinaryOpType type_;
    std::unique_ptr<Expr> a_, b_;
};

const PlaceHolder _1(1), _2(2), _3(3), _4(4), _5(5), _6(6), _7(7), _8(8);

#define TILESCOPE_EXPR_UNARY(Name, OP)                                                             \
    class Name : public UnaryOp {                                                                  \
    public:                                                                                        \
        explicit Name(const Expr& a) : UnaryOp(UnaryOpType::OP, a) {}                              \
    };
#define TILESCOPE_EXPR_BINARY(Name, OP)                                                            \
    class Name : public BinaryOp {                                                                 \
    public:                                                                                        \
        Name(const Expr& a, const Expr& b) : BinaryOp(BinaryOpType::OP, a, b) {}                   \
    };

TILESCOPE_EXPR_UNARY(Abs, ABSOLUTE)
TILESCOPE_EXPR_UNARY(Exp, EXPONENT)
TILESCOPE_EXPR_UNARY(Log, LOGARITHM)
TILESCOPE_EXPR_UNARY(Neg, NEGATE)
TILESCOPE_EXPR_UNARY(Relu, RELU)
TILESCOPE_EXPR_UNARY(Sigmoid, SIGMOID)
TILESCOPE_EXPR_UNARY(Sqrt, SQRT)
TILESCOPE_EXPR_UNARY(Square, SQUARE)
TILESCOPE_EXPR_UNARY(Tanh, TANH)
TILESCOPE_EXPR_UNARY(Ceil, CEIL)
TILESCOPE_EXPR_UNARY(Cos, COS)
TILESCOPE_EXPR_UNARY(Floor, FLOOR)
TILESCOPE_EXPR_UNARY(Inv, INVERSE)
TILESCOPE_EXPR_UNARY(Not, LOGICAL_NOT)
TILESCOPE_EXPR_UNARY(Round, ROUND)
TILESCOPE_EXPR_UNARY(Rsqrt, RSQRT)
TILESCOPE_EXPR_UNARY(Signum, SIGNUM)
TILESCOPE_EXPR_UNARY(Sin, SIN)
TILESCOPE_EXPR_BINARY(Add, ADD)
TILESCOPE_EXPR_BINARY(Divide, DIVIDE)
TILESCOPE_EXPR_BINARY(Equal, EQUAL)
TILESCOPE_EXPR_BINARY(Gt, GREATER_THAN)
TILESCOPE_EXPR_BINARY(Lt, LESS_THAN)
TILESCOPE_EXPR_BINARY(Max, MAXIMUM)
TILESCOPE_EXPR_BINARY(Min, MINIMUM)
TILESCOPE_EXPR_BINARY(Mul, MULTIPLY)
TILESCOPE_EXPR_BINARY(Pow, POWER)
TILESCOPE_EXPR_BINARY(Sub, SUBTRACT)
TILESCOPE_EXPR_BINARY(Gte, GREATER_THAN_EQUAL)
TILESCOPE_EXPR_BINARY(Lte, LESS_THAN_EQUAL)
TILESCOPE_EXPR_BINARY(And, LOGICAL_AND)
TILESCOPE_EXPR_BINARY(Or, LOGICAL_OR)
TILESCOPE_EXPR_BINARY(NotEqual, NOT_EQUAL)
TILESCOPE_EXPR_BINARY(Rem, REMAINDER)

/// A function of three operands (popops::expr::Select, Clamp).
class TernaryOp : public Expr {
public:
    TernaryOp(TernaryOpType type, const Expr& a, const Expr& b, const Expr& c)
        : type_(type), a_(a.clone()), b_(b.clone()), c_(c.clone()) {}
    TernaryOp(const TernaryOp& o)
        : Expr(), type_(o.type_), a_(o.a_->clone()), b_(o.b_->clone()), c_(o.c_->clone()) {}
    TernaryOpType opType() const { return type_; }
    const Expr& arg0() const { return *a_; }
    const Expr& arg1() const { return *b_; }
    const Expr& arg2() const { return *c_; }
    std::unique_ptr<Expr> clone() const override {
        return std::unique_ptr<Expr>(new TernaryOp(*this));
    }

private:
    TernaryOpType type_;
    std::unique_ptr<Expr> a_, b_, c_;
};

/// Select(a, b, c): c ? a : b.
class Select : public TernaryOp {
public:
    Select(const Expr& a, const Expr& b, const Expr& c)
        : TernaryOp(TernaryOpType::SELECT, a, b, c) {}
};
/// Clamp(a, lo, hi): min(max(a, lo), hi).
class Clamp : public TernaryOp {
public:
    Clamp(const Expr& a, const Expr& b, const Expr& c) : TernaryOp(TernaryOpType::CLAMP, a, b, c) {}
};

#undef TILESCOPE_EXPR_UNARY
#undef TILESCOPE_EXPR_BINARY

inline BinaryOp operator+(const Expr& a, const Expr& b) {
    return Add(a, b);
}
inline BinaryOp operator-(const Expr& a, const Expr& b) {
    return Sub(a, b);
}
inline BinaryOp operator*(const Expr& a, const Expr& b) {
    return Mul(a, b);
}
inline BinaryOp operator/(const Expr& a, const Expr& b) {
    return Divide(a, b);
}
inline UnaryOp operator-(const Expr& a) {
    return Neg(a);
}

// Numbers mix with expressions as constants: `_1 * 2.0f + 1`.
#define TILESCOPE_EXPR_SCALAR_OPERATOR(op)                                                         \
    template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>  \
    BinaryOp operator op(const Expr& a, T b) {                                                     \
        return a op Const(b);                                                                      \
    }                                                                                              \
    template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>  \
    BinaryOp operator op(T a, const Expr& b) {                                                     \
        return Const(a) op b;                                                                      \
    }
TILESCOPE_EXPR_SCALAR_OPERATOR(+)
TILESCOPE_EXPR_SCALAR_OPERATOR(-)
TILESCOPE_EXPR_SCALAR_OPERATOR(*)
TILESCOPE_EXPR_SCALAR_OPERATOR(/)

// Remainder, comparison and logical operators, as in the SDK: `_1 % 3`, `_1 >= _2`,
// `(_1 > 0) && (_2 < 1)`, `!(_1 == _2)`. Comparisons give BOOL; logical operators take them.
inline BinaryOp operator%(const Expr& a, const Expr& b) {
    return Rem(a, b);
}
inline BinaryOp operator==(const Expr& a, const Expr& b) {
    return Equal(a, b);
}
inline BinaryOp operator!=(const Expr& a, const Expr& b) {
    return NotEqual(a, b);
}
inline BinaryOp operator<(const Expr& a, const Expr& b) {
    return Lt(a, b);
}
inline BinaryOp operator>(const Expr& a, const Expr& b) {
    return Gt(a, b);
}
inline BinaryOp operator<=(const Expr& a, const Expr& b) {
    return Lte(a, b);
}
inline BinaryOp operator>=(const Expr& a, const Expr& b) {
    return Gte(a, b);
}
inline BinaryOp operator&&(const Expr& a, const Expr& b) {
    return And(a, b);
}
inline BinaryOp operator||(const Expr& a, const Expr& b) {
    return Or(a, b);
}
inline UnaryOp operator!(const Expr& a) {
    return Not(a);
}

#define TILESCOPE_EXPR_SCALAR_COMPARISON(op)                                                       \
    template <typename T>                                                                          \
    inline typename std::enable_if<std::is_arithmetic<T>::value, BinaryOp>::type operator op(      \
        const Expr& a, T b) {                                                                      \
        return a op Const(b);                                                                      \
    }                                                                                              \
    template <typename T>                                                                          \
    inline typename std::enable_if<std::is_arithmetic<T>::value, BinaryOp>::type operator op(      \
        T a, const Expr& b) {                                                                      \
        return Const(a) op b;                                                                      \
    }
TILESCOPE_EXPR_SCALAR_COMPARISON(%)
TILESCOPE_EXPR_SCALAR_COMPARISON(==)
TILESCOPE_EXPR_SCALAR_COMPARISON(!=)
TILESCOPE_EXPR_SCALAR_COMPARISON(<)
TILESCOPE_EXPR_SCALAR_COMPARISON(>)
TILESCOPE_EXPR_SCALAR_COMPARISON(<=)
TILESCOPE_EXPR_SCALAR_COMPARISON(>=)
#undef TILESCOPE_EXPR_SCALAR_COMPARISON

#undef TILESCOPE_EXPR_SCALAR_OPERATOR

} // namespace expr
} // namespace popops
