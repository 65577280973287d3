// MatMul (numpy semantics: 1-D operands, broadcast batch dimensions) and Gemm, over
// poplin::matMul / matMulGrouped. Integer products are computed in FLOAT and cast back.
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <poplin/MatMul.hpp>
#include <poputil/Broadcast.hpp>

namespace popart {

namespace {

using poplar::Tensor;

std::vector<std::size_t> shapeOf(const Tensor& t) {
    return t.shape();
}

// A [batch..., M, K] x B [batch..., K, N] with the batch dimensions broadcast.
Tensor batchedProduct(LoweringContext& c, Tensor a, Tensor b, const std::string& name) {
    const poplar::Type type = a.elementType();
    const bool integral = type != poplar::FLOAT && type != poplar::HALF;
    if (integral) {
        a = castTo(c, a, poplar::FLOAT);
        b = castTo(c, b, poplar::FLOAT);
    }
    b = castTo(c, b, a.elementType());
    auto sa = shapeOf(a), sb = shapeOf(b);
    const std::size_t batchRank = std::max(sa.size(), sb.size()) - 2;
    std::vector<std::size_t> batch(batchRank, 1);
    for (std::size_t i = 0; i < batchRank; ++i) {
        const std::size_t da =
            i + sa.size() >= batchRank + 2 ? sa[i + sa.size() - batchRank - 2] : 1;
        const std::size_t db =
            i + sb.size() >= batchRank + 2 ? sb[i + sb.size() - batchRank - 2] : 1;
        if (da != db && da != 1 && db != 1)
            c.invalid("batch dimensions do not broadcast");
        batch[i] = std::max(da, db);
    }
    std::size_t groups = 1;
    for (auto d : batch)
        groups *= d;
    const std::size_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
    if (sb[sb.size() - 2] != k)
        c.invalid("inner dimensions differ (" + std::to_string(k) + " and " +
                  std::to_string(sb[sb.size() - 2]) + ")");
    std::vector<std::size_t> fa = batch, fb = batch, out = batch;
    fa.insert(fa.end(), {m, k});
    fb.insert(fb.end(), {k, n});
    out.insert(out.end(), {m, n});
    poputil::broadcastToMatch(a, fa);
    poputil::broadcastToMatch(b, fb);
    Tensor y;
    if (groups == 1)
        y = poplin::matMul(c.graph(), a.reshape({m, k}), b.reshape({k, n}), c.prog(),
                           a.elementType(), c.di(name), c.matmulOptions());
    else
        y = poplin::matMulGrouped(c.graph(), a.reshape({groups, m, k}), b.reshape({groups, k, n}),
                                  c.prog(), a.elementType(), c.di(name), c.matmulOptions());
    y = y.reshape(out);
    return integral ? castTo(c, y, type) : y;
}

// Swaps the last two dimensions.
Tensor transposeLast(const Tensor& t) {
    std::vector<unsigned> perm(t.rank());
    for (unsigned i = 0; i < t.rank(); ++i)
        perm[i] = i;
    std::swap(perm[t.rank() - 1], perm[t.rank() - 2]);
    return t.dimShuffle(perm);
}

// The operands of MatMul as rank >= 2 tensors (1-D A is [1, K], 1-D B is [K, 1]).
void operands(LoweringContext& c, Tensor& a, Tensor& b) {
    a = c.input(0);
    b = c.input(1);
    if (a.rank() == 1)
        a = a.reshape({1, a.dim(0)});
    if (b.rank() == 1)
        b = b.reshape({b.dim(0), 1});
}

} // namespace

void registerMatMulOps(OpLoweringRegistry& r) {
    r.add(onnxOp(
        "MatMul",
        [](LoweringContext& c) {
            Tensor a, b;
            operands(c, a, b);
            c.setOutput(0, batchedProduct(c, a, b, ""));
        },
        [](GradContext& c) {
            Tensor a, b;
            operands(c, a, b);
            auto outShape = a.shape();
            Tensor g = c.outputGrad(0);
            // The gradient in the rank >= 2 form of the product.
            std::vector<std::size_t> g2 = g.shape();
            if (c.input(1).rank() == 1)
                g2.push_back(1);
            if (c.input(0).rank() == 1)
                g2.insert(g2.end() - 1, 1);
            g = g.reshape(g2);
            if (c.needsInputGrad(0)) {
                Tensor da = batchedProduct(c, g, transposeLast(b), "gradA");
                if (c.input(0).rank() == 1) {
                    auto s = da.shape();
                    s.erase(s.end() - 2);
                    da = da.reshape(s);
                }
                c.addInputGrad(0, da);
            }
            if (c.needsInputGrad(1)) {
                Tensor db = batchedProduct(c, transposeLast(a), g, "gradB");
                if (c.input(1).rank() == 1) {
                    auto s = db.shape();
                    s.pop_back();
                    db = db.reshape(s);
                }
                c.addInputGrad(1, db);
            }
            (void)outShape;
        }));
    r.add(onnxOp(
        "Gemm",
        [](LoweringContext& c) {
            Tensor a = c.input(0), b = c.input(1);
            if (c.attrs().getInt("transA", 0))
                a = a.transpose();
            if (c.attrs().getInt("transB", 0))
                b = b.transpose();
            const float alpha = c.attrs().getFloat("alpha", 1.0f),
                        beta = c.attrs().getFloat("beta", 1.0f);
            Tensor y = batchedProduct(c, a, b, "");
            if (alpha != 1.0f)
                y = mapExpr(c, pe::_1 * pe::Const(alpha), {y}, "alpha");
            if (c.hasInput(2) && beta != 0.0f) {
                Tensor bias = castTo(c, c.input(2), y.elementType());
                y = beta == 1.0f ? popops::add(c.graph(), y, bias, c.prog(), c.di("bias"))
                                 : mapExpr(c, pe::_1 + pe::Const(beta) * pe::_2, {y, bias}, "bias");
            }
            c.setOutput(0, y);
        },
        [](GradContext& c) {
            const bool ta = c.attrs().getInt("transA", 0) != 0,
                       tb = c.attrs().getInt("transB", 0) != 0;
            const float alpha = c.attrs().getFloat("alpha", 1.0f),
                        beta = c.attrs().getFloat("beta", 1.0f);
            Tensor a = ta ? c.input(0).transpose() : c.input(0);
            Tensor b = tb ? c.input(1).transpose() : c.input(1);
            Tensor g = c.outputGrad(0);
            if (alpha != 1.0f)
                g = mapExpr(c, pe::_1 * pe::Const(alpha), {g}, "alpha");
            if (c.needsInputGrad(0)) {
                Tensor da = batchedProduct(c, g, b.transpose(), "gradA");
                c.addInputGrad(0, ta ? da.transpose() : da);
            }
            if (c.needsInputGrad(1)) {
                Tensor db = batchedProduct(c, a.transpose(), g, "gradB");
                c.addInputGrad(1, tb ? db.transpose() : db);
            }
            if (c.needsInputGrad(2))
                c.addInputGrad(2, beta == 1.0f ? c.outputGrad(0)
                                               : mapExpr(c, pe::_1 * pe::Const(beta),
                                                         {c.outputGrad(0)}, "gradC"));
        }));
}

} // namespace popart
