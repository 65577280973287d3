#pragma once
// The element-wise vertex classes of popops, one class template instance per operation and
// element type, registered by popops::addCodelets under Poplar-style names such as
// "popops::BinaryOp1D<popops::expr::BinaryOpType::ADD,float>".

#include <algorithm>
#include <cmath>
#include <poplar/Vertex.hpp>
#include <popops/ExprOp.hpp>
#include <tilescope/sim/CodeletRegistration.hpp>
#include <type_traits>

namespace tilescope::poplibs::popops_vertices {

using popops::expr::BinaryOpType;
using popops::expr::UnaryOpType;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

/// HALF is computed in float and rounded once on store, as the device's mixed-precision units do.
template <typename T>
using ComputeType = std::conditional_t<std::is_same_v<T, poplar::half>, float, T>;

/// Comparisons: any element type in, BOOL out.
constexpr bool isComparison(BinaryOpType op) {
    return op == BinaryOpType::EQUAL || op == BinaryOpType::NOT_EQUAL ||
           op == BinaryOpType::GREATER_THAN || op == BinaryOpType::GREATER_THAN_EQUAL ||
           op == BinaryOpType::LESS_THAN || op == BinaryOpType::LESS_THAN_EQUAL;
}
/// Logical operations: BOOL in, BOOL out (as PopLibs, they accept no other type).
constexpr bool isLogical(UnaryOpType op) {
    return op == UnaryOpType::LOGICAL_NOT;
}
constexpr bool isLogical(BinaryOpType op) {
    return op == BinaryOpType::LOGICAL_AND || op == BinaryOpType::LOGICAL_OR;
}
/// Operations whose result is BOOL whatever the operands' type.
constexpr bool givesBool(BinaryOpType op) {
    return isComparison(op) || isLogical(op);
}
constexpr bool isTranscendental(UnaryOpType op) {
    return op == UnaryOpType::EXPONENT || op == UnaryOpType::LOGARITHM ||
           op == UnaryOpType::SIGMOID || op == UnaryOpType::SQRT || op == UnaryOpType::TANH ||
           op == UnaryOpType::COS || op == UnaryOpType::SIN || op == UnaryOpType::RSQRT ||
           op == UnaryOpType::INVERSE;
}
constexpr bool isTranscendental(BinaryOpType op) {
    return op == BinaryOpType::DIVIDE || op == BinaryOpType::POWER || op == BinaryOpType::REMAINDER;
}
/// Unary operations defined on floating-point values only.
constexpr bool isFloatOnly(UnaryOpType op) {
    return isTranscendental(op) || op == UnaryOpType::CEIL || op == UnaryOpType::FLOOR ||
           op == UnaryOpType::ROUND;
}
/// Which operations each element type supports: BOOL the logical ones (and equality), integers
/// those that stay in the integers, floating types all but the logical ones.
template <typename T> constexpr bool supports(UnaryOpType op) {
    if (std::is_same_v<T, bool>)
        return isLogical(op);
    return !isLogical(op) && (!std::is_integral_v<T> || !isFloatOnly(op));
}
template <typename T> constexpr bool supports(BinaryOpType op) {
    if (std::is_same_v<T, bool>)
        return isLogical(op) || op == BinaryOpType::EQUAL || op == BinaryOpType::NOT_EQUAL;
    return !isLogical(op) && (!std::is_integral_v<T> || op != BinaryOpType::POWER);
}

template <UnaryOpType Op, typename T> T applyUnary(T value) {
    using C = ComputeType<T>;
    const C x = static_cast<C>(value);
    if constexpr (Op == UnaryOpType::ABSOLUTE)
        return static_cast<T>(x < C(0) ? -x : x);
    else if constexpr (Op == UnaryOpType::EXPONENT)
        return static_cast<T>(std::exp(x));
    else if constexpr (Op == UnaryOpType::LOGARITHM)
        return static_cast<T>(std::log(x));
    else if constexpr (Op == UnaryOpType::NEGATE)
        return static_cast<T>(-x);
    else if constexpr (Op == UnaryOpType::RELU)
        return static_cast<T>(x > C(0) ? x : C(0));
    else if constexpr (Op == UnaryOpType::SIGMOID)
        return static_cast<T>(C(1) / (C(1) + std::exp(-x)));
    else if constexpr (Op == UnaryOpType::SQRT)
        return static_cast<T>(std::sqrt(x));
    else if constexpr (Op == UnaryOpType::SQUARE)
        return static_cast<T>(x * x);
    else if constexpr (Op == UnaryOpType::TANH)
        return static_cast<T>(std::tanh(x));
    else if constexpr (Op == UnaryOpType::CEIL)
        return static_cast<T>(std::ceil(x));
    else if constexpr (Op == UnaryOpType::COS)
        return static_cast<T>(std::cos(x));
    else if constexpr (Op == UnaryOpType::FLOOR)
        return static_cast<T>(std::floor(x));
    else if constexpr (Op == UnaryOpType::INVERSE) {
        if constexpr (std::is_integral_v<C>)
            return static_cast<T>(x == 0 ? 0 : C(1) / x); // never registered for integers
        else
            return static_cast<T>(C(1) / x);
    } else if constexpr (Op == UnaryOpType::LOGICAL_NOT)
        return static_cast<T>(!x);
    else if constexpr (Op == UnaryOpType::ROUND)
        return static_cast<T>(std::round(x));
    else if constexpr (Op == UnaryOpType::RSQRT)
        return static_cast<T>(C(1) / std::sqrt(x));
    else if constexpr (Op == UnaryOpType::SIGNUM)
        return static_cast<T>((C(0) < x) - (x < C(0)));
    else
        return static_cast<T>(std::sin(x));
}

template <BinaryOpType Op, typename T> auto applyBinary(T a, T b) {
    using C = ComputeType<T>;
    const C x = static_cast<C>(a), y = static_cast<C>(b);
    if constexpr (Op == BinaryOpType::EQUAL)
        return x == y;
    else if constexpr (Op == BinaryOpType::NOT_EQUAL)
        return x != y;
    else if constexpr (Op == BinaryOpType::GREATER_THAN)
        return x > y;
    else if constexpr (Op == BinaryOpType::GREATER_THAN_EQUAL)
        return x >= y;
    else if constexpr (Op == BinaryOpType::LESS_THAN)
        return x < y;
    else if constexpr (Op == BinaryOpType::LESS_THAN_EQUAL)
        return x <= y;
    else if constexpr (Op == BinaryOpType::LOGICAL_AND)
        return x != C(0) && y != C(0);
    else if constexpr (Op == BinaryOpType::LOGICAL_OR)
        return x != C(0) || y != C(0);
    else if constexpr (Op == BinaryOpType::ADD)
        return static_cast<T>(x + y);
    else if constexpr (Op == BinaryOpType::SUBTRACT)
        return static_cast<T>(x - y);
    else if constexpr (Op == BinaryOpType::MULTIPLY)
        return static_cast<T>(x * y);
    else if constexpr (Op == BinaryOpType::DIVIDE) {
        if constexpr (std::is_integral_v<T>)
            return static_cast<T>(y == 0 ? 0 : x / y); // the device defines no trap; 0 is stable
        else
            return static_cast<T>(x / y);
    } else if constexpr (Op == BinaryOpType::REMAINDER) {
        if constexpr (std::is_integral_v<T>)
            return static_cast<T>(y == 0 ? 0 : x % y); // as DIVIDE: 0 rather than a trap
        else
            return static_cast<T>(std::fmod(x, y));
    } else if constexpr (Op == BinaryOpType::MAXIMUM)
        return static_cast<T>(std::max(x, y));
    else if constexpr (Op == BinaryOpType::MINIMUM)
        return static_cast<T>(std::min(x, y));
    else
        return static_cast<T>(std::pow(x, y));
}

template <UnaryOpType Op, typename T> class UnaryOp1D : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> in;
    poplar::Output<poplar::Vector<T>> out;
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = applyUnary<Op>(in[i]);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<UnaryOp1D*>(o);
        describeField(f, "in", v.in);
        describeField(f, "out", v.out);
    }
};

