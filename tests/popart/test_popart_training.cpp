// A PopART program as the tutorials write one: Builder, Gemm/Relu layers, softmax and nllloss,
// TrainingSession with SGD over batchesPerStep batches, then an InferenceSession. One step is
// checked against a host reference of the same forward, backward and update.
#include "PopartHarness.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <popart/optimizer.hpp>

using namespace popart;
using popart_test::smallDevice;
using popart_test::values;

namespace {

constexpr int64_t B = 4, F = 5, H = 6, C = 3;

struct Mlp {
    std::unique_ptr<Builder> builder = Builder::create();
    TensorId x, label, w1, b1, w2, b2, z1, h, logits, probs, loss;
    std::vector<float> vw1 = values(F * H, -0.5f, 0.5f, 11), vb1 = values(H, -0.1f, 0.1f, 12),
                       vw2 = values(H * C, -0.5f, 0.5f, 13), vb2 = values(C, -0.1f, 0.1f, 14);

    Mlp() {
        auto onnx = builder->aiOnnxOpset10();
        auto gc = builder->aiGraphcoreOpset1();
        x = builder->addInputTensor(TensorInfo("FLOAT", Shape{B, F}), "x");
        label = builder->addInputTensor(TensorInfo("INT32", Shape{B}), "label");
        w1 = builder->addInitializedInputTensor(ConstVoidData(vw1.data(), {"FLOAT", Shape{F, H}}),
                                                "w1");
        b1 = builder->addInitializedInputTensor(ConstVoidData(vb1.data(), {"FLOAT", Shape{H}}),
                                                "b1");
        w2 = builder->addInitializedInputTensor(ConstVoidData(vw2.data(), {"FLOAT", Shape{H, C}}),
                                                "w2");
        b2 = builder->addInitializedInputTensor(ConstVoidData(vb2.data(), {"FLOAT", Shape{C}}),
                                                "b2");
        z1 = onnx.gemm({x, w1, b1}, 1.0f, 1.0f, 0, 0, "fc1");
        h = onnx.relu({z1}, "relu1");
        logits = onnx.gemm({h, w2, b2}, 1.0f, 1.0f, 0, 0, "fc2");
        probs = onnx.softmax({logits}, 1, "softmax");
        loss = gc.nllloss({probs, label}, ReductionType::Mean, OptionalInt(), false, "nll");
        builder->addOutputTensor(probs);
    }
};

// The host reference of one SGD step (lr, no momentum) on one batch; returns the loss.
float referenceStep(Mlp& m, const std::vector<float>& x, const std::vector<int>& label, float lr) {
    std::vector<float> z1(B * H), h(B * H), logits(B * C), p(B * C);
    for (int64_t b = 0; b < B; ++b) {
        for (int64_t j = 0; j < H; ++j) {
            float s = m.vb1[j];
            for (int64_t i = 0; i < F; ++i)
                s += x[b * F + i] * m.vw1[i * H + j];
            z1[b * H + j] = s;
            h[b * H + j] = std::max(s, 0.0f);
        }
        float mx = -1e30f;
        for (int64_t k = 0; k < C; ++k) {
            float s = m.vb2[k];
            for (int64_t j = 0; j < H; ++j)
                s += h[b * H + j] * m.vw2[j * C + k];
            logits[b * C + k] = s;
            mx = std::max(mx, s);
        }
        float sum = 0;
        for (int64_t k = 0; k < C; ++k)
            sum += std::exp(logits[b * C + k] - mx);
        for (int64_t k = 0; k < C; ++k)
            p[b * C + k] = std::exp(logits[b * C + k] - mx) / sum;
    }
    float loss = 0;
    std::vector<float> dlogits(B * C);
    for (int64_t b = 0; b < B; ++b) {
        loss -= std::log(p[b * C + label[b]]) / B;
        for (int64_t k = 0; k < C; ++k)
            dlogits[b * C + k] = (p[b * C + k] - (k == label[b] ? 1.0f : 0.0f)) / B;
    }
    std::vector<float> gw2(H * C, 0), gb2(C, 0), dh(B * H, 0), gw1(F * H, 0), gb1(H, 0);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t k = 0; k < C; ++k) {
            gb2[k] += dlogits[b * C + k];
            for (int64_t j = 0; j < H; ++j) {
                gw2[j * C + k] += h[b * H + j] * dlogits[b * C + k];
                dh[b * H + j] += m.vw2[j * C + k] * dlogits[b * C + k];
            }
        }
    for (int64_t b = 0; b < B; ++b)
        for (int64_t j = 0; j < H; ++j) {
            const float dz = z1[b * H + j] > 0 ? dh[b * H + j] : 0.0f;
            gb1[j] += dz;
            for (int64_t i = 0; i < F; ++i)
                gw1[i * H + j] += x[b * F + i] * dz;
        }
    auto update = [lr](std::vector<float>& w, const std::vector<float>& g) {
        for (std::size_t i = 0; i < w.size(); ++i)
            w[i] -= lr * g[i];
    };
    update(m.vw1, gw1);
    update(m.vb1, gb1);
    update(m.vw2, gw2);
    update(m.vb2, gb2);
    return loss;
}

