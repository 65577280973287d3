// popnn pooling (every mode, forward and input gradient, 1-D to 3-D, padding and truncation)
// and batch, group and layer normalisation (statistics, whitening, normalisation, gradients)
// against host references.

#include "PoplibsHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <poplar/exceptions.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/GroupNorm.hpp>
#include <popnn/LayerNorm.hpp>
#include <popnn/Pooling.hpp>
#include <poputil/exceptions.hpp>

using namespace poplibstest;
using poplar::FLOAT;
using poplar::HALF;
using popnn::PoolingType;
using popnn::pooling::PoolParams;

namespace {

std::size_t volume(const std::vector<std::size_t>& s) {
    std::size_t v = 1;
    for (auto x : s)
        v *= x;
    return v;
}

/// For each output element of one plane, the input elements (flat indices) of its window.
std::vector<std::vector<std::size_t>> windows(const PoolParams& p) {
    const std::size_t n = p.getNumFieldDims();
    std::vector<std::size_t> outShape(n);
    for (std::size_t d = 0; d < n; ++d) {
        const long padded = long(p.inputFieldShape[d]) + p.inputTruncationOrPaddingLower[d] +
                            p.inputTruncationOrPaddingUpper[d];
        outShape[d] = std::size_t((padded - long(p.kernelShape[d])) / long(p.stride[d]) + 1);
    }
    std::vector<std::vector<std::size_t>> w(volume(outShape));
    std::vector<std::size_t> o(n), k(n);
    for (std::size_t oi = 0; oi < w.size(); ++oi) {
        for (std::size_t d = n, r = oi; d-- > 0;)
            o[d] = r % outShape[d], r /= outShape[d];
        for (std::size_t ki = 0; ki < volume(p.kernelShape); ++ki) {
            for (std::size_t d = n, r = ki; d-- > 0;)
                k[d] = r % p.kernelShape[d], r /= p.kernelShape[d];
            long flat = 0;
            bool inside = true;
            for (std::size_t d = 0; d < n; ++d) {
                // Position in the padded (or truncated) field, back to the input.
                const long pos =
                    long(o[d] * p.stride[d] + k[d]) - p.inputTruncationOrPaddingLower[d];
                inside = inside && pos >= 0 && pos < long(p.inputFieldShape[d]);
                flat = flat * long(p.inputFieldShape[d]) + pos;
            }
            if (inside)
                w[oi].push_back(std::size_t(flat));
        }
    }
    return w;
}

std::vector<double> poolReference(const PoolParams& p, const std::vector<double>& in) {
    const auto w = windows(p);
    const std::size_t planes = p.batchSize * p.numChannels, inPlane = volume(p.inputFieldShape);
    std::vector<double> out;
    for (std::size_t pl = 0; pl < planes; ++pl)
        for (const auto& win : w) {
            double acc = p.poolingType == PoolingType::MAX ? -1e300 : 0.0;
            for (auto i : win)
                acc = p.poolingType == PoolingType::MAX ? std::max(acc, in[pl * inPlane + i])
                                                        : acc + in[pl * inPlane + i];
            if (win.empty())
                acc = 0;
            else if (p.poolingType == PoolingType::AVG)
                acc /= double(win.size());
            out.push_back(acc);
        }
    return out;
}

std::vector<double> poolGradReference(const PoolParams& p, const std::vector<double>& in,
                                      const std::vector<double>& pooled,
                                      const std::vector<double>& grad, bool scaled) {
    const auto w = windows(p);
    const std::size_t planes = p.batchSize * p.numChannels, inPlane = volume(p.inputFieldShape);
    std::vector<double> dx(planes * inPlane, 0.0);
    for (std::size_t pl = 0; pl < planes; ++pl)
        for (std::size_t o = 0; o < w.size(); ++o) {
            const double g = grad[pl * w.size() + o];
            std::vector<std::size_t> hits;
            for (auto i : w[o])
                if (p.poolingType != PoolingType::MAX ||
                    in[pl * inPlane + i] == pooled[pl * w.size() + o])
                    hits.push_back(i);
            for (auto i : hits) {
                double v = g;
                if (p.poolingType == PoolingType::AVG)
                    v /= double(w[o].size());
                else if (p.poolingType == PoolingType::MAX && scaled)
                    v /= double(hits.size());
                dx[pl * inPlane + i] += v;
            }
        }
    return dx;
}

std::vector<std::size_t> shapeOf(const PoolParams& p, const std::vector<std::size_t>& field) {
    std::vector<std::size_t> s = {p.batchSize, p.numChannels};
    s.insert(s.end(), field.begin(), field.end());
    return s;
}

} // namespace