template <UnaryOpType Op, typename T> class UnaryOp1DInPlace : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<T>> inOut;
    bool compute() {
        for (std::size_t i = 0; i < inOut.size(); ++i)
            inOut[i] = applyUnary<Op>(T(inOut[i]));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        describeField(f, "inOut", static_cast<UnaryOp1DInPlace*>(o)->inOut);
    }
};

template <BinaryOpType Op, typename T> class BinaryOp1D : public poplar::Vertex {
public:
    using OutT = std::conditional_t<givesBool(Op), bool, T>;
    poplar::Input<poplar::Vector<T>> in1;
    poplar::Input<poplar::Vector<T>> in2;
    poplar::Output<poplar::Vector<OutT>> out;
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = applyBinary<Op>(in1[i], in2[i]);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<BinaryOp1D*>(o);
        describeField(f, "in1", v.in1);
        describeField(f, "in2", v.in2);
        describeField(f, "out", v.out);
    }
};

template <BinaryOpType Op, typename T> class BinaryOp1DInPlace : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<T>> in1Out;
    poplar::Input<poplar::Vector<T>> in2;
    bool compute() {
        for (std::size_t i = 0; i < in1Out.size(); ++i)
            in1Out[i] = applyBinary<Op>(T(in1Out[i]), in2[i]);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<BinaryOp1DInPlace*>(o);
        describeField(f, "in1Out", v.in1Out);
        describeField(f, "in2", v.in2);
    }
};

