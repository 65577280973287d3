// tilescope-bench-cnn: the simulated training step of simcore/examples/cnn_training (conv 3x3,
// batch norm, ReLU, 2x2 max pooling, fully connected, softmax cross-entropy, SGD) against the
// same arithmetic done natively on the host in plain float loops, one batch per step. Runs the
// example (its "step_wall_s": one engine run per epoch, averaged over the warm epochs) and the
// native step, and prints both and their ratio as one JSON object. The native loss must fall
// too, so the native work cannot be optimised away or be wrong without notice.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr std::size_t kClasses = 4, kChannels = 8;

/// One native training step of the example's network on a batch: forward, loss, backward, SGD.
class NativeCnn {
public:
    NativeCnn(std::size_t batch, std::size_t size)
        : B(batch), S(size), P(size / 2), w(kChannels * 9), gamma(kChannels, 1.0f),
          beta(kChannels, 0.0f), wfc(kChannels * P * P * kClasses), bfc(kClasses, 0.0f) {
        std::uint32_t s = 12345;
        const auto next = [&] {
            s = s * 1664525u + 1013904223u;
            return float((s >> 8) & 0xffff) / 32768.0f - 1.0f;
        };
        for (auto& v : w)
            v = 0.5f * next();
        for (auto& v : wfc)
            v = 0.1f * next();
    }

