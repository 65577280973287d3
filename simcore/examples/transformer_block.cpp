// A transformer encoder block's forward pass in HALF with the PopLibs subset:
//
//   Q, K, V = x Wq, x Wk, x Wv                        (poplin::matMul)
//   per head h: P_h = softmax(Q_h K_h^T / sqrt(dh))   (matMul, scale, popnn SOFTMAX)
//               C_h = P_h V_h
//   y = x + concat_h(C_h) Wo                          (output projection, residual)
//   out = y + gelu(y W1 + b1) W2                      (MLP with GELU, residual)
//
// Every block is a user operation ("encoder/attention", "encoder/mlp", ...) around the PopLibs
// operations it calls, so a report written with autoReport shows the structure.
//
//   transformer_block [TILES] [SEQ] [DMODEL] [HEADS] [FF]   (default 1472 256 512 8 2048)
//
// Checks the output against a host computation in float from the same HALF inputs and prints one
// JSON line; exit status 1 when an element differs by more than 0.03 + 0.03 |expected|: HALF has
// an 11-bit significand (relative rounding 4.9e-4) and every intermediate (Q, K, V, scores,
// probabilities, contexts, hidden activations) is rounded to HALF once, so errors of a few
// HALF ulps of values of magnitude up to ~8 are expected, well below that bound.

#include "TransformerBlock.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using encoder::Sizes;

namespace {

/// Deterministic values in [-scale, scale), rounded to HALF so host and device see the same.
std::vector<float> halfValues(std::size_t n, float scale, unsigned seed) {
    std::vector<float> v(n);
    std::uint32_t s = seed * 2654435761u + 7u;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = float(half(scale * (float((s >> 8) & 0xffff) / 32768.0f - 1.0f)));
    }
    return v;
}

float roundHalf(float x) {
    return float(half(x));
}

/// Row-major a (m x k) times b (k x n), accumulated in float and rounded to HALF like the device.
std::vector<float> hostMatMul(const std::vector<float>& a, const std::vector<float>& b,
                              std::size_t m, std::size_t k, std::size_t n) {
    std::vector<float> c(m * n, 0.0f);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t p = 0; p < k; ++p) {
            const float av = a[i * k + p];
            for (std::size_t j = 0; j < n; ++j)
                c[i * n + j] += av * b[p * n + j];
        }
    for (auto& x : c)
        x = roundHalf(x);
    return c;
}

float gelu(float x) {
    return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
}

