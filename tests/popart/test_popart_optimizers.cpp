// The optimizers through the C++ API on a model whose gradient is known exactly: the loss is
// sum(w * x), so dloss/dw = x for the batch's x. Three steps of each optimizer (and mode) are
// checked against the update written out on the host from PopART's documented formulas, with
// one weight given its own hyperparameters by insertSpecific.
#include "PopartHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <popart/optimizer.hpp>

using namespace popart;
using popart_test::smallDevice;
using popart_test::values;

namespace {

constexpr int64_t N = 6;
constexpr int STEPS = 3;

/// Host state of one weight: its values and the optimizer's accumulators.
struct HostWeight {
    std::vector<double> w, a1, a2, a3;
    explicit HostWeight(const std::vector<float>& init)
        : w(init.begin(), init.end()), a1(init.size()), a2(init.size()), a3(init.size()) {}
};

/// One host update of `h` with gradient `g` at step t (1-based), hyperparameters `lr`.
using HostUpdate =
    std::function<void(HostWeight& h, const std::vector<double>& g, int t, double lr)>;

/// Trains "wa" and "wb" (loss sum(wa * x) + sum(wb * x)) for STEPS runs of one batch each,
/// "wb" with learning rate `lrB` by insertSpecific, and compares with `update` on the host.
void checkAgainstHost(Optimizer& optimizer, float lrA, float lrB, const HostUpdate& update) {
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset11();
    const auto initA = values(N, -1, 1, 3), initB = values(N, -1, 1, 4);
    TensorId x = builder->addInputTensor(TensorInfo("FLOAT", Shape{N}), "x");
    TensorId wa =
        builder->addInitializedInputTensor(ConstVoidData(initA.data(), {"FLOAT", Shape{N}}), "wa");
    TensorId wb =
        builder->addInitializedInputTensor(ConstVoidData(initB.data(), {"FLOAT", Shape{N}}), "wb");
    TensorId sum = onnx.add({onnx.mul({wa, x}), onnx.mul({wb, x})});
    TensorId loss = builder->aiGraphcoreOpset1().identityloss({sum}, ReductionType::Sum);
    optimizer.insertSpecific(wb, {{"learningRate", {lrB, true}}});
    auto session = TrainingSession::createFromOnnxModel(
        builder->getModelProto(), DataFlow(1, {{loss, AnchorReturnType("ALL")}}), loss, optimizer,
        smallDevice());
    session->prepareDevice();
    session->weightsFromHost();

    HostWeight ha(initA), hb(initB);
    const auto xs = values(STEPS * N, -2, 2, 5);
    for (int t = 1; t <= STEPS; ++t) {
        std::vector<float> xt(xs.begin() + (t - 1) * N, xs.begin() + t * N);
        float lossValue = 0;
        NDArrayWrapper<float> xa(xt.data(), Shape{N});
        NDArrayWrapper<float> la(&lossValue, Shape{});
        StepIO io({{x, &xa}}, {{loss, &la}});
        session->run(io);
        const std::vector<double> g(xt.begin(), xt.end());
        update(ha, g, t, lrA);
        update(hb, g, t, lrB);
    }
    std::vector<float> outA(N), outB(N);
    WeightsIO weights;
    weights.insert(wa, MutableVoidData(outA.data(), {"FLOAT", Shape{N}}));
    weights.insert(wb, MutableVoidData(outB.data(), {"FLOAT", Shape{N}}));
    session->weightsToHost();
    session->readWeights(weights);
    for (int64_t i = 0; i < N; ++i) {
        INFO("element " << i);
        CHECK(outA[i] == Approx(ha.w[i]).epsilon(1e-4).margin(1e-5));
        CHECK(outB[i] == Approx(hb.w[i]).epsilon(1e-4).margin(1e-5));
        CHECK(outA[i] != Approx(initA[i]).margin(1e-6)); // training moved the weight
    }
}

} // namespace

TEST_CASE("Optimizers: SGD with Nesterov momentum and velocity scaling", "[popart][optimizer]") {
    const double mm = 0.8, wd = 0.05;
    SGD sgd({{"defaultLearningRate", {0.1f, true}},
             {"defaultMomentum", {float(mm), true}},
             {"defaultWeightDecay", {float(wd), true}},
             {"defaultVelocityScaling", {8.0f, true}},
             {"lossScaling", {32.0f, true}},
             {"nesterov", {1.0f, true}}});
    checkAgainstHost(sgd, 0.1f, 0.02f,
                     [&](HostWeight& h, const std::vector<double>& g, int, double lr) {
                         for (std::size_t i = 0; i < g.size(); ++i) {
                             const double gi = g[i] + wd * h.w[i];
                             h.a1[i] = mm * h.a1[i] + gi;
                             h.w[i] -= lr * (gi + mm * h.a1[i]);
                         }
                     });
}