/// Whether PopLibs has a BroadcastScalar1D vertex for `Op` on T: its
/// haveScalarBroadcastVertexForOp (lib/popops/ElementWise.cpp, SDK 2.x) lists every operation of
/// this subset for FLOAT, HALF, INT and BOOL (the logical ones BOOL only, POWER FLOAT and HALF
/// only), which is exactly what `supports` allows here.
template <typename T> constexpr bool hasBroadcastScalar(BinaryOpType op) {
    return supports<T>(op);
}

/// PopLibs' BroadcastScalar1D: `out` = `data` (op) the one element `B`, for a binary operation
/// whose second operand (or, for a commutative one, first) holds one element.
template <BinaryOpType Op, typename T> class BroadcastScalar1D : public poplar::Vertex {
public:
    using OutT = std::conditional_t<givesBool(Op), bool, T>;
    poplar::Input<poplar::Vector<T>> data;
    poplar::Input<T> B;
    poplar::Output<poplar::Vector<OutT>> out;
    bool compute() {
        const T b = B;
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = applyBinary<Op>(T(data[i]), b);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<BroadcastScalar1D*>(o);
        describeField(f, "data", v.data);
        describeField(f, "B", v.B);
        describeField(f, "out", v.out);
    }
};

/// BroadcastScalar1D writing its result over `data`.
template <BinaryOpType Op, typename T> class BroadcastScalar1DInPlace : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<T>> data;
    poplar::Input<T> B;
    bool compute() {
        const T b = B;
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = applyBinary<Op>(T(data[i]), b);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<BroadcastScalar1DInPlace*>(o);
        describeField(f, "data", v.data);
        describeField(f, "B", v.B);
    }
};

/// PopLibs' BroadcastScalar2DData: BroadcastScalar1D over a list of regions, one worker's share
/// of a tile whose data lies in several contiguous regions.
template <BinaryOpType Op, typename T> class BroadcastScalar2DData : public poplar::Vertex {
public:
    using OutT = std::conditional_t<givesBool(Op), bool, T>;
    poplar::Vector<poplar::Input<poplar::Vector<T>>> data;
    poplar::Input<T> B;
    poplar::Vector<poplar::Output<poplar::Vector<OutT>>> out;
    bool compute() {
        const T b = B;
        for (std::size_t r = 0; r < out.size(); ++r)
            for (std::size_t i = 0; i < out[r].size(); ++i)
                out[r][i] = applyBinary<Op>(T(data[r][i]), b);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<BroadcastScalar2DData*>(o);
        describeField(f, "data", v.data);
        describeField(f, "B", v.B);
        describeField(f, "out", v.out);
    }
};

/// BroadcastScalar2DData writing its result over `data`.
template <BinaryOpType Op, typename T> class BroadcastScalar2DDataInPlace : public poplar::Vertex {
public:
    poplar::Vector<poplar::InOut<poplar::Vector<T>>> data;
    poplar::Input<T> B;
    bool compute() {
        const T b = B;
        for (std::size_t r = 0; r < data.size(); ++r)
            for (std::size_t i = 0; i < data[r].size(); ++i)
                data[r][i] = applyBinary<Op>(T(data[r][i]), b);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<BroadcastScalar2DDataInPlace*>(o);
        describeField(f, "data", v.data);
        describeField(f, "B", v.B);
    }
};

} // namespace tilescope::poplibs::popops_vertices
