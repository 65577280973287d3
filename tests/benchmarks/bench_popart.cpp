// PopART face figures: host time to import and compile a Builder MLP (inference and training
// sessions) and to run steps of it on a simulated IPU Model, with the simulated cycles of a
// step. Prints JSON. Usage: tilescope-bench-popart [--hidden N] [--batches N]
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <popart/builder.hpp>
#include <popart/devicemanager.hpp>
#include <popart/ndarraywrapper.hpp>
#include <popart/optimizer.hpp>
#include <popart/session.hpp>
#include <popart/stepio.hpp>
#include <vector>

using namespace popart;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point since) {
    return std::chrono::duration<double>(Clock::now() - since).count();
}

} // namespace

int main(int argc, char** argv) {
    int64_t hidden = 256, batches = 8;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--hidden"))
            hidden = std::atoll(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--batches"))
            batches = std::atoll(argv[i + 1]);
        else {
            std::cerr << "tilescope-bench-popart: unknown option " << argv[i] << "\n";
            return 2;
        }
    }
    if (hidden <= 0 || batches <= 0) {
        std::cerr << "tilescope-bench-popart: --hidden and --batches must be positive\n";
        return 2;
    }
    const int64_t B = 16, F = 64, C = 10;
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset11();
    std::vector<float> w1(F * hidden, 0.01f), b1(hidden, 0.0f), w2(hidden * C, 0.01f), b2(C, 0.0f);
    TensorId x = builder->addInputTensor(TensorInfo("FLOAT", Shape{B, F}), "x");
    TensorId label = builder->addInputTensor(TensorInfo("INT32", Shape{B}), "label");
    TensorId tw1 = builder->addInitializedInputTensor(
        ConstVoidData(w1.data(), {"FLOAT", Shape{F, hidden}}), "w1");
    TensorId tb1 = builder->addInitializedInputTensor(
        ConstVoidData(b1.data(), {"FLOAT", Shape{hidden}}), "b1");
    TensorId tw2 = builder->addInitializedInputTensor(
        ConstVoidData(w2.data(), {"FLOAT", Shape{hidden, C}}), "w2");
    TensorId tb2 =
        builder->addInitializedInputTensor(ConstVoidData(b2.data(), {"FLOAT", Shape{C}}), "b2");
    TensorId probs =
        onnx.softmax({onnx.gemm({onnx.relu({onnx.gemm({x, tw1, tb1})}), tw2, tb2})}, 1);
    TensorId loss = builder->aiGraphcoreOpset1().nllloss({probs, label});
    const std::string model = builder->getModelProto();

    std::vector<float> xs(std::size_t(batches * B * F), 0.5f);
    std::vector<int32_t> ls(std::size_t(batches * B), 1);
    std::vector<float> losses(static_cast<std::size_t>(batches)),
        ps(static_cast<std::size_t>(batches * B * C));
    NDArrayWrapper<float> xa(xs.data(), Shape{batches, B, F});
    NDArrayWrapper<int32_t> la(ls.data(), Shape{batches, B});
    NDArrayWrapper<float> lossa(losses.data(), Shape{batches});
    NDArrayWrapper<float> pa(ps.data(), Shape{batches, B, C});
    auto device = [] {
        return DeviceManager::createDeviceManager().createIpuModelDevice({{"tilesPerIPU", "64"}});
    };
    nlohmann::json out;
    out["model"] = {{"batch", B},
                    {"features", F},
                    {"hidden", hidden},
                    {"classes", C},
                    {"batchesPerStep", batches}};
    {
        auto t0 = Clock::now();
        auto s = InferenceSession::createFromOnnxModel(
            model, DataFlow(int(batches), {{probs, AnchorReturnType("ALL")}}), device());
        s->prepareDevice();
        out["inference_compile_s"] = seconds(t0);
        s->weightsFromHost();
        StepIO io({{x, &xa}}, {{probs, &pa}});
        t0 = Clock::now();
        s->run(io);
        out["inference_step_s"] = seconds(t0);
        out["inference_step_cycles"] = s->getCycleCount();
    }
    {
        auto t0 = Clock::now();
        auto s = TrainingSession::createFromOnnxModel(
            model, DataFlow(int(batches), {{loss, AnchorReturnType("ALL")}}), loss, ConstSGD(0.01f),
            device());
        s->prepareDevice();
        out["training_compile_s"] = seconds(t0);
        s->weightsFromHost();
        StepIO io({{x, &xa}, {label, &la}}, {{loss, &lossa}});
        t0 = Clock::now();
        s->run(io);
        out["training_step_s"] = seconds(t0);
        out["training_step_cycles"] = s->getCycleCount();
    }
    std::cout << out.dump(2) << std::endl;
    return 0;
}