std::vector<int> labelsFor(const std::vector<float>& x, int64_t batches) {
    // A learnable rule: the class is which third of [-1, 1) the first feature falls in.
    std::vector<int> out;
    for (int64_t b = 0; b < batches * B; ++b)
        out.push_back(std::min(2, int((x[b * F] + 1.0f) * 1.5f)));
    return out;
}

/// Prepares `session`, writes its weights and runs one step on one batch; returns the loss.
float trainOneBatch(TrainingSession& session, const Mlp& m, const std::vector<float>& x,
                    const std::vector<int>& label) {
    session.prepareDevice();
    session.weightsFromHost();
    std::vector<float> xs = x;
    std::vector<int32_t> ls(label.begin(), label.end());
    float loss = 0;
    NDArrayWrapper<float> xa(xs.data(), Shape{B, F});
    NDArrayWrapper<int32_t> la(ls.data(), Shape{B});
    NDArrayWrapper<float> lossa(&loss, Shape{});
    StepIO io({{m.x, &xa}, {m.label, &la}}, {{m.loss, &lossa}});
    session.run(io);
    return loss;
}

} // namespace

TEST_CASE("TrainingSession: one SGD step matches the host reference", "[popart][training]") {
    Mlp m;
    const auto x = values(B * F, -1, 1, 21);
    const auto label = labelsFor(x, 1);
    const float lr = 0.1f;
    DataFlow flow(1, {{m.loss, AnchorReturnType("ALL")}});
    auto session = TrainingSession::createFromOnnxModel(m.builder->getModelProto(), flow, m.loss,
                                                        ConstSGD(lr), smallDevice());
    const float loss = trainOneBatch(*session, m, x, label);
    const float refLoss = referenceStep(m, x, label, lr);
    CHECK(loss == Approx(refLoss).epsilon(1e-4));

    session->weightsToHost();
    std::vector<float> w1(F * H), b2(C);
    WeightsIO weights;
    weights.insert(m.w1, MutableVoidData(w1.data(), TensorInfo("FLOAT", Shape{F, H})));
    weights.insert(m.b2, MutableVoidData(b2.data(), TensorInfo("FLOAT", Shape{C})));
    session->readWeights(weights);
    for (int64_t i = 0; i < F * H; ++i)
        CHECK(w1[i] == Approx(m.vw1[i]).margin(1e-5));
    for (int64_t i = 0; i < C; ++i)
        CHECK(b2[i] == Approx(m.vb2[i]).margin(1e-5));
}

