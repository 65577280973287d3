// Unary element-wise ops and activations: forward as popops maps, gradients as maps of the
// forward input/output and the output gradient.
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <cmath>
#include <popnn/NonLinearity.hpp>

namespace popart {

namespace {

using poplar::Tensor;
using UnaryFn = std::function<Tensor(LoweringContext&, const Tensor&)>;
using UnaryGradFn = std::function<Tensor(GradContext&, const Tensor& g)>;

// x > 0 as 1/0 in x's type.
pe::BinaryOp positive(const pe::Expr& x) {
    return pe::Max(pe::Signum(x), pe::Const(0.0f));
}

// erf(x) by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7):
// erf(x) = sign(x) (1 - (a1 t + a2 t^2 + a3 t^3 + a4 t^4 + a5 t^5) exp(-x^2)), t = 1 / (1 + p |x|).
pe::BinaryOp erfExpr(const pe::Expr& x) {
    const float p = 0.3275911f, a1 = 0.254829592f, a2 = -0.284496736f, a3 = 1.421413741f,
                a4 = -1.453152027f, a5 = 1.061405429f;
    const auto t = pe::Inv(pe::Const(1.0f) + pe::Const(p) * pe::Abs(x));
    const auto poly =
        t * (pe::Const(a1) +
             t * (pe::Const(a2) + t * (pe::Const(a3) + t * (pe::Const(a4) + t * pe::Const(a5)))));
    return pe::Signum(x) * (pe::Const(1.0f) - poly * pe::Exp(-(x * x)));
}

// Host forms of the ops shape subgraphs use (Neg of an axis, Abs, ...), for constant folding.
double hostUnary(const std::string& type, double x) {
    if (type == "Neg")
        return -x;
    if (type == "Abs")
        return std::fabs(x);
    if (type == "Floor")
        return std::floor(x);
    if (type == "Ceil")
        return std::ceil(x);
    if (type == "Sign")
        return double((x > 0) - (x < 0));
    if (type == "Sqrt")
        return std::sqrt(x);
    if (type == "Exp")
        return std::exp(x);
    if (type == "Log")
        return std::log(x);
    return 1.0 / x; // Reciprocal
}

void unary(OpLoweringRegistry& r, const std::string& type, UnaryFn f, UnaryGradFn g,
           const std::string& domain = "") {
    OpLowering op = onnxOp(type, [f](LoweringContext& c) { c.setOutput(0, f(c, c.input(0))); });
    op.domain = domain;
    for (const char* folded :
         {"Neg", "Abs", "Floor", "Ceil", "Sign", "Sqrt", "Exp", "Log", "Reciprocal"})
        if (type == folded)
            op.fold = [type](ShapeContext& c) {
                const DataType t = c.inputInfo(0).dataType();
                return std::vector<HostTensor>{
                    hostElementWise(c, t, [type, t](const std::vector<double>& v) {
                        const double y = hostUnary(type, v[0]);
                        return isIntegral(t) ? std::trunc(y) : y;
                    })};
            };
    if (!domain.empty()) // ONNX's shape inference does not know Graphcore's ops
        op.inferShape = [](ShapeContext& c) { c.setOutputInfo(0, c.inputInfo(0)); };
    if (g)
        op.grad = [g](GradContext& c) { c.addInputGrad(0, g(c, c.outputGrad(0))); };
    r.add(op);
}

UnaryFn mapOp(popops::expr::UnaryOpType op) {
    return [op](LoweringContext& c, const Tensor& x) {
        return popops::map(c.graph(), op, x, c.prog(), c.di());
    };
}

} // namespace

void registerElementWiseOps(OpLoweringRegistry& r) {
    using U = popops::expr::UnaryOpType;
    unary(r, "Abs", mapOp(U::ABSOLUTE), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, pe::_1 * pe::Signum(pe::_2), {g, c.input(0)}, "grad");
    });
    unary(r, "Neg", mapOp(U::NEGATE),
          [](GradContext& c, const Tensor& g) { return mapExpr(c, -pe::_1, {g}, "grad"); });
    unary(r, "Exp", mapOp(U::EXPONENT), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, pe::_1 * pe::_2, {g, c.output(0)}, "grad");
    });
    unary(r, "Log", mapOp(U::LOGARITHM), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, pe::_1 / pe::_2, {g, c.input(0)}, "grad");
    });
    unary(r, "Sqrt", mapOp(U::SQRT), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, pe::_1 / (pe::Const(2.0f) * pe::_2), {g, c.output(0)}, "grad");
    });
    unary(r, "Reciprocal", mapOp(U::INVERSE), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, -(pe::_1 * pe::_2 * pe::_2), {g, c.output(0)}, "grad");
    });
    unary(r, "Sin", mapOp(U::SIN), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, pe::_1 * pe::Cos(pe::_2), {g, c.input(0)}, "grad");
    });
    unary(r, "Cos", mapOp(U::COS), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, -(pe::_1 * pe::Sin(pe::_2)), {g, c.input(0)}, "grad");
    });
    unary(r, "Tanh", mapOp(U::TANH), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, pe::_1 * (pe::Const(1.0f) - pe::_2 * pe::_2), {g, c.output(0)}, "grad");
    });
    unary(r, "Sigmoid", mapOp(U::SIGMOID), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, pe::_1 * pe::_2 * (pe::Const(1.0f) - pe::_2), {g, c.output(0)}, "grad");
    });
    unary(r, "Relu", mapOp(U::RELU), [](GradContext& c, const Tensor& g) {
        return mapExpr(c, pe::_1 * positive(pe::_2), {g, c.input(0)}, "grad");
    });
    unary(r, "Floor", mapOp(U::FLOOR), nullptr);
    unary(r, "Ceil", mapOp(U::CEIL), nullptr);
    unary(r, "Sign", mapOp(U::SIGNUM), nullptr);
    // ONNX rounds halves to even; popops' ROUND rounds them away from zero, so exact halves
    // take 2 * round(x / 2) instead.
    unary(
        r, "Round",
        [](LoweringContext& c, const Tensor& x) {
            const auto half =
                pe::Const(1.0f) -
                pe::Min(pe::Abs(pe::Signum(pe::Abs(pe::_1 - pe::Floor(pe::_1)) - pe::Const(0.5f))),
                        pe::Const(1.0f));
            const auto even = pe::Const(2.0f) * pe::Round(pe::_1 * pe::Const(0.5f));
            return mapExpr(c, pe::Round(pe::_1) - half * (pe::Round(pe::_1) - even), {x}, "");
        },
        nullptr);
    unary(
        r, "Erf",
        [](LoweringContext& c, const Tensor& x) { return mapExpr(c, erfExpr(pe::_1), {x}, ""); },
        [](GradContext& c, const Tensor& g) {
            const float k = float(2.0 / std::sqrt(M_PI));
            return mapExpr(c, pe::Const(k) * pe::_1 * pe::Exp(-(pe::_2 * pe::_2)), {g, c.input(0)},
                           "grad");
        });
    unary(
        r, "LeakyRelu",
        [](LoweringContext& c, const Tensor& x) {
            const float a = c.attrs().getFloat("alpha", 0.01f);
            const auto m = positive(pe::_1);
            return mapExpr(c, pe::_1 * (m + pe::Const(a) * (pe::Const(1.0f) - m)), {x}, "");
        },
        [](GradContext& c, const Tensor& g) {
            const float a = c.attrs().getFloat("alpha", 0.01f);
            const auto m = positive(pe::_2);
            return mapExpr(c, pe::_1 * (m + pe::Const(a) * (pe::Const(1.0f) - m)), {g, c.input(0)},
                           "grad");
        });
    unary(
        r, "Elu",
        [](LoweringContext& c, const Tensor& x) {
            const float a = c.attrs().getFloat("alpha", 1.0f);
            const auto m = positive(pe::_1);
            return mapExpr(c,
                           m * pe::_1 +
                               (pe::Const(1.0f) - m) * pe::Const(a) *
                                   (pe::Exp(pe::Min(pe::_1, pe::Const(0.0f))) - pe::Const(1.0f)),
                           {x}, "");
        },
        [](GradContext& c, const Tensor& g) {
            const float a = c.attrs().getFloat("alpha", 1.0f);
            const auto m = positive(pe::_2);
            return mapExpr(c,
                           pe::_1 * (m + (pe::Const(1.0f) - m) * pe::Const(a) *
                                             pe::Exp(pe::Min(pe::_2, pe::Const(0.0f)))),
                           {g, c.input(0)}, "grad");
        });
    unary(
        r, "Selu",
        [](LoweringContext& c, const Tensor& x) {
            const float a = c.attrs().getFloat("alpha", 1.67326319217681884765625f);
            const float gm = c.attrs().getFloat("gamma", 1.05070102214813232421875f);
            const auto m = positive(pe::_1);
            return mapExpr(c,
                           pe::Const(gm) *
                               (m * pe::_1 +
                                (pe::Const(1.0f) - m) * pe::Const(a) *
                                    (pe::Exp(pe::Min(pe::_1, pe::Const(0.0f))) - pe::Const(1.0f))),
                           {x}, "");
        },
        [](GradContext& c, const Tensor& g) {
            const float a = c.attrs().getFloat("alpha", 1.67326319217681884765625f);
            const float gm = c.attrs().getFloat("gamma", 1.05070102214813232421875f);
            const auto m = positive(pe::_2);
            return mapExpr(c,
                           pe::_1 * pe::Const(gm) *
                               (m + (pe::Const(1.0f) - m) * pe::Const(a) *
                                        pe::Exp(pe::Min(pe::_2, pe::Const(0.0f)))),
                           {g, c.input(0)}, "grad");
        });
    unary(
        r, "HardSigmoid",
        [](LoweringContext& c, const Tensor& x) {
            const float a = c.attrs().getFloat("alpha", 0.2f), b = c.attrs().getFloat("beta", 0.5f);
            return mapExpr(c,
                           pe::Max(pe::Const(0.0f),
                                   pe::Min(pe::Const(1.0f), pe::Const(a) * pe::_1 + pe::Const(b))),
                           {x}, "");
        },
        [](GradContext& c, const Tensor& g) {
            const float a = c.attrs().getFloat("alpha", 0.2f), b = c.attrs().getFloat("beta", 0.5f);
            const auto v = pe::Const(a) * pe::_2 + pe::Const(b);
            return mapExpr(c, pe::_1 * pe::Const(a) * positive(v) * positive(pe::Const(1.0f) - v),
                           {g, c.input(0)}, "grad");
        });
    // softplus(x) = max(x, 0) + log(1 + exp(-|x|)), stable for large |x|.
    unary(
        r, "Softplus",
        [](LoweringContext& c, const Tensor& x) {
            return mapExpr(c,
                           pe::Max(pe::_1, pe::Const(0.0f)) +
                               pe::Log(pe::Const(1.0f) + pe::Exp(-pe::Abs(pe::_1))),
                           {x}, "");
        },
        [](GradContext& c, const Tensor& g) {
            return mapExpr(c, pe::_1 * pe::Sigmoid(pe::_2), {g, c.input(0)}, "grad");
        });
    unary(
        r, "Softsign",
        [](LoweringContext& c, const Tensor& x) {
            return mapExpr(c, pe::_1 / (pe::Const(1.0f) + pe::Abs(pe::_1)), {x}, "");
        },
        [](GradContext& c, const Tensor& g) {
            return mapExpr(c, pe::_1 / pe::Square(pe::Const(1.0f) + pe::Abs(pe::_2)),
                           {g, c.input(0)}, "grad");
        });

    // Graphcore's ops.
    unary(
        r, "Gelu",
        [](LoweringContext& c, const Tensor& x) {
            return popnn::nonLinearity(c.graph(), popnn::NonLinearityType::GELU, x, c.prog(),
                                       c.di());
        },
        [](GradContext& c, const Tensor& g) {
            return popnn::nonLinearityInputGradient(c.graph(), popnn::NonLinearityType::GELU,
                                                    c.input(0), g, c.prog(), c.di("grad"));
        },
        "ai.graphcore");
    unary(
        r, "Scale",
        [](LoweringContext& c, const Tensor& x) {
            return mapExpr(c, pe::_1 * pe::Const(c.attrs().getFloat("scale", 1.0f)), {x}, "");
        },
        [](GradContext& c, const Tensor& g) {
            return mapExpr(c, pe::_1 * pe::Const(c.attrs().getFloat("scale", 1.0f)), {g}, "grad");
        },
        "ai.graphcore");
    unary(
        r, "Detach", [](LoweringContext&, const Tensor& x) { return x; }, nullptr, "ai.graphcore");
}

} // namespace popart
