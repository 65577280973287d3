// Losses: Graphcore's Nll, L1 and IdentityLoss, and ONNX's SoftmaxCrossEntropyLoss and
// NegativeLogLikelihoodLoss (class weights, ignore index, mean/sum/none reductions).
// Labels pick their class through a one-hot encoding of each row.
#include "ops/LoweringState.hpp"
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <popops/Encoding.hpp>
#include <popops/Reduction.hpp>
#include <poputil/Broadcast.hpp>

namespace popart {

namespace {

using poplar::Tensor;

enum class Reduce { Sum, Mean, None };

Reduce reductionOf(const LoweringContext& c, bool graphcore) {
    std::string s = c.attrs().getString("reduction", graphcore ? "Mean" : "mean");
    for (auto& ch : s)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    if (s == "sum")
        return Reduce::Sum;
    if (s == "mean")
        return Reduce::Mean;
    if (s == "none" || s == "noreduction")
        return Reduce::None;
    c.unsupported("reduction '" + s + "'");
}

Tensor column(const Tensor& r, std::size_t cols) {
    Tensor v = r.reshape({r.numElements(), 1});
    poputil::broadcastToMatch(v, {r.numElements(), cols});
    return v;
}

// The rows {R, C} of `x` with classes at `classDim`, and the labels as {R}.
Tensor rowsOf(const Tensor& x, unsigned classDim) {
    Tensor moved = classDim + 1 == x.rank() ? x : x.dimRoll(classDim, x.rank() - 1);
    const std::size_t c = moved.dim(moved.rank() - 1);
    return moved.reshape({moved.numElements() / c, c});
}

Tensor rowsBack(const Tensor& rows, const Tensor& like, unsigned classDim) {
    Tensor moved = classDim + 1 == like.rank() ? like : like.dimRoll(classDim, like.rank() - 1);
    Tensor t = rows.reshape(moved.shape());
    return classDim + 1 == like.rank() ? t : t.dimRoll(unsigned(t.rank() - 1), classDim);
}

// The picked values of `rows` at the labels, each row's weight (0 when ignored), and the
// per-row loss -w * f(picked), reduced. Saves "onehot", "w" and "scale" for the gradient.
Tensor labelLoss(LoweringContext& c, const Tensor& rows, Tensor labels, const Tensor* classWeights,
                 bool hasIgnore, int64_t ignore, bool logInput, Reduce reduce,
                 const std::vector<std::size_t>& noneShape) {
    const std::size_t n = rows.dim(0), classes = rows.dim(1);
    labels = castTo(c, labels.flatten(), poplar::INT);
    Tensor onehot = c.graph().addVariable(rows.elementType(), {n, classes}, c.di("onehot"));
    mapLinearly(c.graph(), onehot);
    popops::encodeOneHot(c.graph(), labels, onehot, c.prog(), c.di("onehot"));
    Tensor w;
    if (classWeights) {
        Tensor cw = castTo(c, *classWeights, rows.elementType()).reshape({1, classes});
        poputil::broadcastToMatch(cw, {n, classes});
        w = popops::reduce(c.graph(), mapExpr(c, pe::_1 * pe::_2, {onehot, cw}, "weights"), {1},
                           popops::Operation::ADD, c.prog(), c.di("weights"));
    } else {
        w = popops::reduce(c.graph(), onehot, {1}, popops::Operation::ADD, c.prog(),
                           c.di("weights"));
    }
    if (hasIgnore) {
        Tensor keep =
            mapExpr(c, pe::Min(pe::Abs(pe::_1 - pe::Const(float(ignore))), pe::Const(1.0f)),
                    {castTo(c, labels, rows.elementType())}, "ignore");
        w = mapExpr(c, pe::_1 * pe::_2, {w, keep}, "ignore");
    }
    Tensor picked = popops::reduce(c.graph(), mapExpr(c, pe::_1 * pe::_2, {onehot, rows}, "pick"),
                                   {1}, popops::Operation::ADD, c.prog(), c.di("pick"));
    Tensor perRow = logInput ? mapExpr(c, -(pe::_1 * pe::_2), {w, picked}, "loss")
                             : mapExpr(c, -(pe::_1 * pe::Log(pe::Max(pe::_2, pe::Const(1e-30f)))),
                                       {w, picked}, "loss");
    c.save("onehot", onehot);
    c.save("w", w);
    Tensor total =
        popops::reduce(c.graph(), perRow, {0}, popops::Operation::ADD, c.prog(), c.di("sum"));
    if (reduce == Reduce::None) {
        c.save("scale", c.scalar(rows.elementType(), 1.0));
        return perRow.reshape(noneShape);
    }
    if (reduce == Reduce::Sum) {
        c.save("scale", c.scalar(rows.elementType(), 1.0));
        return total;
    }
    Tensor wsum =
        popops::reduce(c.graph(), w, {0}, popops::Operation::ADD, c.prog(), c.di("weightSum"));
    Tensor scale = mapExpr(c, pe::Inv(pe::Max(pe::_1, pe::Const(1e-30f))), {wsum}, "mean");
    c.save("scale", scale);
    return mapExpr(c, pe::_1 * pe::_2, {total, scale}, "mean");
}

// d(loss)/d(row values) for log inputs: -g_r * scale * w_r * onehot.
Tensor labelLossGrad(GradContext& c, Reduce reduce) {
    Tensor onehot = c.saved("onehot"), w = c.saved("w"), scale = c.saved("scale");
    const std::size_t n = onehot.dim(0), classes = onehot.dim(1);
    Tensor g = c.outputGrad(0);
    Tensor gr = reduce == Reduce::None ? g.flatten() : g.reshape({1});
    poputil::broadcastToMatch(gr, {n});
    Tensor coef = mapExpr(c, -(pe::_1 * pe::_2 * pe::_3), {gr, w, scale.reshape({1})}, "gradCoef");
    return mapExpr(c, pe::_1 * pe::_2, {onehot, column(coef, classes)}, "grad");
}

void scalarLoss(OpLoweringRegistry& r, const std::string& type) {
    OpLowering op = onnxOp(
        type,
        [type](LoweringContext& c) {
            Tensor x = c.input(0);
            const Reduce reduce = reductionOf(c, true);
            Tensor v =
                type == "L1"
                    ? mapExpr(c, pe::Const(c.attrs().getFloat("lambda", 1.0f)) * pe::Abs(pe::_1),
                              {x}, "l1")
                    : x;
            if (reduce == Reduce::None) {
                c.setOutput(
                    0, type == "L1" ? v : popops::map(c.graph(), pe::_1, {v}, c.prog(), c.di()));
                return;
            }
            std::vector<std::size_t> all;
            for (std::size_t d = 0; d < x.rank(); ++d)
                all.push_back(d);
            Tensor s =
                popops::reduce(c.graph(), v, all, popops::Operation::ADD, c.prog(), c.di("sum"));
            if (reduce == Reduce::Mean)
                s = mapExpr(c, pe::_1 / pe::Const(float(std::max<std::size_t>(x.numElements(), 1))),
                            {s}, "mean");
            c.setOutput(0, s);
        },
        [type](GradContext& c) {
            Tensor x = c.input(0);
            const Reduce reduce = reductionOf(c, true);
            Tensor g = c.outputGrad(0);
            if (reduce != Reduce::None) {
                g = g.reshape(std::vector<std::size_t>(x.rank(), 1));
                poputil::broadcastToMatch(g, x.shape());
            }
            const float k =
                (type == "L1" ? c.attrs().getFloat("lambda", 1.0f) : 1.0f) /
                (reduce == Reduce::Mean ? float(std::max<std::size_t>(x.numElements(), 1)) : 1.0f);
            c.addInputGrad(0, type == "L1" ? mapExpr(c, pe::Const(k) * pe::_1 * pe::Signum(pe::_2),
                                                     {g, x}, "grad")
                                           : mapExpr(c, pe::Const(k) * pe::_1, {g}, "grad"));
        });
    op.domain = "ai.graphcore";
    op.inferShape = [](ShapeContext& c) {
        const std::string red = c.attrs().getString("reduction", "Mean");
        c.setOutputInfo(0, red == "NoReduction" ? c.inputInfo(0)
                                                : TensorInfo(c.inputInfo(0).dataType(), Shape{}));
    };
    r.add(op);
}

} // namespace

void registerLossOps(OpLoweringRegistry& r) {
    scalarLoss(r, "L1");
    scalarLoss(r, "IdentityLoss");

    // Nll: probabilities (or log-probabilities) {..., C}, labels {...}.
    OpLowering nll = onnxOp(
        "Nll",
        [](LoweringContext& c) {
            Tensor probs = c.input(0);
            const bool logInput = c.attrs().getInt("inputIsLogProbability", 0) != 0;
            Tensor rows = rowsOf(probs, unsigned(probs.rank() - 1));
            const Reduce reduce = reductionOf(c, true);
            c.save("rows", rows);
            c.setOutput(0, labelLoss(c, rows, c.input(1), nullptr, c.attrs().has("ignoreIndex"),
                                     c.attrs().getInt("ignoreIndex", -1), logInput, reduce,
                                     c.input(1).shape()));
        },
        [](GradContext& c) {
            const bool logInput = c.attrs().getInt("inputIsLogProbability", 0) != 0;
            Tensor d = labelLossGrad(c, reductionOf(c, true));
            if (!logInput)
                d = mapExpr(c, pe::_1 / pe::Max(pe::_2, pe::Const(1e-30f)), {d, c.saved("rows")},
                            "gradProb");
            c.addInputGrad(0, rowsBack(d, c.input(0), unsigned(c.input(0).rank() - 1)));
        });
    nll.domain = "ai.graphcore";
    nll.inferShape = [](ShapeContext& c) {
        const std::string red = c.attrs().getString("reduction", "Mean");
        c.setOutputInfo(0, red == "NoReduction"
                               ? TensorInfo(c.inputInfo(0).dataType(), c.inputInfo(1).shape())
                               : TensorInfo(c.inputInfo(0).dataType(), Shape{}));
    };
    r.add(nll);

    // NegativeLogLikelihoodLoss: log-probabilities {N, C, d...}, targets {N, d...}, weights {C}.
    r.add(onnxOp(
        "NegativeLogLikelihoodLoss",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            Tensor rows = rowsOf(x, 1);
            Tensor w = c.hasInput(2) ? c.input(2) : Tensor();
            c.setOutput(0, labelLoss(c, rows, c.input(1), c.hasInput(2) ? &w : nullptr,
                                     c.attrs().has("ignore_index"),
                                     c.attrs().getInt("ignore_index", 0), true,
                                     reductionOf(c, false), c.input(1).shape()));
        },
        [](GradContext& c) {
            c.addInputGrad(0, rowsBack(labelLossGrad(c, reductionOf(c, false)), c.input(0), 1));
        },
        12));