TEST_CASE("TrainingSession: layers on two IPUs (manual virtual graphs) train as on one",
          "[popart][training]") {
    // fc1 on IPU 0, fc2 and the loss on IPU 1: activations, gradients and the weights (mapped
    // over the whole device) reach each layer's IPU through copies.
    Mlp m;
    m.builder->virtualGraph(std::set<TensorId>{m.z1, m.h}, 0);
    m.builder->virtualGraph(std::set<TensorId>{m.logits, m.probs, m.loss}, 1);
    const auto x = values(B * F, -1, 1, 23);
    const auto label = labelsFor(x, 1);
    const float lr = 0.1f;
    SessionOptions opts;
    opts.virtualGraphMode = VirtualGraphMode::Manual;
    DataFlow flow(1, {{m.loss, AnchorReturnType("ALL")}});
    auto session = TrainingSession::createFromOnnxModel(
        m.builder->getModelProto(), flow, m.loss, ConstSGD(lr),
        DeviceManager::createDeviceManager().createIpuModelDevice(
            {{"numIPUs", "2"}, {"tilesPerIPU", "4"}}),
        InputShapeInfo(), opts);
    const float loss = trainOneBatch(*session, m, x, label);
    CHECK(loss == Approx(referenceStep(m, x, label, lr)).epsilon(1e-4));

    session->weightsToHost();
    std::vector<float> w1(F * H), w2(H * C);
    WeightsIO weights;
    weights.insert(m.w1, MutableVoidData(w1.data(), TensorInfo("FLOAT", Shape{F, H})));
    weights.insert(m.w2, MutableVoidData(w2.data(), TensorInfo("FLOAT", Shape{H, C})));
    session->readWeights(weights);
    for (int64_t i = 0; i < F * H; ++i)
        CHECK(w1[i] == Approx(m.vw1[i]).margin(1e-5));
    for (int64_t i = 0; i < H * C; ++i)
        CHECK(w2[i] == Approx(m.vw2[i]).margin(1e-5));
}

TEST_CASE("TrainingSession: the loss falls over batchesPerStep batches, then inference",
          "[popart][training]") {
    Mlp m;
    constexpr int64_t bps = 8;
    const auto x = values(bps * B * F, -1, 1, 31);
    const auto label = labelsFor(x, bps);
    DataFlow flow(bps, {{m.loss, AnchorReturnType("ALL")}});
    SGD sgd({{"defaultLearningRate", {0.5f, false}}, {"defaultMomentum", {0.9f, true}}});
    auto session = TrainingSession::createFromOnnxModel(m.builder->getModelProto(), flow, m.loss,
                                                        sgd, smallDevice());
    session->prepareDevice();
    session->weightsFromHost();
    std::vector<float> xs = x, losses(bps);
    std::vector<int32_t> ls(label.begin(), label.end());
    NDArrayWrapper<float> xa(xs.data(), Shape{bps, B, F});
    NDArrayWrapper<int32_t> la(ls.data(), Shape{bps, B});
    NDArrayWrapper<float> lossa(losses.data(), Shape{bps});
    StepIO io({{m.x, &xa}, {m.label, &la}}, {{m.loss, &lossa}});
    float first = 0, last = 0;
    for (int epoch = 0; epoch < 6; ++epoch) {
        session->run(io);
        float mean = 0;
        for (float l : losses)
            mean += l / bps;
        if (epoch == 0)
            first = mean;
        last = mean;
    }
    CHECK(last < 0.7f * first);
    // A lower learning rate from the host (non-const), without recompiling.
    SGD slower({{"defaultLearningRate", {0.05f, false}}, {"defaultMomentum", {0.9f, true}}});
    session->updateOptimizerFromHost(&slower);
    session->run(io);

    // The trained weights into an InferenceSession through an ONNX file.
    const std::string file = "popart_trained_mlp.onnx";
    session->modelToHost(file);
    DataFlow inferFlow(bps, {{m.probs, AnchorReturnType("ALL")}});
    auto inference = InferenceSession::createFromOnnxModel(file, inferFlow, smallDevice());
    inference->prepareDevice();
    inference->weightsFromHost();
    std::vector<float> probs(bps * B * C);
    NDArrayWrapper<float> pa(probs.data(), Shape{bps, B, C});
    StepIO inferIo({{m.x, &xa}}, {{m.probs, &pa}});
    inference->run(inferIo);
    int correct = 0;
    for (int64_t b = 0; b < bps * B; ++b) {
        int best = 0;
        for (int k = 1; k < C; ++k)
            if (probs[b * C + k] > probs[b * C + best])
                best = k;
        correct += best == label[b];
    }
    CHECK(correct > bps * B * 2 / 3);
}