    float step(const std::vector<float>& x, const std::vector<int>& labels, float rate) {
        const std::size_t C = kChannels, HW = S * S, F = C * P * P;
        // Convolution 3x3, padding 1, one input channel.
        std::vector<float> conv(B * C * HW, 0.0f);
        for (std::size_t b = 0; b < B; ++b)
            for (std::size_t c = 0; c < C; ++c)
                for (std::size_t y = 0; y < S; ++y)
                    for (std::size_t xx = 0; xx < S; ++xx) {
                        float acc = 0;
                        for (int ky = 0; ky < 3; ++ky)
                            for (int kx = 0; kx < 3; ++kx) {
                                const long iy = long(y) + ky - 1, ix = long(xx) + kx - 1;
                                if (iy >= 0 && iy < long(S) && ix >= 0 && ix < long(S))
                                    acc += x[(b * S + std::size_t(iy)) * S + std::size_t(ix)] *
                                           w[c * 9 + std::size_t(ky * 3 + kx)];
                            }
                        conv[(b * C + c) * HW + y * S + xx] = acc;
                    }
        // Batch norm statistics and normalisation, ReLU.
        std::vector<float> mean(C, 0), invStd(C, 0), whitened(conv.size()), act(conv.size());
        const float n = float(B * HW);
        for (std::size_t c = 0; c < C; ++c) {
            float sum = 0, sq = 0;
            for (std::size_t b = 0; b < B; ++b)
                for (std::size_t i = 0; i < HW; ++i) {
                    const float v = conv[(b * C + c) * HW + i];
                    sum += v;
                    sq += v * v;
                }
            mean[c] = sum / n;
            invStd[c] = 1.0f / std::sqrt(sq / n - mean[c] * mean[c] + 1e-5f);
        }
        for (std::size_t i = 0; i < conv.size(); ++i) {
            const std::size_t c = (i / HW) % C;
            whitened[i] = (conv[i] - mean[c]) * invStd[c];
            act[i] = std::max(0.0f, whitened[i] * gamma[c] + beta[c]);
        }
        // Max pooling 2x2, stride 2.
        std::vector<float> pooled(B * F);
        for (std::size_t bc = 0; bc < B * C; ++bc)
            for (std::size_t py = 0; py < P; ++py)
                for (std::size_t px = 0; px < P; ++px) {
                    float m = -1e30f;
                    for (std::size_t dy = 0; dy < 2; ++dy)
                        for (std::size_t dx = 0; dx < 2; ++dx)
                            m = std::max(m, act[bc * HW + (2 * py + dy) * S + 2 * px + dx]);
                    pooled[bc * P * P + py * P + px] = m;
                }
        // Fully connected, softmax, cross-entropy.
        std::vector<float> delta(B * kClasses);
        float loss = 0;
        for (std::size_t b = 0; b < B; ++b) {
            float logits[kClasses], mx = -1e30f, sum = 0;
            for (std::size_t k = 0; k < kClasses; ++k) {
                float acc = bfc[k];
                for (std::size_t f = 0; f < F; ++f)
                    acc += pooled[b * F + f] * wfc[f * kClasses + k];
                logits[k] = acc;
                mx = std::max(mx, acc);
            }
            for (std::size_t k = 0; k < kClasses; ++k)
                sum += std::exp(logits[k] - mx);
            for (std::size_t k = 0; k < kClasses; ++k) {
                const float p = std::exp(logits[k] - mx) / sum;
                delta[b * kClasses + k] = p - (int(k) == labels[b] ? 1.0f : 0.0f);
                if (int(k) == labels[b])
                    loss -= std::log(p);
            }
        }
        // Backward: fully connected layer, pooling, ReLU, batch norm, convolution weights.
        const float s = rate / float(B);
        std::vector<float> gPooled(B * F, 0.0f), gwfc(wfc.size(), 0.0f), gbfc(kClasses, 0.0f);
        for (std::size_t b = 0; b < B; ++b)
            for (std::size_t k = 0; k < kClasses; ++k) {
                const float d = delta[b * kClasses + k];
                gbfc[k] += d;
                for (std::size_t f = 0; f < F; ++f) {
                    gwfc[f * kClasses + k] += pooled[b * F + f] * d;
                    gPooled[b * F + f] += d * wfc[f * kClasses + k];
                }
            }
        std::vector<float> gAct(act.size(), 0.0f);
        for (std::size_t bc = 0; bc < B * C; ++bc)
            for (std::size_t py = 0; py < P; ++py)
                for (std::size_t px = 0; px < P; ++px) {
                    const float m = pooled[bc * P * P + py * P + px];
                    for (std::size_t dy = 0; dy < 2; ++dy)
                        for (std::size_t dx = 0; dx < 2; ++dx) {
                            const std::size_t i = bc * HW + (2 * py + dy) * S + 2 * px + dx;
                            if (act[i] == m)
                                gAct[i] += gPooled[bc * P * P + py * P + px];
                        }
                }
        std::vector<float> gGamma(C, 0), gBeta(C, 0), meanG(C, 0), meanGX(C, 0);
        for (std::size_t i = 0; i < act.size(); ++i) {
            const std::size_t c = (i / HW) % C;
            const float g = act[i] > 0 ? gAct[i] : 0.0f;
            gAct[i] = g;
            gGamma[c] += g * whitened[i];
            gBeta[c] += g;
            meanG[c] += g * gamma[c] / n;
            meanGX[c] += g * gamma[c] * whitened[i] / n;
        }
        std::vector<float> gConv(conv.size());
        for (std::size_t i = 0; i < conv.size(); ++i) {
            const std::size_t c = (i / HW) % C;
            gConv[i] = invStd[c] * (gAct[i] * gamma[c] - meanG[c] - whitened[i] * meanGX[c]);
        }
        std::vector<float> gw(w.size(), 0.0f);
        for (std::size_t b = 0; b < B; ++b)
            for (std::size_t c = 0; c < C; ++c)
                for (int ky = 0; ky < 3; ++ky)
                    for (int kx = 0; kx < 3; ++kx) {
                        float acc = 0;
                        for (std::size_t y = 0; y < S; ++y)
                            for (std::size_t xx = 0; xx < S; ++xx) {
                                const long iy = long(y) + ky - 1, ix = long(xx) + kx - 1;
                                if (iy >= 0 && iy < long(S) && ix >= 0 && ix < long(S))
                                    acc += gConv[(b * C + c) * HW + y * S + xx] *
                                           x[(b * S + std::size_t(iy)) * S + std::size_t(ix)];
                            }
                        gw[c * 9 + std::size_t(ky * 3 + kx)] += acc;
                    }
        for (std::size_t i = 0; i < w.size(); ++i)
            w[i] -= s * gw[i];
        for (std::size_t c = 0; c < C; ++c)
            gamma[c] -= s * gGamma[c], beta[c] -= s * gBeta[c];
        for (std::size_t i = 0; i < wfc.size(); ++i)
            wfc[i] -= s * gwfc[i];
        for (std::size_t k = 0; k < kClasses; ++k)
            bfc[k] -= s * gbfc[k];
        return loss / float(B);
    }

private:
    std::size_t B, S, P;
    std::vector<float> w, gamma, beta, wfc, bfc;
};