/// The same block on the host in float, rounding to HALF where the device stores HALF.
std::vector<float> hostBlock(const Sizes& s, const std::vector<float>& x,
                             const std::vector<float>& wq, const std::vector<float>& wk,
                             const std::vector<float>& wv, const std::vector<float>& wo,
                             const std::vector<float>& w1, const std::vector<float>& b1,
                             const std::vector<float>& w2) {
    const std::size_t S = s.seq, D = s.model, dh = s.headDim();
    const auto q = hostMatMul(x, wq, S, D, D), k = hostMatMul(x, wk, S, D, D),
               v = hostMatMul(x, wv, S, D, D);
    const float scale = 1.0f / std::sqrt(float(dh));
    std::vector<float> ctx(S * D);
    std::vector<float> p(S);
    for (std::size_t h = 0; h < s.heads; ++h)
        for (std::size_t i = 0; i < S; ++i) {
            float mx = -INFINITY;
            for (std::size_t j = 0; j < S; ++j) {
                float acc = 0;
                for (std::size_t c = h * dh; c < (h + 1) * dh; ++c)
                    acc += q[i * D + c] * k[j * D + c];
                p[j] = roundHalf(roundHalf(acc) * scale);
                mx = std::max(mx, p[j]);
            }
            float sum = 0;
            for (auto& e : p)
                sum += (e = std::exp(e - mx));
            for (auto& e : p)
                e = roundHalf(e / sum);
            for (std::size_t c = h * dh; c < (h + 1) * dh; ++c) {
                float acc = 0;
                for (std::size_t j = 0; j < S; ++j)
                    acc += p[j] * v[j * D + c];
                ctx[i * D + c] = roundHalf(acc);
            }
        }
    const auto projected = hostMatMul(ctx, wo, S, D, D);
    std::vector<float> y(S * D);
    for (std::size_t i = 0; i < y.size(); ++i)
        y[i] = roundHalf(x[i] + projected[i]);
    auto u = hostMatMul(y, w1, S, D, s.ff);
    for (std::size_t i = 0; i < u.size(); ++i)
        u[i] = roundHalf(gelu(roundHalf(u[i] + b1[i % s.ff])));
    const auto down = hostMatMul(u, w2, S, s.ff, D);
    std::vector<float> out(S * D);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = roundHalf(y[i] + down[i]);
    return out;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> args{1472, 256, 512, 8, 2048};
    for (int i = 1; i < argc && i <= 5; ++i) {
        char* end = nullptr;
        const long value = std::strtol(argv[i], &end, 10);
        if (*end != '\0' || value <= 0) {
            std::cerr << "transformer_block: argument " << i << " ('" << argv[i]
                      << "') must be a positive integer\n"
                         "usage: transformer_block [TILES] [SEQ] [DMODEL] [HEADS] [FF]\n";
            return 2;
        }
        args[std::size_t(i - 1)] = std::size_t(value);
    }
    const unsigned tiles = static_cast<unsigned>(args[0]);
    const Sizes s{args[1], args[2], args[3], args[4]};
    if (s.model % s.heads != 0) {
        std::cerr << "transformer_block: DMODEL (" << s.model << ") must be a multiple of HEADS ("
                  << s.heads << ")\n";
        return 2;
    }
    const auto started = std::chrono::steady_clock::now();
    try {
        IPUModel model("ipu2");
        model.tilesPerIPU = tiles;
        // Generate IPU code so that the profile accounts code memory as on hardware (the SDK's
        // IPU Model leaves it out by default).
        model.compileIPUCode = true;
        Device device = model.createDevice();
        Graph graph(device.getTarget());
        popops::addCodelets(graph);
        poplin::addCodelets(graph);
        popnn::addCodelets(graph);

        Sequence prog;
        encoder::buildBlock(graph, s, prog);

        const float wScale = 1.0f / std::sqrt(float(s.model));
        const auto xv = halfValues(s.seq * s.model, 1.0f, 1);
        const auto wq = halfValues(s.model * s.model, wScale, 2);
        const auto wk = halfValues(s.model * s.model, wScale, 3);
        const auto wv = halfValues(s.model * s.model, wScale, 4);
        const auto wo = halfValues(s.model * s.model, wScale, 5);
        const auto w1 = halfValues(s.model * s.ff, wScale, 6);
        const auto b1 = halfValues(s.ff, 0.1f, 7);
        const auto w2 = halfValues(s.ff * s.model, 1.0f / std::sqrt(float(s.ff)), 8);

        Engine engine(graph, prog);
        engine.load(device);
        const Target& target = device.getTarget();
        auto write = [&](const char* handle, const std::vector<float>& values) {
            std::vector<half> h(values.size());
            copyFloatToDeviceHalf(target, values.data(), h.data(), values.size());
            engine.writeTensor(handle, h.data(), h.data() + h.size());
        };
        write("x", xv);
        write("wq", wq);
        write("wk", wk);
        write("wv", wv);
        write("wo", wo);
        write("w1", w1);
        write("b1", b1);
        write("w2", w2);
        engine.run(0);
        std::vector<half> outHalf(s.seq * s.model);
        engine.readTensor("out", outHalf.data(), outHalf.data() + outHalf.size());
        std::vector<float> result(outHalf.size());
        copyDeviceHalfToFloat(target, outHalf.data(), result.data(), result.size());

        const auto want = hostBlock(s, xv, wq, wk, wv, wo, w1, b1, w2);
        double maxError = 0, worstExcess = -1;
        for (std::size_t i = 0; i < want.size(); ++i) {
            const double err = std::abs(double(result[i]) - want[i]);
            maxError = std::max(maxError, err);
            worstExcess = std::max(worstExcess, err - (0.03 + 0.03 * std::abs(want[i])));
        }
        const bool ok = worstExcess <= 0 && std::isfinite(maxError);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::cout << "{\"example\":\"transformer_block\",\"tiles\":" << tiles
                  << ",\"seq\":" << s.seq << ",\"d_model\":" << s.model << ",\"heads\":" << s.heads
                  << ",\"ff\":" << s.ff << ",\"max_abs_error\":" << maxError
                  << ",\"wall_seconds\":" << seconds << ",\"ok\":" << (ok ? "true" : "false")
                  << "}\n";
        return ok ? 0 : 1;
    } catch (const poplar_error& e) {
        std::cerr << "transformer_block: " << e.what() << "\n";
        return 1;
    }
}