TEST_CASE("Optimizers: Adam's AdaMax, Lamb and LambNoBias modes", "[popart][optimizer]") {
    const double b1 = 0.9, b2 = 0.99, eps = 1e-6, wd = 0.01, mwn = 1.5;
    for (AdamMode mode : {AdamMode::AdaMax, AdamMode::Lamb, AdamMode::LambNoBias}) {
        DYNAMIC_SECTION("mode " << int(mode)) {
            Adam adam({{"defaultLearningRate", {0.05f, false}},
                       {"defaultBeta1", {float(b1), true}},
                       {"defaultBeta2", {float(b2), true}},
                       {"defaultEps", {float(eps), true}},
                       {"defaultWeightDecay", {float(wd), true}},
                       {"defaultMaxWeightNorm", {float(mwn), true}}},
                      mode, WeightDecayMode::Decay);
            checkAgainstHost(adam, 0.05f, 0.01f,
                             [&](HostWeight& h, const std::vector<double>& g, int t, double lr) {
                                 const bool bias = mode != AdamMode::LambNoBias;
                                 std::vector<double> upd(g.size());
                                 for (std::size_t i = 0; i < g.size(); ++i) {
                                     h.a1[i] = b1 * h.a1[i] + (1 - b1) * g[i];
                                     const double m =
                                         bias ? h.a1[i] / (1 - std::pow(b1, t)) : h.a1[i];
                                     if (mode == AdamMode::AdaMax) {
                                         h.a2[i] = std::max(b2 * h.a2[i], std::fabs(g[i]));
                                         upd[i] = m / (h.a2[i] + eps) + wd * h.w[i];
                                     } else {
                                         h.a2[i] = b2 * h.a2[i] + (1 - b2) * g[i] * g[i];
                                         const double v =
                                             bias ? h.a2[i] / (1 - std::pow(b2, t)) : h.a2[i];
                                         upd[i] = m / (std::sqrt(v) + eps) + wd * h.w[i];
                                     }
                                 }
                                 double ratio = 1.0;
                                 if (mode != AdamMode::AdaMax) {
                                     double r1 = 0, r2 = 0;
                                     for (std::size_t i = 0; i < g.size(); ++i) {
                                         r1 += h.w[i] * h.w[i];
                                         r2 += upd[i] * upd[i];
                                     }
                                     r1 = std::min(std::sqrt(r1), mwn);
                                     r2 = std::sqrt(r2);
                                     ratio = r1 > 0 && r2 > 0 ? r1 / r2 : 1.0;
                                 }
                                 for (std::size_t i = 0; i < g.size(); ++i)
                                     h.w[i] -= ratio * lr * upd[i];
                             });
        }
    }
}

TEST_CASE("Optimizers: Adaptive's RMSProp, CenteredRMSProp, AdaGrad and AdaDelta",
          "[popart][optimizer]") {
    const double alpha = 0.9, mm = 0.5, eps = 1e-6, wd = 0.02;
    for (AdaptiveMode mode : {AdaptiveMode::RMSProp, AdaptiveMode::CenteredRMSProp,
                              AdaptiveMode::AdaGrad, AdaptiveMode::AdaDelta}) {
        DYNAMIC_SECTION("mode " << int(mode)) {
            Adaptive adaptive({{"defaultLearningRate", {0.05f, false}},
                               {"defaultAlpha", {float(alpha), true}},
                               {"defaultMomentum", {float(mm), true}},
                               {"defaultEps", {float(eps), true}},
                               {"defaultWeightDecay", {float(wd), true}},
                               {"lossScaling", {4.0f, true}}},
                              mode, WeightDecayMode::L2Regularization);
            checkAgainstHost(adaptive, 0.05f, 0.2f,
                             [&](HostWeight& h, const std::vector<double>& grad, int, double lr) {
                                 for (std::size_t i = 0; i < grad.size(); ++i) {
                                     const double g = grad[i] + wd * h.w[i];
                                     h.a1[i] = mode == AdaptiveMode::AdaGrad
                                                   ? h.a1[i] + g * g
                                                   : alpha * h.a1[i] + (1 - alpha) * g * g;
                                     double x;
                                     if (mode == AdaptiveMode::CenteredRMSProp) {
                                         h.a2[i] = alpha * h.a2[i] + (1 - alpha) * g;
                                         x = g / (std::sqrt(h.a1[i] - h.a2[i] * h.a2[i]) + eps);
                                     } else if (mode == AdaptiveMode::AdaDelta) {
                                         x = g * std::sqrt(h.a2[i] + eps) /
                                             std::sqrt(h.a1[i] + eps);
                                         h.a2[i] = alpha * h.a2[i] + (1 - alpha) * x * x;
                                     } else {
                                         x = g / (std::sqrt(h.a1[i]) + eps);
                                     }
                                     h.a3[i] = mm * h.a3[i] + x;
                                     h.w[i] -= lr * h.a3[i];
                                 }
                             });
        }
    }
}

TEST_CASE("Optimizers: refused values name the hyperparameter", "[popart][optimizer]") {
    CHECK_THROWS_WITH(Adaptive({{"defaultBeta1", {0.9f, true}}}),
                      Catch::Contains("unknown hyperparameter 'defaultBeta1'"));
    CHECK_THROWS_WITH(SGD({{"defaultLearningRate", {0.1f, true}}, {"nesterov", {1.0f, true}}}),
                      Catch::Contains("nesterov needs a momentum"));
    SGD sgd({{"defaultLearningRate", {0.1f, true}}, {"defaultMomentum", {0.9f, true}}});
    CHECK_THROWS_WITH(sgd.insertSpecific("w", {{"velocityScaling", {0.0f, true}}}),
                      Catch::Contains("velocityScaling must not be 0 (weight 'w')"));
}
