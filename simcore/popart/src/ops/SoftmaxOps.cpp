// Softmax and LogSoftmax. Before opset 13 the input is coerced to 2-D at `axis` (default 1)
// and normalised over the flattened inner part; from 13 over the single `axis` (default -1).
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <popnn/NonLinearity.hpp>
#include <popops/Reduction.hpp>
#include <poputil/Broadcast.hpp>

namespace popart {

namespace {

using poplar::Tensor;

// The input as rows {R, C} to normalise over C, and how to undo the view.
struct Rows {
    Tensor rows;
    std::vector<std::size_t> movedShape; // the shape before flattening
    unsigned axis = 0;
    bool rolled = false;
};

Rows toRows(LoweringContext& c, const Tensor& x) {
    Rows r;
    const int64_t rank = int64_t(x.rank());
    if (c.opset() < 13) {
        const int64_t axis =
            normaliseAxis(c, c.attrs().getInt("axis", 1), std::max<int64_t>(rank, 1));
        std::size_t outer = 1, inner = 1;
        for (int64_t d = 0; d < rank; ++d)
            (d < axis ? outer : inner) *= x.dim(unsigned(d));
        r.movedShape = x.shape();
        r.rows = x.reshape({outer, inner});
        return r;
    }
    r.axis = unsigned(normaliseAxis(c, c.attrs().getInt("axis", -1), rank));
    r.rolled = true;
    Tensor moved = x.dimRoll(r.axis, x.rank() - 1);
    r.movedShape = moved.shape();
    const std::size_t cols = moved.dim(moved.rank() - 1);
    r.rows = moved.reshape({moved.numElements() / std::max<std::size_t>(cols, 1), cols});
    return r;
}

Tensor fromRows(const Rows& r, const Tensor& rows) {
    Tensor t = rows.reshape(r.movedShape);
    return r.rolled ? t.dimRoll(unsigned(t.rank() - 1), r.axis) : t;
}

Tensor logSoftmaxRows(LoweringContext& c, const Tensor& x) {
    // x - max - log(sum(exp(x - max))), per row.
    Tensor m = popops::reduce(c.graph(), x, {1}, popops::Operation::MAX, c.prog(), c.di("max"));
    Tensor mb = m.reshape({m.dim(0), 1});
    poputil::broadcastToMatch(mb, x.shape());
    Tensor shifted = mapExpr(c, pe::_1 - pe::_2, {x, mb}, "shift");
    Tensor e = mapExpr(c, pe::Exp(pe::_1), {shifted}, "exp");
    Tensor s = popops::reduce(c.graph(), e, {1}, popops::Operation::ADD, c.prog(), c.di("sum"));
    Tensor sb = s.reshape({s.dim(0), 1});
    poputil::broadcastToMatch(sb, x.shape());
    return mapExpr(c, pe::_1 - pe::Log(pe::_2), {shifted, sb}, "log");
}

} // namespace

void registerSoftmaxOps(OpLoweringRegistry& r) {
    r.add(onnxOp(
        "Softmax",
        [](LoweringContext& c) {
            Rows rows = toRows(c, c.input(0));
            Tensor y = popnn::nonLinearity(c.graph(), popnn::NonLinearityType::SOFTMAX, rows.rows,
                                           c.prog(), c.di());
            c.setOutput(0, fromRows(rows, y));
        },
        [](GradContext& c) {
            Rows y = toRows(c, c.output(0));
            Rows g = toRows(c, c.outputGrad(0));
            Tensor d = popnn::nonLinearityInputGradient(c.graph(), popnn::NonLinearityType::SOFTMAX,
                                                        y.rows, g.rows, c.prog(), c.di("grad"));
            c.addInputGrad(0, fromRows(y, d));
        }));
    r.add(onnxOp(
        "LogSoftmax",
        [](LoweringContext& c) {
            Rows rows = toRows(c, c.input(0));
            c.setOutput(0, fromRows(rows, logSoftmaxRows(c, rows.rows)));
        },
        [](GradContext& c) {
            // dx = g - exp(y) * sum(g) per row.
            Rows y = toRows(c, c.output(0));
            Rows g = toRows(c, c.outputGrad(0));
            Tensor s = popops::reduce(c.graph(), g.rows, {1}, popops::Operation::ADD, c.prog(),
                                      c.di("grad"));
            Tensor sb = s.reshape({s.dim(0), 1});
            poputil::broadcastToMatch(sb, g.rows.shape());
            Tensor d = mapExpr(c, pe::_1 - pe::Exp(pe::_2) * pe::_3, {g.rows, y.rows, sb}, "grad");
            c.addInputGrad(0, fromRows(y, d));
        }));
}

} // namespace popart
