// Gradients of lowered ops against finite differences of host functions: the model is
// loss = sum(op(w)) with w a weight, trained one step with ConstSGD(1), so w - w' = dloss/dw.
#include "PopartHarness.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <popart/optimizer.hpp>
#include <string>
#include <unistd.h>

using namespace popart;
using popart_test::smallDevice;
using popart_test::values;

namespace {

using OpFn = std::function<TensorId(AiOnnxOpset&, AiGraphcoreOpset1&, const TensorId&)>;

// dloss/dw on the device for loss = sum(op(w)) (weights w of shape {2, 3}).
std::vector<float> deviceGradient(const OpFn& op, const std::vector<float>& w0, int opset = 13) {
    auto builder = Builder::create();
    auto onnx = builder->aiOnnxOpset(opset);
    auto gc = builder->aiGraphcoreOpset1();
    TensorId w = builder->addInitializedInputTensor(
        ConstVoidData(w0.data(), TensorInfo("FLOAT", Shape{2, 3})), "w");
    TensorId y = op(onnx, gc, w);
    TensorId loss = gc.identityloss({y}, ReductionType::Sum, "loss");
    DataFlow flow(1, {{loss, AnchorReturnType("ALL")}});
    auto session = TrainingSession::createFromOnnxModel(builder->getModelProto(), flow, loss,
                                                        ConstSGD(1.0f), smallDevice(4));
    session->prepareDevice();
    session->weightsFromHost();
    float lossValue = 0;
    NDArrayWrapper<float> la(&lossValue, Shape{});
    StepIO io({}, {{loss, &la}});
    session->run(io);
    session->weightsToHost();
    std::vector<float> w1(6);
    WeightsIO wio;
    wio.insert(w, MutableVoidData(w1.data(), TensorInfo("FLOAT", Shape{2, 3})));
    session->readWeights(wio);
    std::vector<float> g(6);
    for (int i = 0; i < 6; ++i)
        g[i] = w0[i] - w1[i];
    return g;
}

// d/dw of sum(f(w)) by central differences, element-wise f.
std::vector<float> numericGradient(const std::function<double(double)>& f,
                                   const std::vector<float>& w) {
    std::vector<float> g;
    const double h = 1e-4;
    for (float x : w)
        g.push_back(float((f(x + h) - f(x - h)) / (2 * h)));
    return g;
}

void checkUnary(const std::string& name, const OpFn& op, const std::function<double(double)>& f,
                float lo, float hi) {
    INFO(name);
    const auto w = values(6, lo, hi, 7);
    const auto dev = deviceGradient(op, w);
    const auto ref = numericGradient(f, w);
    for (int i = 0; i < 6; ++i)
        CHECK(dev[i] == Approx(ref[i]).epsilon(2e-3).margin(2e-4));
}

} // namespace

TEST_CASE("Gradients of element-wise ops match finite differences", "[popart][gradients]") {
    auto sigmoid = [](double x) { return 1 / (1 + std::exp(-x)); };
    checkUnary(
        "Exp", [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.exp({w}); },
        [](double x) { return std::exp(x); }, -1, 1);
    checkUnary(
        "Log", [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.log({w}); },
        [](double x) { return std::log(x); }, 0.5f, 2);
    checkUnary(
        "Sqrt", [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.sqrt({w}); },
        [](double x) { return std::sqrt(x); }, 0.5f, 2);
    checkUnary(
        "Tanh", [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.tanh({w}); },
        [](double x) { return std::tanh(x); }, -1, 1);
    checkUnary(
        "Sigmoid",
        [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.sigmoid({w}); },
        sigmoid, -2, 2);
    checkUnary(
        "Sin", [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.sin({w}); },
        [](double x) { return std::sin(x); }, -1, 1);
    checkUnary(
        "Erf", [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.erf({w}); },
        [](double x) { return std::erf(x); }, -1, 1);
    checkUnary(
        "Softplus",
        [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.softplus({w}); },
        [](double x) { return std::log1p(std::exp(x)); }, -2, 2);
    checkUnary(
        "Reciprocal",
        [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.reciprocal({w}); },
        [](double x) { return 1 / x; }, 0.5f, 2);
    checkUnary(
        "Elu",
        [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) { return o.elu({w}, 0.7f); },
        [](double x) { return x > 0 ? x : 0.7 * (std::exp(x) - 1); }, -2, 2);
    checkUnary(
        "Mul(w, w)",
        [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) {
            return o.mul({w, w});
        },
        [](double x) { return x * x; }, -2, 2);
    checkUnary(
        "Div(1, w) via Pow",
        [](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& w) {
            float p = -1.0f;
            return o.pow({w, o.constant(ConstVoidData(&p, TensorInfo("FLOAT", Shape{})))});
        },
        [](double x) { return 1 / x; }, 0.5f, 2);
    checkUnary(
        "Gelu", [](AiOnnxOpset&, AiGraphcoreOpset1& g, const TensorId& w) { return g.gelu({w}); },
        [](double x) {
            return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
        },
        -2, 2);
}

