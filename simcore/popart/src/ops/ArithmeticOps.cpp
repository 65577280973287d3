// Binary and variadic arithmetic (numpy broadcasting): Add Sub Mul Div Pow Min Max Sum Mean,
// and Clip. Gradients of broadcast operands are summed back to their shapes by addInputGrad.
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <cmath>
#include <limits>
#include <popops/ElementWise.hpp>

namespace popart {

namespace {

using poplar::Tensor;
using popops::expr::BinaryOpType;

double hostBinary(BinaryOpType op, double a, double b, bool integral) {
    switch (op) {
    case BinaryOpType::ADD:
        return a + b;
    case BinaryOpType::SUBTRACT:
        return a - b;
    case BinaryOpType::MULTIPLY:
        return a * b;
    case BinaryOpType::DIVIDE:
        return integral ? std::trunc(a / b) : a / b;
    case BinaryOpType::POWER:
        return std::pow(a, b);
    case BinaryOpType::MAXIMUM:
        return std::max(a, b);
    case BinaryOpType::MINIMUM:
        return std::min(a, b);
    default:
        return 0.0;
    }
}

// The inputs of a variadic op, each cast to the output's device type.
// 8- and 16-bit integers have no arithmetic vertices: they are computed as INT.
poplar::Type computeType(const poplar::Type& t) {
    return t == poplar::SIGNED_CHAR || t == poplar::UNSIGNED_CHAR || t == poplar::CHAR ||
                   t == poplar::SHORT || t == poplar::UNSIGNED_SHORT
               ? poplar::INT
               : t;
}

std::vector<Tensor> operands(LoweringContext& c) {
    const poplar::Type type = computeType(c.deviceType(c.outputInfo(0).dataType()));
    std::vector<Tensor> ts;
    for (std::size_t i = 0; i < c.numInputs(); ++i)
        if (c.hasInput(i))
            ts.push_back(castTo(c, c.input(i), type));
    if (ts.empty())
        c.invalid("has no inputs");
    return ts;
}

Tensor fold(LoweringContext& c, BinaryOpType op, const std::vector<Tensor>& ts) {
    Tensor acc = ts[0];
    for (std::size_t i = 1; i < ts.size(); ++i)
        acc = popops::map(c.graph(), op, acc, ts[i], c.prog(), c.di());
    if (ts.size() == 1)
        acc = popops::map(c.graph(), pe::_1, {acc}, c.prog(), c.di());
    return acc;
}

void binary(OpLoweringRegistry& r, const std::string& type, BinaryOpType op, GradFn grad,
            bool variadic = false) {
    OpLowering entry = onnxOp(
        type, [op](LoweringContext& c) { c.setOutput(0, fold(c, op, operands(c))); },
        std::move(grad));
    entry.fold = [op, variadic](ShapeContext& c) {
        const DataType t = c.inputInfo(0).dataType();
        return std::vector<HostTensor>{hostElementWise(c, t, [&](const std::vector<double>& v) {
            double acc = v[0];
            for (std::size_t i = 1; i < v.size(); ++i)
                acc = hostBinary(op, acc, v[i], isIntegral(t));
            return acc;
        })};
    };
    (void)variadic;
    r.add(entry);
}

// Gradient of a min/max: to the inputs equal to the output (each that is).
void selectGrad(GradContext& c) {
    Tensor g = c.outputGrad(0), out = c.output(0);
    for (std::size_t i = 0; i < c.numInputs(); ++i)
        if (c.needsInputGrad(i))
            c.addInputGrad(
                i, mapExpr(c,
                           pe::_1 * (pe::Const(1.0f) - pe::Min(pe::Abs(pe::Signum(pe::_2 - pe::_3)),
                                                               pe::Const(1.0f))),
                           {g, c.input(i), out}, "grad"));
}

} // namespace

void registerArithmeticOps(OpLoweringRegistry& r) {
    binary(r, "Add", BinaryOpType::ADD, [](GradContext& c) {
        c.addInputGrad(0, c.outputGrad(0));
        c.addInputGrad(1, c.outputGrad(0));
    });
    binary(r, "Sub", BinaryOpType::SUBTRACT, [](GradContext& c) {
        c.addInputGrad(0, c.outputGrad(0));
        if (c.needsInputGrad(1))
            c.addInputGrad(1, mapExpr(c, -pe::_1, {c.outputGrad(0)}, "grad"));
    });
    binary(r, "Mul", BinaryOpType::MULTIPLY, [](GradContext& c) {
        if (c.needsInputGrad(0))
            c.addInputGrad(0, mapExpr(c, pe::_1 * pe::_2, {c.outputGrad(0), c.input(1)}, "grad"));
        if (c.needsInputGrad(1))
            c.addInputGrad(1, mapExpr(c, pe::_1 * pe::_2, {c.outputGrad(0), c.input(0)}, "grad"));
    });
    binary(r, "Div", BinaryOpType::DIVIDE, [](GradContext& c) {
        if (c.needsInputGrad(0))
            c.addInputGrad(0, mapExpr(c, pe::_1 / pe::_2, {c.outputGrad(0), c.input(1)}, "grad"));
        if (c.needsInputGrad(1))
            c.addInputGrad(1, mapExpr(c, -(pe::_1 * pe::_2 / (pe::_3 * pe::_3)),
                                      {c.outputGrad(0), c.input(0), c.input(1)}, "grad"));
    });
    // Pow: the exponent may be of another type than the base; the result has the base's type.
    {
        OpLowering pow = onnxOp(
            "Pow",
            [](LoweringContext& c) {
                Tensor a = c.input(0);
                if (a.elementType() != poplar::FLOAT && a.elementType() != poplar::HALF) {
                    // Integer powers: computed in FLOAT, rounded, cast back.
                    Tensor y = mapExpr(
                        c, pe::Round(pe::Pow(pe::_1, pe::_2)),
                        {castTo(c, a, poplar::FLOAT), castTo(c, c.input(1), poplar::FLOAT)}, "");
                    c.setOutput(0, y);
                    return;
                }
                Tensor b = castTo(c, c.input(1), a.elementType());
                c.setOutput(0, popops::map(c.graph(), BinaryOpType::POWER, a, b, c.prog(), c.di()));
            },
            [](GradContext& c) {
                Tensor a = c.input(0), b = castTo(c, c.input(1), c.input(0).elementType());
                if (c.needsInputGrad(0))
                    c.addInputGrad(
                        0, mapExpr(c, pe::_1 * pe::_3 * pe::Pow(pe::_2, pe::_3 - pe::Const(1.0f)),
                                   {c.outputGrad(0), a, b}, "grad"));
                if (c.needsInputGrad(1))
                    c.addInputGrad(1, mapExpr(c, pe::_1 * pe::_2 * pe::Log(pe::_3),
                                              {c.outputGrad(0), c.output(0), a}, "grad"));
            });
        pow.fold = [](ShapeContext& c) {
            return std::vector<HostTensor>{
                hostElementWise(c, c.inputInfo(0).dataType(),
                                [](const std::vector<double>& v) { return std::pow(v[0], v[1]); })};
        };
        r.add(pow);
    }
    binary(r, "Max", BinaryOpType::MAXIMUM, selectGrad, true);
    binary(r, "Min", BinaryOpType::MINIMUM, selectGrad, true);
    binary(
        r, "Sum", BinaryOpType::ADD,
        [](GradContext& c) {
            for (std::size_t i = 0; i < c.numInputs(); ++i)
                c.addInputGrad(i, c.outputGrad(0));
        },
        true);
    {
        OpLowering mean = onnxOp(
            "Mean",
            [](LoweringContext& c) {
                auto ts = operands(c);
                Tensor sum = fold(c, BinaryOpType::ADD, ts);
                c.setOutput(0, mapExpr(c, pe::_1 / pe::Const(float(ts.size())), {sum}, "mean"));
            },
            [](GradContext& c) {
                Tensor g =
                    mapExpr(c, pe::_1 / pe::Const(float(c.numInputs())), {c.outputGrad(0)}, "grad");
                for (std::size_t i = 0; i < c.numInputs(); ++i)
                    c.addInputGrad(i, g);
            });
        r.add(mean);
    }
    // Clip: min/max attributes before opset 11, optional inputs (constants or tensors) after.
    r.add(onnxOp(
        "Clip",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            const bool integral = isIntegral(c.inputInfo(0).dataType());
            const double lowest = integral ? double(std::numeric_limits<int32_t>::min())
                                           : -double(std::numeric_limits<float>::max());
            const double highest = integral ? double(std::numeric_limits<int32_t>::max())
                                            : double(std::numeric_limits<float>::max());
            Tensor lo, hi;
            if (c.opset() < 11) {
                lo = c.scalar(x.elementType(),
                              c.attrs().getFloat("min", -std::numeric_limits<float>::max()));
                hi = c.scalar(x.elementType(),
                              c.attrs().getFloat("max", std::numeric_limits<float>::max()));
            } else {
                lo = c.hasInput(1) ? castTo(c, c.input(1), x.elementType())
                                   : c.scalar(x.elementType(), lowest);
                hi = c.hasInput(2) ? castTo(c, c.input(2), x.elementType())
                                   : c.scalar(x.elementType(), highest);
            }
            c.save("lo", lo);
            c.save("hi", hi);
            c.setOutput(0, popops::map(c.graph(), popops::expr::TernaryOpType::CLAMP, x, lo, hi,
                                       c.prog(), c.di()));
        },
        [](GradContext& c) {
            // Passes where lo <= x <= hi.
            const auto inside =
                (pe::Const(1.0f) - pe::Max(pe::Signum(pe::_3 - pe::_2), pe::Const(0.0f))) *
                (pe::Const(1.0f) - pe::Max(pe::Signum(pe::_2 - pe::_4), pe::Const(0.0f)));
            c.addInputGrad(0, mapExpr(c, pe::_1 * inside,
                                      {c.outputGrad(0), c.input(0), c.saved("lo"), c.saved("hi")},
                                      "grad"));
        }));
}

} // namespace popart