    // SoftmaxCrossEntropyLoss: scores {N, C, d...}; log_prob is the optional second output.
    r.add(onnxOp(
        "SoftmaxCrossEntropyLoss",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            Tensor rows = rowsOf(x, 1);
            // log-softmax per row: x - max - log(sum(exp(x - max))).
            Tensor m =
                popops::reduce(c.graph(), rows, {1}, popops::Operation::MAX, c.prog(), c.di("max"));
            Tensor shifted = mapExpr(c, pe::_1 - pe::_2, {rows, column(m, rows.dim(1))}, "shift");
            Tensor s = popops::reduce(c.graph(), mapExpr(c, pe::Exp(pe::_1), {shifted}, "exp"), {1},
                                      popops::Operation::ADD, c.prog(), c.di("sum"));
            Tensor logp =
                mapExpr(c, pe::_1 - pe::Log(pe::_2), {shifted, column(s, rows.dim(1))}, "logProb");
            c.save("logp", logp);
            Tensor w = c.hasInput(2) ? c.input(2) : Tensor();
            c.setOutput(0, labelLoss(c, logp, c.input(1), c.hasInput(2) ? &w : nullptr,
                                     c.attrs().has("ignore_index"),
                                     c.attrs().getInt("ignore_index", 0), true,
                                     reductionOf(c, false), c.input(1).shape()));
            if (c.hasOutput(1))
                c.setOutput(1, rowsBack(logp, x, 1));
        },
        [](GradContext& c) {
            // d scores = d logp - softmax * rowsum(d logp).
            Tensor dlogp = labelLossGrad(c, reductionOf(c, false));
            Tensor sum = popops::reduce(c.graph(), dlogp, {1}, popops::Operation::ADD, c.prog(),
                                        c.di("gradSum"));
            Tensor d = mapExpr(c, pe::_1 - pe::Exp(pe::_2) * pe::_3,
                               {dlogp, c.saved("logp"), column(sum, dlogp.dim(1))}, "grad");
            c.addInputGrad(0, rowsBack(d, c.input(0), 1));
        },
        12));
}

} // namespace popart