TEST_CASE("Gradients of softmax, layer norm and reductions match finite differences",
          "[popart][gradients]") {
    // Weighted sums make the gradients of normalising ops non-zero.
    const std::vector<float> k = {0.3f, -1.2f, 0.7f, 2.0f, -0.4f, 1.1f};
    auto weighted = [&](AiOnnxOpset& o, const TensorId& y) {
        return o.mul({y, o.constant(ConstVoidData(k.data(), TensorInfo("FLOAT", Shape{2, 3})))});
    };
    const auto w = values(6, -1, 1, 9);
    auto check = [&](const std::string& name, const OpFn& op,
                     const std::function<double(const std::vector<double>&)>& host, int opset) {
        INFO(name);
        const auto dev = deviceGradient(op, w, opset);
        for (int i = 0; i < 6; ++i) {
            std::vector<double> p(w.begin(), w.end()), m(w.begin(), w.end());
            p[i] += 1e-4;
            m[i] -= 1e-4;
            CHECK(dev[i] == Approx((host(p) - host(m)) / 2e-4).epsilon(2e-3).margin(2e-4));
        }
    };
    auto softmaxRows = [](std::vector<double> x) {
        for (int r = 0; r < 2; ++r) {
            double s = 0;
            for (int c = 0; c < 3; ++c)
                s += std::exp(x[r * 3 + c]);
            for (int c = 0; c < 3; ++c)
                x[r * 3 + c] = std::exp(x[r * 3 + c]) / s;
        }
        return x;
    };
    // Each row of 3 normalised to zero mean and unit variance (epsilon 1e-5), then scaled and
    // shifted per channel.
    auto normalizedRows = [](const std::vector<double>& x, const std::vector<double>& scale,
                             const std::vector<double>& shift) {
        std::vector<double> y(6);
        for (int r = 0; r < 2; ++r) {
            double mean = 0, var = 0;
            for (int c = 0; c < 3; ++c)
                mean += x[r * 3 + c] / 3;
            for (int c = 0; c < 3; ++c)
                var += (x[r * 3 + c] - mean) * (x[r * 3 + c] - mean) / 3;
            for (int c = 0; c < 3; ++c)
                y[r * 3 + c] = (x[r * 3 + c] - mean) / std::sqrt(var + 1e-5) * scale[c] + shift[c];
        }
        return y;
    };
    auto dot = [&](const std::vector<double>& y) {
        double s = 0;
        for (int i = 0; i < 6; ++i)
            s += k[i] * y[i];
        return s;
    };
    check(
        "Softmax",
        [&](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& x) {
            return weighted(o, o.softmax({x}, -1));
        },
        [&](const std::vector<double>& x) { return dot(softmaxRows(x)); }, 13);
    check(
        "LogSoftmax",
        [&](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& x) {
            return weighted(o, o.logsoftmax({x}, 1));
        },
        [&](const std::vector<double>& x) {
            auto y = softmaxRows(x);
            for (auto& v : y)
                v = std::log(v);
            return dot(y);
        },
        11);
    check(
        "LayerNormalization",
        [&](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& x) {
            const std::vector<float> ones(3, 1.0f);
            TensorId s = o.constant(ConstVoidData(ones.data(), TensorInfo("FLOAT", Shape{3})));
            return weighted(o, o.layernormalization({x, s}, -1, 1e-5f));
        },
        [&](const std::vector<double>& x) {
            return dot(normalizedRows(x, {1, 1, 1}, {0, 0, 0}));
        },
        17);
    // PopART's GroupNormalization, one group of the 3 channels per sample (as PopTorch lowers
    // layer_norm), scaled and shifted per channel.
    const std::vector<float> gamma = {0.5f, 1.5f, -1.0f}, beta = {0.1f, 0.2f, 0.3f};
    check(
        "GroupNormalization",
        [&](AiOnnxOpset& o, AiGraphcoreOpset1& g, const TensorId& x) {
            TensorId s = o.constant(ConstVoidData(gamma.data(), TensorInfo("FLOAT", Shape{3})));
            TensorId b = o.constant(ConstVoidData(beta.data(), TensorInfo("FLOAT", Shape{3})));
            return weighted(o, g.groupnormalization({x, s, b}, 1, 1e-5f)[0]);
        },
        [&](const std::vector<double>& x) {
            return dot(
                normalizedRows(x, {gamma[0], gamma[1], gamma[2]}, {beta[0], beta[1], beta[2]}));
        },
        13);
    check(
        "ReduceLogSumExp",
        [&](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& x) {
            return o.reducelogsumexp({x}, {1}, 1);
        },
        [&](const std::vector<double>& x) {
            double s = 0;
            for (int r = 0; r < 2; ++r)
                s += std::log(std::exp(x[r * 3]) + std::exp(x[r * 3 + 1]) + std::exp(x[r * 3 + 2]));
            return s;
        },
        13);
    check(
        "MatMul",
        [&](AiOnnxOpset& o, AiGraphcoreOpset1&, const TensorId& x) {
            const std::vector<float> b = {0.5f, -1.0f, 2.0f, 0.25f, 1.5f, -0.75f};
            return o.matmul(
                {x, o.constant(ConstVoidData(b.data(), TensorInfo("FLOAT", Shape{3, 2})))});
        },
        [&](const std::vector<double>& x) {
            const double b[6] = {0.5, -1.0, 2.0, 0.25, 1.5, -0.75};
            double s = 0;
            for (int r = 0; r < 2; ++r)
                for (int c = 0; c < 2; ++c)
                    for (int i = 0; i < 3; ++i)
                        s += x[r * 3 + i] * b[i * 2 + c];
            return s;
        },
        13);
}