/// The example's synthetic images: noise plus a blob in the quadrant of the label.
void makeBatch(std::size_t B, std::size_t S, unsigned seed, std::vector<float>& x,
               std::vector<int>& labels) {
    std::uint32_t s = seed * 2654435761u + 7u;
    const auto next = [&] {
        s = s * 1664525u + 1013904223u;
        return float((s >> 8) & 0xffff) / 32768.0f - 1.0f;
    };
    x.resize(B * S * S);
    labels.resize(B);
    for (auto& v : x)
        v = 0.3f * next();
    const std::size_t half = S / 2;
    for (std::size_t i = 0; i < B; ++i) {
        labels[i] = int((i * 7 + seed) % kClasses);
        const std::size_t cy = std::size_t(labels[i] / 2) * half + half / 2;
        const std::size_t cx = std::size_t(labels[i] % 2) * half + half / 2;
        for (std::size_t dy = 0; dy < 3; ++dy)
            for (std::size_t dx = 0; dx < 3; ++dx)
                x[(i * S + cy + dy - 1) * S + cx + dx - 1] += 1.0f;
    }
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"tilescope-bench-cnn: simulated CNN training step against native host arithmetic"};
    unsigned tiles = 16, epochs = 6;
    std::size_t batch = 16, batches = 4, size = 8, nativeSteps = 200;
    app.add_option("--tiles", tiles, "simulated tiles")->check(CLI::PositiveNumber);
    app.add_option("--batch", batch, "images per step")->check(CLI::PositiveNumber);
    app.add_option("--batches", batches, "steps per epoch")->check(CLI::PositiveNumber);
    app.add_option("--epochs", epochs, "epochs (the first is not timed)")
        ->check(CLI::Range(2u, 1000u));
    app.add_option("--size", size, "image size (even, at least 4)")->check(CLI::Range(4, 4096));
    app.add_option("--native-steps", nativeSteps, "native steps timed")->check(CLI::PositiveNumber);
    CLI11_PARSE(app, argc, argv);
    if (size % 2) {
        std::cerr << "tilescope-bench-cnn: --size must be even\n";
        return 2;
    }

    // The simulated step, from the example.
    const auto out = std::filesystem::temp_directory_path() /
                     ("tilescope-bench-cnn-" + std::to_string(::getpid()) + ".json");
    const std::string command = std::string(CNN_EXAMPLE) + " " + std::to_string(tiles) + " " +
                                std::to_string(batch) + " " + std::to_string(batches) + " " +
                                std::to_string(epochs) + " " + std::to_string(size) + " > " +
                                out.string();
    const int rc = std::system(command.c_str());
    std::ifstream in(out);
    std::string line;
    std::getline(in, line);
    std::filesystem::remove(out);
    if (rc != 0 || line.empty()) {
        std::cerr << "tilescope-bench-cnn: the example failed (" << rc << "): " << line << "\n";
        return 1;
    }
    const auto example = nlohmann::json::parse(line);
    const double simStep = example.at("step_wall_s").get<double>();

    // The native step.
    NativeCnn net(batch, size);
    std::vector<float> x;
    std::vector<int> labels;
    float firstLoss = 0, lastLoss = 0;
    double nativeSeconds = 0;
    for (std::size_t i = 0; i < nativeSteps; ++i) {
        makeBatch(batch, size, unsigned(i % batches), x, labels);
        const auto start = std::chrono::steady_clock::now();
        const float loss = net.step(x, labels, 0.05f);
        nativeSeconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (i == 0)
            firstLoss = loss;
        lastLoss = loss;
    }
    const double nativeStep = nativeSeconds / double(nativeSteps);
    nlohmann::json result = {{"tiles", tiles},
                             {"batch", batch},
                             {"size", size},
                             {"sim_step_s", simStep},
                             {"native_step_s", nativeStep},
                             {"sim_over_native", simStep / nativeStep},
                             {"target_sim_over_native_at_most", 10},
                             {"sim_losses", example.at("losses")},
                             {"native_first_loss", firstLoss},
                             {"native_last_loss", lastLoss}};
    std::cout << result.dump() << "\n";
    return lastLoss < firstLoss ? 0 : 1;
}