TEST_CASE("TrainingSession: Adam and weight decay train the MLP", "[popart][training]") {
    Mlp m;
    constexpr int64_t bps = 4;
    const auto x = values(bps * B * F, -1, 1, 41);
    const auto label = labelsFor(x, bps);
    DataFlow flow(bps, {{m.loss, AnchorReturnType("SUM")}});
    Adam adam({{"defaultLearningRate", {0.05f, true}}, {"defaultWeightDecay", {1e-4f, true}}});
    auto session = TrainingSession::createFromOnnxModel(m.builder->getModelProto(), flow, m.loss,
                                                        adam, smallDevice());
    session->prepareDevice();
    session->weightsFromHost();
    std::vector<float> xs = x;
    std::vector<int32_t> ls(label.begin(), label.end());
    float lossSum = 0;
    NDArrayWrapper<float> xa(xs.data(), Shape{bps, B, F});
    NDArrayWrapper<int32_t> la(ls.data(), Shape{bps, B});
    NDArrayWrapper<float> lossa(&lossSum, Shape{});
    StepIO io({{m.x, &xa}, {m.label, &la}}, {{m.loss, &lossa}});
    session->run(io);
    const float first = lossSum;
    for (int i = 0; i < 8; ++i)
        session->run(io);
    CHECK(lossSum < 0.7f * first);
}

TEST_CASE("TrainingSession: gradient accumulation sums accumulationFactor micro-batches",
          "[popart][training]") {
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset11();
    std::vector<float> w0 = {1.0f, 2.0f, 3.0f};
    TensorId x = builder->addInputTensor(TensorInfo("FLOAT", Shape{3}), "x");
    TensorId w = builder->addInitializedInputTensor(
        ConstVoidData(w0.data(), TensorInfo("FLOAT", Shape{3})), "w");
    TensorId loss =
        builder->aiGraphcoreOpset1().identityloss({onnx.mul({x, w})}, ReductionType::Sum, "loss");
    SessionOptions opts;
    opts.enableGradientAccumulation = true;
    opts.accumulationFactor = 2;
    DataFlow flow(2, {{loss, AnchorReturnType("ALL")}});
    auto session =
        TrainingSession::createFromOnnxModel(builder->getModelProto(), flow, loss, ConstSGD(0.5f),
                                             smallDevice(), InputShapeInfo(), opts);
    session->prepareDevice();
    session->weightsFromHost();
    // Two steps of two micro-batches: d loss / d w = x, summed per step.
    std::vector<float> xs = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1}, losses(4);
    NDArrayWrapper<float> xa(xs.data(), Shape{2, 2, 3});
    NDArrayWrapper<float> la(losses.data(), Shape{2, 2});
    StepIO io({{x, &xa}}, {{loss, &la}});
    session->run(io);
    // Micro-batch losses: w.x with w updated after the second micro-batch only.
    CHECK(losses == std::vector<float>{1, 2, 3 - 0.0f, 6 - 1.0f});
    session->weightsToHost();
    std::vector<float> w1(3);
    WeightsIO wio;
    wio.insert(w, MutableVoidData(w1.data(), TensorInfo("FLOAT", Shape{3})));
    session->readWeights(wio);
    // Step 1: w -= 0.5 * (1, 1, 0) -> (0.5, 1.5, 3); step 2: w -= 0.5 * (1, 1, 2) -> (0, 1, 2).
    CHECK(w1 == std::vector<float>{0.0f, 1.0f, 2.0f});
}
