// A two-layer perceptron's forward pass and loss with the PopLibs subset: logits =
// relu(x W1 + b1) W2 + b2, softmax, cross-entropy against labels. The whole model is one user
// operation ("mlp", a DebugInfo of layer "model") around the PopLibs operations it calls, so a
// report written with autoReport.outputDebugInfo shows each matMul, add and nonLinearity nested
// in it, with FLOPs when profiler.includeFlopEstimates is on.
//
//   mlp_forward [TILES] [BATCH] [INPUTS] [HIDDEN] [CLASSES]   (default 64 16 300 128 10)
//
// Checks the probabilities and losses against a host computation in double precision and prints
// one JSON line; exit status 1 if they differ by more than 1e-4.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <poplar/DebugInfo.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

std::vector<float> pseudoRandom(std::size_t n, float scale, unsigned seed) {
    std::vector<float> v(n);
    std::uint32_t s = seed;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = scale * (float((s >> 8) & 0xffff) / 32768.0f - 1.0f);
    }
    return v;
}

/// One dense layer: x W + b, with W and b host-written parameters.
Tensor dense(Graph& graph, const Tensor& x, std::size_t outputs, Sequence& prog,
             const DebugContext& dc) {
    DebugInfo di(dc, "model");
    di.setValue("units", outputs); // a user value: shown with the operation in the report
    const std::size_t inputs = x.dim(1);
    Tensor w = poplin::createMatMulInputRHS(graph, FLOAT, {x.dim(0), inputs}, {inputs, outputs},
                                            {di, "weights"});
    Tensor b = graph.addVariable(FLOAT, {outputs}, {di, "bias"});
    poputil::mapTensorLinearly(graph, b);
    graph.createHostWrite(dc.getPathName() + "/weights", w);
    graph.createHostWrite(dc.getPathName() + "/bias", b);
    Tensor y = poplin::matMul(graph, x, w, prog, {di, "matMul"});
    popops::addInPlace(graph, y, b, prog, {di, "bias"});
    return y;
}

} // namespace

int main(int argc, char** argv) {
    auto arg = [&](int i, std::size_t fallback) {
        return argc > i ? static_cast<std::size_t>(std::atol(argv[i])) : fallback;
    };
    const unsigned tiles = static_cast<unsigned>(arg(1, 64));
    const std::size_t batch = arg(2, 16), inputs = arg(3, 300), hidden = arg(4, 128),
                      classes = arg(5, 10);
    try {
        IPUModel model("ipu2");
        model.tilesPerIPU = tiles;
        Device device = model.createDevice();
        Graph graph(device.getTarget());
        popops::addCodelets(graph);
        poplin::addCodelets(graph);
        popnn::addCodelets(graph);

        Sequence prog;
        DebugInfo mlp(DebugContext("mlp"), "model");
        mlp.setValue("sizes", ProfileValue::Map{{"batch", batch},
                                                {"inputs", inputs},
                                                {"hidden", hidden},
                                                {"classes", classes}});
        mlp.setValue("activation", "relu");
        Tensor x = poplin::createMatMulInputLHS(graph, FLOAT, {batch, inputs}, {inputs, hidden},
                                                {mlp, "x"});
        Tensor labels = graph.addVariable(INT, {batch}, {mlp, "labels"});
        poputil::mapTensorLinearly(graph, labels);
        graph.createHostWrite("x", x);
        graph.createHostWrite("labels", labels);

        Tensor h = dense(graph, x, hidden, prog, {mlp, "layer1"});
        popnn::nonLinearityInPlace(graph, popnn::NonLinearityType::RELU, h, prog,
                                   {mlp, "layer1/relu"});
        Tensor logits = dense(graph, h, classes, prog, {mlp, "layer2"});
        Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, prog,
                                           {mlp, "softmax"});
        Tensor loss = graph.addVariable(FLOAT, {batch}, {mlp, "loss"});
        Tensor deltas = graph.clone(probs, {mlp, "deltas"});
        poputil::mapTensorLinearly(graph, loss);
        popnn::calcLoss(graph, probs, labels, loss, deltas, popnn::CROSS_ENTROPY_LOSS, prog,
                        {mlp, "loss"});
        graph.createHostRead("probs", probs);
        graph.createHostRead("loss", loss);

        const auto xv = pseudoRandom(batch * inputs, 1.0f, 1);
        const auto w1 = pseudoRandom(inputs * hidden, 0.1f, 2);
        const auto b1 = pseudoRandom(hidden, 0.1f, 3);
        const auto w2 = pseudoRandom(hidden * classes, 0.1f, 4);
        const auto b2 = pseudoRandom(classes, 0.1f, 5);
        std::vector<int> lv(batch);
        for (std::size_t i = 0; i < batch; ++i)
            lv[i] = static_cast<int>((i * 7) % classes);

        Engine engine(graph, prog);
        engine.load(device);
        engine.writeTensor("x", xv.data(), xv.data() + xv.size());
        engine.writeTensor("labels", lv.data(), lv.data() + lv.size());
        engine.writeTensor("mlp/layer1/weights", w1.data(), w1.data() + w1.size());
        engine.writeTensor("mlp/layer1/bias", b1.data(), b1.data() + b1.size());
        engine.writeTensor("mlp/layer2/weights", w2.data(), w2.data() + w2.size());
        engine.writeTensor("mlp/layer2/bias", b2.data(), b2.data() + b2.size());
        engine.run(0);
        std::vector<float> pv(batch * classes), lossv(batch);
        engine.readTensor("probs", pv.data(), pv.data() + pv.size());
        engine.readTensor("loss", lossv.data(), lossv.data() + lossv.size());

        // Host reference in double.
        double maxError = 0, meanLoss = 0;
        for (std::size_t r = 0; r < batch; ++r) {
            std::vector<double> hid(hidden), logit(classes);
            for (std::size_t j = 0; j < hidden; ++j) {
                double acc = b1[j];
                for (std::size_t k = 0; k < inputs; ++k)
                    acc += double(xv[r * inputs + k]) * w1[k * hidden + j];
                hid[j] = std::max(acc, 0.0);
            }
            double mx = -1e300;
            for (std::size_t c = 0; c < classes; ++c) {
                double acc = b2[c];
                for (std::size_t j = 0; j < hidden; ++j)
                    acc += hid[j] * w2[j * classes + c];
                logit[c] = acc;
                mx = std::max(mx, acc);
            }
            double sum = 0;
            for (double l : logit)
                sum += std::exp(l - mx);
            for (std::size_t c = 0; c < classes; ++c)
                maxError = std::max(maxError,
                                    std::abs(std::exp(logit[c] - mx) / sum - pv[r * classes + c]));
            const double wantLoss = -(logit[std::size_t(lv[r])] - mx - std::log(sum));
            maxError = std::max(maxError, std::abs(wantLoss - lossv[r]) / (1 + wantLoss));
            meanLoss += lossv[r] / double(batch);
        }
        const bool ok = maxError <= 1e-4;
        std::cout << "{\"example\":\"mlp_forward\",\"mean_loss\":" << meanLoss
                  << ",\"max_abs_error\":" << maxError << ",\"ok\":" << (ok ? "true" : "false")
                  << "}\n";
        return ok ? 0 : 1;
    } catch (const poplar_error& e) {
        std::cerr << "mlp_forward: " << e.what() << "\n";
        return 1;
    }
}
