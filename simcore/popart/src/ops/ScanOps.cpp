// CumSum (a scan in log2(n) steps of shifted adds; exclusive and reverse; gradient: the scan of
// the gradient the other way) and TopK (popops::topKWithPermutation over the innermost
// dimension, largest or smallest, sorted; gradient: each value's gradient back to its index).
#include "ops/LoweringState.hpp"
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <popops/Cast.hpp>
#include <popops/Reduce.hpp>
#include <popops/SortOrder.hpp>
#include <popops/TopK.hpp>

namespace popart {

namespace {

using poplar::Tensor;

// Zeros of `t`'s shape with dimension `axis` of size `n`.
Tensor zerosLike(LoweringContext& c, const Tensor& t, unsigned axis, std::size_t n) {
    std::vector<std::size_t> shape = t.shape();
    shape[axis] = n;
    Tensor z = c.graph().addConstant(t.elementType(), shape, 0, c.di("zeros"));
    mapLinearly(c.graph(), z);
    return z;
}

/// The inclusive (or exclusive) running sum of `x` along `axis`, from the end with `reverse`:
/// Hillis-Steele, each step adding the tensor shifted by 1, 2, 4, ... positions.
Tensor scan(LoweringContext& c, Tensor x, unsigned axis, bool exclusive, bool reverse) {
    const std::size_t n = x.dim(axis);
    if (reverse)
        x = x.reverse(axis);
    if (exclusive && n > 0) // shift by one: the sum of the elements before each
        x = poplar::concat(zerosLike(c, x, axis, 1), x.slice(0, n - 1, axis), axis);
    Tensor y = popops::map(c.graph(), pe::_1, {x}, c.prog(), c.di("scan"));
    for (std::size_t k = 1; k < n; k *= 2) {
        Tensor shifted = poplar::concat(zerosLike(c, y, axis, k), y.slice(0, n - k, axis), axis);
        y = popops::add(c.graph(), y, shifted, c.prog(), c.di("scan"));
    }
    return reverse ? y.reverse(axis) : y;
}

unsigned scanAxis(LoweringContext& c) {
    const auto axis = c.constantInts(1);
    if (axis.size() != 1)
        c.invalid("axis must hold one value");
    return unsigned(normaliseAxis(c, axis[0], int64_t(c.inputInfo(0).rank())));
}

void registerCumSum(OpLoweringRegistry& r) {
    r.add(onnxOp(
        "CumSum",
        [](LoweringContext& c) {
            c.setOutput(0, scan(c, c.input(0), scanAxis(c), c.attrs().getInt("exclusive", 0) != 0,
                                c.attrs().getInt("reverse", 0) != 0));
        },
        [](GradContext& c) {
            // y_j = sum over i up to j of x_i, so dx_i = the sum over j from i of dy_j: the same
            // scan in the other direction.
            if (c.needsInputGrad(0))
                c.addInputGrad(0, scan(c, c.outputGrad(0), scanAxis(c),
                                       c.attrs().getInt("exclusive", 0) != 0,
                                       c.attrs().getInt("reverse", 0) == 0));
        },
        11));
}

struct TopKSetup {
    unsigned axis;
    unsigned k;
    bool largest;
    bool sorted;
};

TopKSetup topKSetup(LoweringContext& c) {
    TopKSetup s;
    const int64_t rank = int64_t(c.inputInfo(0).rank());
    s.axis = unsigned(normaliseAxis(c, c.attrs().getInt("axis", -1), rank));
    if (c.opset() < 10) {
        s.k = unsigned(c.attrs().getInt("k", 1));
    } else {
        const auto k = c.constantInts(1);
        if (k.size() != 1 || k[0] < 0)
            c.invalid("K must hold one non-negative value");
        s.k = unsigned(k[0]);
    }
    s.largest = c.opset() < 11 || c.attrs().getInt("largest", 1) != 0;
    s.sorted = c.opset() < 11 || c.attrs().getInt("sorted", 1) != 0;
    if (s.k > c.inputInfo(0).shape()[s.axis])
        c.invalid("K is larger than the axis");
    return s;
}

void registerTopK(OpLoweringRegistry& r) {
    r.add(onnxOp(
        "TopK",
        [](LoweringContext& c) {
            const TopKSetup s = topKSetup(c);
            const unsigned last = unsigned(c.inputInfo(0).rank() - 1);
            Tensor x = c.input(0).dimRoll(s.axis, last);
            // ONNX orders sorted outputs best first; unsorted, any order is allowed.
            const popops::SortOrder order = !s.sorted ? popops::SortOrder::NONE
                                                      : (s.largest ? popops::SortOrder::DESCENDING
                                                                   : popops::SortOrder::ASCENDING);
            auto [values, indices] = popops::topKWithPermutation(
                c.graph(), c.prog(), x, popops::TopKParams(s.k, s.largest, order), c.di("topK"));
            Tensor idx = popops::cast(c.graph(), indices, poplar::INT, c.prog(), c.di("indices"));
            c.save("indices", idx);
            c.setOutput(0, values.dimRoll(last, s.axis));
            if (c.hasOutput(1))
                c.setOutput(1, idx.dimRoll(last, s.axis));
        },
        [](GradContext& c) {
            if (!c.needsInputGrad(0))
                return;
            // dx[..., i] = sum over j of dy[..., j] * (indices[..., j] == i): one-hot rows of
            // the indices {..., k, n} weighted by the gradient and summed over k.
            const TopKSetup s = topKSetup(c);
            const unsigned last = unsigned(c.inputInfo(0).rank() - 1);
            const std::size_t n = std::size_t(c.inputInfo(0).shape()[s.axis]);
            // Compared as FLOAT (popops::map takes operands of one type; indices are small).
            Tensor idx = castTo(c, c.saved("indices"), poplar::FLOAT); // {..., k}, axis innermost
            Tensor g = c.outputGrad(0).dimRoll(s.axis, last);
            std::vector<float> iotaValues(n);
            for (std::size_t i = 0; i < n; ++i)
                iotaValues[i] = float(i);
            Tensor iota =
                c.graph().addConstant(poplar::FLOAT, {n}, iotaValues.data(), c.di("iota"));
            mapLinearly(c.graph(), iota);
            std::vector<std::size_t> rows = idx.shape();
            rows.push_back(n);
            Tensor idxRows = idx.expand({idx.rank()}).broadcast(unsigned(n), idx.rank());
            Tensor iotaRows = iota;
            for (std::size_t d = 0; d + 1 < rows.size(); ++d)
                iotaRows = iotaRows.expand({0});
            for (std::size_t d = 0; d + 1 < rows.size(); ++d)
                iotaRows = iotaRows.broadcast(unsigned(rows[d]), unsigned(d));
            Tensor gRows = g.expand({g.rank()}).broadcast(unsigned(n), g.rank());
            Tensor weighted =
                mapExpr(c, pe::Select(pe::_3, pe::Const(0.0f), pe::_1 == pe::_2),
                        {idxRows, iotaRows, castTo(c, gRows, poplar::FLOAT)}, "gradScatter");
            Tensor dx = popops::reduce(c.graph(), weighted, {std::size_t(last)},
                                       popops::Operation::ADD, c.prog(), c.di("grad"));
            c.addInputGrad(0, castTo(c, dx, c.input(0).elementType()).dimRoll(last, s.axis));
        },
        1));
}

} // namespace

void registerScanOps(OpLoweringRegistry& r) {
    registerCumSum(r);
    registerTopK(r);
}

} // namespace popart
