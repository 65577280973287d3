// Reductions (ReduceSum Mean Max Min Prod L1 L2 LogSum LogSumExp SumSquare) over popops::reduce,
// and ArgMax/ArgMin over popnn's row-wise argMax/argMin with the axis moved innermost.
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <popnn/Loss.hpp>
#include <popops/Reduction.hpp>
#include <poputil/Broadcast.hpp>

namespace popart {

namespace {

using poplar::Tensor;
using popops::Operation;

enum class Kind { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

// The reduced axes (sorted, non-negative), from the attribute or (ReduceSum from opset 13) the
// second input; empty axes reduce everything unless noop_with_empty_axes.
std::vector<std::size_t> reducedAxes(const LoweringContext& c, bool& noop) {
    const int64_t rank = c.inputInfo(0).rank();
    std::vector<int64_t> axes;
    const bool axesInput = c.opType() == "ReduceSum" ? c.opset() >= 13 : c.opset() >= 18;
    if (axesInput) {
        if (c.hasInput(1))
            axes = c.constantInts(1);
    } else {
        axes = c.attrs().getInts("axes");
    }
    noop = axes.empty() && c.attrs().getInt("noop_with_empty_axes", 0) != 0;
    std::vector<std::size_t> out;
    if (axes.empty()) {
        for (int64_t d = 0; d < rank; ++d)
            out.push_back(std::size_t(d));
        return out;
    }
    for (auto a : axes)
        out.push_back(std::size_t(normaliseAxis(c, a, rank)));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::size_t reducedCount(const Tensor& x, const std::vector<std::size_t>& axes) {
    std::size_t n = 1;
    for (auto a : axes)
        n *= x.dim(unsigned(a));
    return n;
}

// `t` of the reduced shape as a view broadcast to the input's shape.
Tensor expandBack(const Tensor& t, const Tensor& x, const std::vector<std::size_t>& axes) {
    std::vector<std::size_t> keep = x.shape();
    for (auto a : axes)
        keep[a] = 1;
    Tensor k = t.reshape(keep);
    poputil::broadcastToMatch(k, x.shape());
    return k;
}

void reduction(OpLoweringRegistry& r, const std::string& type, Kind kind) {
    r.add(onnxOp(
        type,
        [kind](LoweringContext& c) {
            bool noop = false;
            const auto axes = reducedAxes(c, noop);
            Tensor x = c.input(0);
            if (noop) {
                c.setOutput(0, popops::map(c.graph(), pe::_1, {x}, c.prog(), c.di()));
                return;
            }
            auto& g = c.graph();
            auto& p = c.prog();
            Tensor y;
            switch (kind) {
            case Kind::Sum:
                y = popops::reduce(g, x, axes, Operation::ADD, p, c.di());
                break;
            case Kind::Mean:
                y = popops::reduce(g, x, axes, Operation::ADD, p, c.di());
                y = mapExpr(c, pe::_1 / pe::Const(float(reducedCount(x, axes))), {y}, "mean");
                break;
            case Kind::Max:
                y = popops::reduce(g, x, axes, Operation::MAX, p, c.di());
                break;
            case Kind::Min:
                y = popops::reduce(g, x, axes, Operation::MIN, p, c.di());
                break;
            case Kind::Prod:
                y = popops::reduce(g, x, axes, Operation::MUL, p, c.di());
                break;
            case Kind::SumSquare:
                y = popops::reduce(g, x, axes, Operation::SQUARE_ADD, p, c.di());
                break;
            case Kind::L1:
                y = popops::reduce(g, mapExpr(c, pe::Abs(pe::_1), {x}, "abs"), axes, Operation::ADD,
                                   p, c.di());
                break;
            case Kind::L2:
                y = popops::reduce(g, x, axes, Operation::SQUARE_ADD, p, c.di());
                y = mapExpr(c, pe::Sqrt(pe::_1), {y}, "sqrt");
                break;
            case Kind::LogSum:
                y = popops::reduce(g, x, axes, Operation::ADD, p, c.di());
                y = mapExpr(c, pe::Log(pe::_1), {y}, "log");
                break;
            case Kind::LogSumExp: {
                // max + log(sum(exp(x - max))): stable for large x.
                Tensor m = popops::reduce(g, x, axes, Operation::MAX, p, c.di("max"));
                Tensor e = mapExpr(c, pe::Exp(pe::_1 - pe::_2), {x, expandBack(m, x, axes)}, "exp");
                Tensor s = popops::reduce(g, e, axes, Operation::ADD, p, c.di());
                y = mapExpr(c, pe::_2 + pe::Log(pe::_1), {s, m}, "log");
                break;
            }
            }
            c.setOutput(0, y);
        },
        [kind](GradContext& c) {
            bool noop = false;
            const auto axes = reducedAxes(c, noop);
            Tensor x = c.input(0);
            if (noop) {
                c.addInputGrad(0, c.outputGrad(0));
                return;
            }
            Tensor g = expandBack(c.outputGrad(0), x, axes);
            Tensor y = expandBack(c.output(0), x, axes);
            Tensor d;
            switch (kind) {
            case Kind::Sum:
                d = g;
                break;
            case Kind::Mean:
                d = mapExpr(c, pe::_1 / pe::Const(float(reducedCount(x, axes))), {g}, "grad");
                break;
            case Kind::Max:
            case Kind::Min:
                d = mapExpr(c,
                            pe::_1 *
                                (pe::Const(1.0f) -
                                 pe::Min(pe::Abs(pe::Signum(pe::_2 - pe::_3)), pe::Const(1.0f))),
                            {g, x, y}, "grad");
                break;
            case Kind::Prod:
                d = mapExpr(c, pe::_1 * pe::_2 / pe::_3, {g, y, x}, "grad");
                break;
            case Kind::SumSquare:
                d = mapExpr(c, pe::Const(2.0f) * pe::_1 * pe::_2, {g, x}, "grad");
                break;
            case Kind::L1:
                d = mapExpr(c, pe::_1 * pe::Signum(pe::_2), {g, x}, "grad");
                break;
            case Kind::L2:
                d = mapExpr(c, pe::_1 * pe::_2 / pe::_3, {g, x, y}, "grad");
                break;
            case Kind::LogSum:
                d = mapExpr(c, pe::_1 / pe::Exp(pe::_2), {g, y}, "grad");
                break;
            case Kind::LogSumExp:
                d = mapExpr(c, pe::_1 * pe::Exp(pe::_2 - pe::_3), {g, x, y}, "grad");
                break;
            }
            c.addInputGrad(0, d);
        }));
}

// ArgMax/ArgMin: the axis moved innermost, rows flattened, popnn's row-wise search;
// select_last_index searches the reversed axis.
void argExtreme(OpLoweringRegistry& r, const std::string& type, bool isMax) {
    OpLowering op = onnxOp(type, [isMax](LoweringContext& c) {
        Tensor x = c.input(0);
        const unsigned axis =
            unsigned(normaliseAxis(c, c.attrs().getInt("axis", 0), int64_t(x.rank())));
        const bool last = c.attrs().getInt("select_last_index", 0) != 0;
        Tensor moved = x.dimRoll(axis, x.rank() - 1);
        if (last)
            moved = moved.reverse(moved.rank() - 1);
        const std::size_t cols = moved.dim(moved.rank() - 1);
        Tensor rows = moved.reshape({moved.numElements() / std::max<std::size_t>(cols, 1), cols});
        if (rows.elementType() != poplar::FLOAT && rows.elementType() != poplar::HALF &&
            rows.elementType() != poplar::INT && rows.elementType() != poplar::UNSIGNED_INT)
            rows = castTo(c, rows, poplar::FLOAT);
        Tensor idx = isMax ? popnn::argMax(c.graph(), rows, c.prog(), c.di())
                           : popnn::argMin(c.graph(), rows, c.prog(), c.di());
        idx = castTo(c, idx, poplar::INT);
        if (last)
            idx = mapExpr(c, pe::Const(float(cols - 1)) - pe::_1, {idx}, "last");
        c.setOutput(0, idx);
    });
    r.add(op);
}

} // namespace

void registerReductionOps(OpLoweringRegistry& r) {
    reduction(r, "ReduceSum", Kind::Sum);
    reduction(r, "ReduceMean", Kind::Mean);
    reduction(r, "ReduceMax", Kind::Max);
    reduction(r, "ReduceMin", Kind::Min);
    reduction(r, "ReduceProd", Kind::Prod);
    reduction(r, "ReduceL1", Kind::L1);
    reduction(r, "ReduceL2", Kind::L2);
    reduction(r, "ReduceLogSum", Kind::LogSum);
    reduction(r, "ReduceLogSumExp", Kind::LogSumExp);
    reduction(r, "ReduceSumSquare", Kind::SumSquare);
    argExtreme(r, "ArgMax", true);
    argExtreme(r, "ArgMin", false);
}

} // namespace popart
