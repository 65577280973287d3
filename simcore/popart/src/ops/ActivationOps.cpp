// Activations torch exports or the ONNX tests use beyond the element-wise group: PRelu (a
// broadcast slope, with its gradient), Celu, ThresholdedRelu, HardSwish; the numeric tests IsNaN
// and IsInf; Mod (fmod, and the sign of the divisor for integers).
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <cmath>
#include <limits>

namespace popart {

namespace {

using poplar::Tensor;

// x > 0 as 1/0 in x's type.
pe::BinaryOp positive(const pe::Expr& x) {
    return pe::Max(pe::Signum(x), pe::Const(0.0f));
}

// A unary op whose forward and gradient are expressions of the input (_1) and, for the
// gradient, of the output gradient (_1) and the input (_2).
using ExprOfNode = std::function<std::unique_ptr<pe::Expr>(const NodeView&)>;

void unaryExpr(OpLoweringRegistry& r, const std::string& type, ExprOfNode forward, ExprOfNode grad,
               int minOpset = 1) {
    r.add(onnxOp(
        type,
        [forward](LoweringContext& c) {
            c.setOutput(0, mapExpr(c, *forward(c), {c.input(0)}, ""));
        },
        [grad](GradContext& c) {
            c.addInputGrad(0, mapExpr(c, *grad(c), {c.outputGrad(0), c.input(0)}, "grad"));
        },
        minOpset));
}

void registerActivations(OpLoweringRegistry& r) {
    // Celu(x) = max(0, x) + min(0, alpha (exp(x / alpha) - 1)).
    unaryExpr(
        r, "Celu",
        [](const NodeView& v) -> std::unique_ptr<pe::Expr> {
            const float a = v.attrs().getFloat("alpha", 1.0f);
            return (pe::Max(pe::_1, pe::Const(0.0f)) +
                    pe::Min(pe::Const(0.0f),
                            pe::Const(a) * (pe::Exp(pe::_1 / pe::Const(a)) - pe::Const(1.0f))))
                .clone();
        },
        [](const NodeView& v) -> std::unique_ptr<pe::Expr> {
            const float a = v.attrs().getFloat("alpha", 1.0f);
            const auto m = positive(pe::_2);
            return (pe::_1 * (m + (pe::Const(1.0f) - m) *
                                      pe::Exp(pe::Min(pe::_2, pe::Const(0.0f)) / pe::Const(a))))
                .clone();
        },
        12);
    // ThresholdedRelu(x) = x where x > alpha, else 0.
    unaryExpr(
        r, "ThresholdedRelu",
        [](const NodeView& v) -> std::unique_ptr<pe::Expr> {
            return (pe::_1 * positive(pe::_1 - pe::Const(v.attrs().getFloat("alpha", 1.0f))))
                .clone();
        },
        [](const NodeView& v) -> std::unique_ptr<pe::Expr> {
            return (pe::_1 * positive(pe::_2 - pe::Const(v.attrs().getFloat("alpha", 1.0f))))
                .clone();
        },
        10);
    // HardSwish(x) = x * max(0, min(1, x / 6 + 1 / 2)); its derivative is 0 below -3, 1 above 3
    // and (2x + 3) / 6 between.
    unaryExpr(
        r, "HardSwish",
        [](const NodeView&) -> std::unique_ptr<pe::Expr> {
            return (pe::_1 *
                    pe::Max(pe::Const(0.0f),
                            pe::Min(pe::Const(1.0f), pe::_1 / pe::Const(6.0f) + pe::Const(0.5f))))
                .clone();
        },
        [](const NodeView&) -> std::unique_ptr<pe::Expr> {
            const auto above = positive(pe::_2 - pe::Const(3.0f));
            const auto inside = positive(pe::_2 + pe::Const(3.0f)) * (pe::Const(1.0f) - above);
            return (pe::_1 * (above + inside * (pe::Const(2.0f) * pe::_2 + pe::Const(3.0f)) /
                                          pe::Const(6.0f)))
                .clone();
        },
        14);

    // PRelu(x, slope) = x where x > 0, else slope * x; the slope broadcasts to x.
    r.add(onnxOp(
        "PRelu",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            Tensor slope = castTo(c, c.input(1), x.elementType());
            c.setOutput(0, mapExpr(c,
                                   pe::_1 * (positive(pe::_1) +
                                             pe::_2 * (pe::Const(1.0f) - positive(pe::_1))),
                                   {x, slope}, ""));
        },
        [](GradContext& c) {
            Tensor g = c.outputGrad(0), x = c.input(0), slope = c.input(1);
            if (c.needsInputGrad(0))
                c.addInputGrad(0, mapExpr(c,
                                          pe::_1 * (positive(pe::_2) +
                                                    pe::_3 * (pe::Const(1.0f) - positive(pe::_2))),
                                          {g, x, slope}, "grad"));
            if (c.needsInputGrad(1)) // summed over the broadcast dimensions by addInputGrad
                c.addInputGrad(1, mapExpr(c, pe::_1 * pe::_2 * (pe::Const(1.0f) - positive(pe::_2)),
                                          {g, x}, "gradSlope"));
        }));
}

void registerNumericOps(OpLoweringRegistry& r) {
    // IsNaN: NaN is the one value unequal to itself.
    OpLowering isNaN = onnxOp(
        "IsNaN",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            c.setOutput(0, popops::map(c.graph(), popops::expr::BinaryOpType::NOT_EQUAL, x, x,
                                       c.prog(), c.di()));
        },
        GradFn(), 9);
    isNaN.fold = [](ShapeContext& c) {
        return std::vector<HostTensor>{
            hostElementWise(c, DataType::BOOL,
                            [](const std::vector<double>& v) { return double(std::isnan(v[0])); })};
    };
    r.add(isNaN);
    // IsInf with detect_positive / detect_negative (both 1 by default).
    OpLowering isInf = onnxOp(
        "IsInf",
        [](LoweringContext& c) {
            const bool pos = c.attrs().getInt("detect_positive", 1) != 0;
            const bool neg = c.attrs().getInt("detect_negative", 1) != 0;
            const float inf = std::numeric_limits<float>::infinity();
            Tensor x = c.input(0);
            if (pos && neg)
                c.setOutput(0, mapExpr(c, pe::Abs(pe::_1) == pe::Const(inf), {x}, ""));
            else if (pos)
                c.setOutput(0, mapExpr(c, pe::_1 == pe::Const(inf), {x}, ""));
            else if (neg)
                c.setOutput(0, mapExpr(c, pe::_1 == pe::Const(-inf), {x}, ""));
            else // neither: all false
                c.setOutput(0, mapExpr(c, pe::_1 != pe::_1 && pe::_1 == pe::_1, {x}, ""));
        },
        GradFn(), 10);
    r.add(isInf);
    // Mod: fmod = 1 takes the sign of the dividend (C's fmod); fmod = 0, for integers only, the
    // sign of the divisor (Python's %): ((a % b) + b) % b.
    r.add(onnxOp(
        "Mod",
        [](LoweringContext& c) {
            const bool fmod = c.attrs().getInt("fmod", 0) != 0;
            const bool integral = isIntegral(c.outputInfo(0).dataType());
            if (!fmod && !integral)
                c.invalid("fmod must be 1 for floating-point inputs");
            Tensor a = c.input(0);
            Tensor b = castTo(c, c.input(1), a.elementType());
            if (fmod)
                c.setOutput(0, mapExpr(c, pe::Rem(pe::_1, pe::_2), {a, b}, ""));
            else
                c.setOutput(
                    0, mapExpr(c, pe::Rem(pe::Rem(pe::_1, pe::_2) + pe::_2, pe::_2), {a, b}, ""));
        },
        [](GradContext& c) {
            // d/da = 1; d/db = -trunc(a / b) (fmod).
            if (c.needsInputGrad(0))
                c.addInputGrad(0, c.outputGrad(0));
            if (c.needsInputGrad(1)) {
                Tensor b = castTo(c, c.input(1), c.input(0).elementType());
                c.addInputGrad(1,
                               mapExpr(c, -(pe::_1 * (pe::_2 - pe::Rem(pe::_2, pe::_3)) / pe::_3),
                                       {c.outputGrad(0), c.input(0), b}, "grad"));
            }
        },
        10));
}

} // namespace

void registerActivationOps(OpLoweringRegistry& r) {
    registerActivations(r);
    registerNumericOps(r);
}

} // namespace popart