TEST_CASE("Gather of a weight by run-time indices: values and the scattered gradient",
          "[popart][gradients][gather]") {
    // loss = sum(gather(w, ids)^2), one ConstSGD(1) step: w' = w - dloss/dw, where dloss/dw[r]
    // = 2 w[r] x (the times r is gathered). Repeated and negative indices, both axes.
    const std::vector<int> ids = {3, 0, 3, 5, -1, 2};
    for (int64_t axis : {0, 1}) {
        INFO("axis " << axis);
        const int64_t entries = 6, width = 4;
        const Shape wShape = axis == 0 ? Shape{entries, width} : Shape{width, entries};
        const auto w0 = values(entries * width, -1, 1, 5);
        auto builder = Builder::create();
        auto onnx = builder->aiOnnxOpset(13);
        auto gc = builder->aiGraphcoreOpset1();
        TensorId w = builder->addInitializedInputTensor(
            ConstVoidData(w0.data(), TensorInfo("FLOAT", wShape)), "w");
        TensorId x = builder->addInputTensor(TensorInfo("INT32", Shape{2, 3}), "ids");
        TensorId y = onnx.gather({w, x}, axis, "embed");
        TensorId sq = onnx.mul({y, y});
        TensorId loss = gc.identityloss({sq}, ReductionType::Sum, "loss");
        DataFlow flow(1, {{y, AnchorReturnType("ALL")}});
        // A report, to see which PopLibs operations the Gather and its gradient ran.
        const std::filesystem::path dir =
            std::filesystem::temp_directory_path() /
            ("popart-gather-" + std::to_string(::getpid()) + "-" + std::to_string(axis));
        std::filesystem::remove_all(dir);
        SessionOptions opts;
        opts.engineOptions = {{"autoReport.all", "true"}, {"autoReport.directory", dir.string()}};
        auto session = TrainingSession::createFromOnnxModel(builder->getModelProto(), flow, loss,
                                                            ConstSGD(1.0f), smallDevice(16),
                                                            InputShapeInfo(), opts);
        session->prepareDevice();
        session->weightsFromHost();
        std::vector<int> idv = ids;
        NDArrayWrapper<int> xa(idv.data(), Shape{2, 3});
        std::vector<float> yv(entries * width);
        const Shape yShape = axis == 0 ? Shape{2, 3, width} : Shape{width, 2, 3};
        NDArrayWrapper<float> ya(yv.data(), yShape);
        StepIO io({{x, &xa}}, {{y, &ya}});
        session->run(io);
        session->weightsToHost();
        std::vector<float> w1(w0.size());
        WeightsIO wio;
        wio.insert(w, MutableVoidData(w1.data(), TensorInfo("FLOAT", wShape)));
        session->readWeights(wio);
        auto at = [&](const std::vector<float>& v, int64_t entry, int64_t col) {
            return axis == 0 ? v[entry * width + col] : v[col * entries + entry];
        };
        std::vector<int> count(entries, 0);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const int64_t r = ids[i] < 0 ? ids[i] + entries : ids[i];
            ++count[r];
            for (int64_t c = 0; c < width; ++c) {
                const float got = axis == 0 ? yv[i * width + c] : yv[c * ids.size() + i];
                CHECK(got == at(w0, r, c));
            }
        }
        for (int64_t r = 0; r < entries; ++r)
            for (int64_t c = 0; c < width; ++c)
                CHECK(at(w0, r, c) - at(w1, r, c) ==
                      Approx(2 * count[r] * at(w0, r, c)).epsilon(1e-5).margin(1e-6));
        // As PopART's GatherOpx and GatherGradOpx: the weight created for slicing, one
        // multiSlice, and the gradient one multiUpdateAdd into a sliceable tensor (no product).
        std::map<std::string, int> apis;
        for (const auto& op : session->getReport().compilation().debugContexts())
            if (op.layer() == "PopLibs") {
                const std::string json = op.json();
                for (const char* api : {"createSliceableTensor", "multiSlice", "multiUpdateAdd",
                                        "matMul", "encodeOneHot"})
                    if (json.find(std::string("\"api\":\"") + api + "\"") != std::string::npos)
                        ++apis[api];
            }
        CHECK(apis["createSliceableTensor"] == 2); // the weight and its gradient
        CHECK(apis["multiSlice"] == 1);
        CHECK(apis["multiUpdateAdd"] == 1);
        CHECK(apis["matMul"] == 0);
        CHECK(apis["encodeOneHot"] == 0);
        std::filesystem::remove_all(dir);
    }
}