TEST_CASE("pooling forward and input gradient equal the host reference in every mode") {
    const std::vector<PoolParams> shapes = {
        {PoolingType::MAX, {6, 6}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 3, 2, FLOAT},
        {PoolingType::MAX, {7, 5}, {3, 3}, {2, 1}, {1, 1}, {1, 0}, 2, 1, FLOAT},
        {PoolingType::MAX, {9}, {3}, {3}, {0}, {-1}, 4, 2, FLOAT},
        {PoolingType::MAX, {4, 4, 4}, {2, 2, 2}, {2, 1, 2}, {0, 0, 0}, {0, 1, 0}, 2, 1, FLOAT},
        {PoolingType::MAX, {8, 6}, {3, 2}, {1, 2}, {-1, 0}, {0, 0}, 1, 3, FLOAT}};
    for (auto type : {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM})
        for (auto p : shapes) {
            p.poolingType = type;
            INFO(p);
            Harness h(4);
            const auto inShape = shapeOf(p, p.inputFieldShape);
            const auto outShape = shapeOf(p, p.getOutputFieldShape());
            // Small integers with ties, so MAX gradients reach several elements.
            const auto xv = integers(volume(inShape), -2, 2, 21);
            const auto gv = integers(volume(outShape), -3, 3, 22);
            auto x = h.input(FLOAT, inShape, xv, "x");
            auto g = h.input(FLOAT, outShape, gv, "g");
            auto y = popnn::pooling::pool(h.graph, p, x, h.prog, "pool");
            CHECK(y.shape() == outShape);
            h.output(y, "y");
            h.output(popnn::pooling::poolInputGradient(h.graph, p, x, y, g, false, h.prog), "dx");
            h.output(popnn::pooling::poolInputGradient(h.graph, p, x, y, g, true, h.prog), "dxs");
            if (type != PoolingType::MAX)
                h.output(popnn::pooling::poolInputGradient(h.graph, p, 1, g, h.prog), "dx2");
            const auto r = h.run();
            const auto want = poolReference(p, xv);
            const auto near = [](const std::vector<double>& a, const std::vector<double>& b) {
                REQUIRE(a.size() == b.size());
                for (std::size_t i = 0; i < a.size(); ++i)
                    if (std::abs(a[i] - b[i]) > 1e-5 * (1 + std::abs(b[i])))
                        return false;
                return true;
            };
            CHECK(near(r.at("y"), want));
            CHECK(near(r.at("dx"), poolGradReference(p, xv, want, gv, false)));
            CHECK(near(r.at("dxs"), poolGradReference(p, xv, want, gv, true)));
            if (type != PoolingType::MAX)
                CHECK(near(r.at("dx2"), poolGradReference(p, xv, want, gv, false)));
        }
}

TEST_CASE("pooling refuses inconsistent parameters and tensors") {
    Harness h(2);
    auto x = h.input(FLOAT, {1, 2, 4, 4}, std::vector<double>(32), "x");
    PoolParams bad(PoolingType::MAX, {4, 4}, {2}, {2, 2}, {0, 0}, {0, 0}, 2, 1, FLOAT);
    CHECK_THROWS_WITH(popnn::pooling::pool(h.graph, bad, x, h.prog),
                      Catch::Contains("one entry per field dimension"));
    PoolParams wrong(PoolingType::AVG, {5, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 2, 1, FLOAT);
    CHECK_THROWS_WITH(popnn::pooling::pool(h.graph, wrong, x, h.prog),
                      Catch::Contains("'x'") && Catch::Contains("{1,2,5,4}"));
    PoolParams ok(PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 2, 1, FLOAT);
    CHECK_THROWS_AS(popnn::pooling::pool(h.graph, ok, x, h.prog, "", {{"bogus", "1"}}),
                    poplar::invalid_option);
    auto g = h.input(FLOAT, {1, 2, 2, 2}, std::vector<double>(8), "g");
    CHECK_THROWS_WITH(popnn::pooling::poolInputGradient(h.graph, ok, 1, g, h.prog),
                      Catch::Contains("MAX pooling needs the forward input"));
}

namespace {

/// Statistics rows of acts {N, C, F} for batch norm (per channel) or group norm (per batch
/// element and group, contiguous or strided channel groups): element lists.
std::vector<std::vector<std::size_t>> statRows(std::size_t N, std::size_t C, std::size_t F,
                                               bool batch, std::size_t G, bool strided) {
    std::vector<std::vector<std::size_t>> rows(batch ? C : N * G);
    for (std::size_t n = 0; n < N; ++n)
        for (std::size_t c = 0; c < C; ++c)
            for (std::size_t f = 0; f < F; ++f) {
                const std::size_t i = (n * C + c) * F + f;
                const std::size_t g = strided ? c % G : c / (C / G);
                rows[batch ? c : n * G + g].push_back(i);
            }
    return rows;
}

struct NormReference {
    std::vector<double> mean, invStd, whitened, out, dx, dGamma, dBeta;
};

NormReference normReference(const std::vector<double>& x, const std::vector<double>& dy,
                            const std::vector<double>& gamma, const std::vector<double>& beta,
                            std::size_t N, std::size_t C, std::size_t F, bool batch, std::size_t G,
                            bool strided, double eps) {
    NormReference r;
    const auto rows = statRows(N, C, F, batch, G, strided);
    r.whitened.assign(x.size(), 0);
    r.out.assign(x.size(), 0);
    r.dx.assign(x.size(), 0);
    r.dGamma.assign(C, 0);
    r.dBeta.assign(C, 0);
    const auto channel = [&](std::size_t i) { return (i / F) % C; };
    for (const auto& row : rows) {
        double m = 0, v = 0;
        for (auto i : row)
            m += x[i];
        m /= double(row.size());
        for (auto i : row)
            v += (x[i] - m) * (x[i] - m);
        v /= double(row.size());
        const double is = 1 / std::sqrt(v + eps);
        r.mean.push_back(m);
        r.invStd.push_back(is);
        double mg = 0, mgx = 0;
        for (auto i : row) {
            r.whitened[i] = (x[i] - m) * is;
            r.out[i] = r.whitened[i] * gamma[channel(i)] + beta[channel(i)];
            const double g = dy[i] * gamma[channel(i)];
            mg += g;
            mgx += g * r.whitened[i];
        }
        mg /= double(row.size());
        mgx /= double(row.size());
        for (auto i : row)
            r.dx[i] = is * (dy[i] * gamma[channel(i)] - mg - r.whitened[i] * mgx);
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
        r.dGamma[channel(i)] += dy[i] * r.whitened[i];
        r.dBeta[channel(i)] += dy[i];
    }
    return r;
}

void checkNear(const std::vector<double>& got, const std::vector<double>& want, double tol,
               const char* what) {
    INFO(what);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        CHECK(std::abs(got[i] - want[i]) <= tol * (1 + std::abs(want[i])));
}

} // namespace

TEST_CASE("batch, group and layer norm statistics, normalisation and gradients") {
    struct Kind {
        const char* name;
        bool batch;
        std::size_t groups;
        bool strided;
    };
    const std::size_t N = 3, C = 6, H = 2, W = 3, F = H * W;
    for (const Kind k : {Kind{"batch", true, 1, false}, Kind{"group", false, 3, false},
                         Kind{"group strided", false, 2, true}, Kind{"layer", false, 1, false}}) {
        INFO(k.name);
        Harness h(4);
        const auto xv = values(N * C * F, -2, 2, 31);
        const auto dyv = values(N * C * F, -1, 1, 32);
        const auto gv = values(C, 0.5, 1.5, 33), bv = values(C, -0.5, 0.5, 34);
        auto x = h.input(FLOAT, {N, C, H, W}, xv, "x");
        auto dy = h.input(FLOAT, {N, C, H, W}, dyv, "dy");
        auto gamma = h.input(FLOAT, {C}, gv, "gamma");
        auto beta = h.input(FLOAT, {C}, bv, "beta");
        const float eps = 1e-3f;
        poplar::Tensor mean, invStd, out, whitened, dx, dGamma, dBeta;
        const poplar::OptionFlags opts = {
            {"groupNormStridedChannelGrouping", k.strided ? "true" : "false"}};
        if (k.batch) {
            std::tie(mean, invStd) =
                popnn::bn::batchNormStatistics(h.graph, x, eps, h.prog, false, false);
            std::tie(out, whitened) =
                popnn::bn::batchNormalise(h.graph, x, gamma, beta, mean, invStd, h.prog);
            dx = popnn::bn::batchNormGradients(h.graph, x, dy, mean, invStd, gamma, h.prog);
            std::tie(dGamma, dBeta) =
                popnn::bn::batchNormParamGradients(h.graph, x, dy, mean, invStd, h.prog);
        } else if (k.groups == 1) {
            std::tie(mean, invStd) =
                popnn::ln::layerNormStatistics(h.graph, x, eps, h.prog, false, true);
            std::tie(out, whitened) =
                popnn::ln::layerNormalise(h.graph, x, gamma, beta, mean, invStd, h.prog);
            dx = popnn::ln::layerNormGradients(h.graph, whitened, dy, invStd, gamma, h.prog);
            std::tie(dGamma, dBeta) =
                popnn::ln::layerNormParamGradients(h.graph, whitened, dy, h.prog);
        } else {
            std::tie(mean, invStd) = popnn::gn::groupNormStatistics(
                h.graph, x, eps, h.prog, unsigned(k.groups), false, false, FLOAT, {}, opts);
            std::tie(out, whitened) =
                popnn::gn::groupNormalise(h.graph, x, gamma, beta, mean, invStd, h.prog, {}, opts);
            dx = popnn::gn::groupNormGradients(h.graph, x, dy, mean, invStd, gamma, h.prog, FLOAT,
                                               {}, opts);
            std::tie(dGamma, dBeta) = popnn::gn::groupNormParamGradients(
                h.graph, x, dy, mean, invStd, h.prog, FLOAT, {}, opts);
        }
        for (const auto& [name, t] : {std::pair{"mean", mean},
                                      {"invStd", invStd},
                                      {"out", out},
                                      {"whitened", whitened},
                                      {"dx", dx},
                                      {"dGamma", dGamma},
                                      {"dBeta", dBeta}})
            h.output(t, name);
        const auto r = h.run();
        const auto want =
            normReference(xv, dyv, gv, bv, N, C, F, k.batch, k.groups, k.strided, eps);
        checkNear(r.at("mean"), want.mean, 1e-5, "mean");
        checkNear(r.at("invStd"), want.invStd, 1e-4, "invStdDev");
        checkNear(r.at("whitened"), want.whitened, 1e-4, "whitened");
        checkNear(r.at("out"), want.out, 1e-4, "normalised");
        checkNear(r.at("dx"), want.dx, 1e-4, "input gradient");
        checkNear(r.at("dGamma"), want.dGamma, 1e-4, "gamma gradient");
        checkNear(r.at("dBeta"), want.dBeta, 1e-4, "beta gradient");
    }
}

TEST_CASE("batch norm: unbiased variance, folded normalisation, parameter update, errors") {
    Harness h(2);
    const std::size_t N = 4, C = 2;
    const auto xv = values(N * C, -1, 1, 41);
    auto x = h.input(FLOAT, {N, C}, xv, "x");
    auto [mean, invStd] = popnn::bn::batchNormStatistics(h.graph, x, 0.0f, h.prog, true);
    auto m = h.input(FLOAT, {C}, {2, 3}, "m");
    auto a = h.input(FLOAT, {C}, {1, -1}, "a");
    auto folded = popnn::bn::batchNormalise(h.graph, x, m, a, h.prog);
    auto gamma = h.input(FLOAT, {C}, {1, 1}, "gamma");
    auto beta = h.input(FLOAT, {C}, {0, 0}, "beta");
    auto dg = h.input(FLOAT, {C}, {2, 4}, "dg");
    auto db = h.input(FLOAT, {C}, {-2, 6}, "db");
    popnn::bn::batchNormParamUpdate(h.graph, dg, db, 0.5f, gamma, beta, h.prog);
    h.output(invStd, "invStd");
    h.output(folded, "folded");
    h.output(gamma, "gamma");
    h.output(beta, "beta");
    const auto r = h.run();
    for (std::size_t c = 0; c < C; ++c) {
        double mu = 0, v = 0;
        for (std::size_t n = 0; n < N; ++n)
            mu += xv[n * C + c] / N;
        for (std::size_t n = 0; n < N; ++n)
            v += (xv[n * C + c] - mu) * (xv[n * C + c] - mu) / (N - 1);
        CHECK(std::abs(r.at("invStd")[c] - 1 / std::sqrt(v)) < 1e-4 / std::sqrt(v));
    }
    for (std::size_t i = 0; i < N * C; ++i)
        CHECK(std::abs(r.at("folded")[i] - (xv[i] * (i % 2 ? 3 : 2) + (i % 2 ? -1 : 1))) < 1e-6);
    CHECK(r.at("gamma") == std::vector<double>{0, -1});
    CHECK(r.at("beta") == std::vector<double>{1, -3});

    auto flat = h.input(FLOAT, {8}, std::vector<double>(8), "flat");
    CHECK_THROWS_WITH(popnn::bn::batchNormStatistics(h.graph, flat, 1e-5f, h.prog, false),
                      Catch::Contains("are not {N, C, ...}"));
    auto acts = h.input(FLOAT, {2, 6}, std::vector<double>(12), "acts");
    CHECK_THROWS_WITH(popnn::gn::groupNormStatistics(h.graph, acts, 1e-5f, h.prog, 4, false),
                      Catch::Contains("4 groups do not divide the 6 channels"));
    CHECK_THROWS_AS(popnn::gn::groupNormStatistics(h.graph, acts, 1e-5f, h.prog, 2, false, false,
                                                   FLOAT, {}, {{"bogus", "true"}}),
                    poplar::invalid_option);
}
