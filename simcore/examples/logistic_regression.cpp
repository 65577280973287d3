// Multinomial logistic regression trained by full-batch gradient descent with the PopLibs subset:
// logits = X W + b, softmax, cross-entropy loss and its deltas (popnn::calcLoss, which also
// counts the correct predictions), gradients X^T deltas and the column sums of the deltas, and
// popops::scaledAddTo updates. One engine run is one epoch; the host reads loss and accuracy
// after each.
//
//   logistic_regression [TILES] [SAMPLES] [FEATURES] [CLASSES] [EPOCHS]  (default 64 512 16 4 15)
//
// The data are deterministic clusters (one centre per class plus noise). Prints one JSON line
// with the accuracy and mean loss per epoch; exit status 1 unless the mean loss falls every
// epoch, the last epoch's accuracy is at least 0.2 above the first's (the untrained model), and
// the trained weights match the same training done on the host in double within 1e-3 (float
// rounding only).

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
#include <popops/Fill.hpp>
#include <popops/Reduction.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

struct Data {
    std::vector<float> x; // samples x features
    std::vector<int> labels;
};

/// Clusters around one centre per class, with uniform noise, from a fixed seed.
Data makeData(std::size_t samples, std::size_t features, std::size_t classes) {
    std::uint32_t s = 2024;
    auto uniform = [&] {
        s = s * 1664525u + 1013904223u;
        return float((s >> 8) & 0xffff) / 32768.0f - 1.0f;
    };
    std::vector<float> centres(classes * features);
    for (auto& c : centres)
        c = 0.6f * uniform();
    Data d{std::vector<float>(samples * features), std::vector<int>(samples)};
    for (std::size_t i = 0; i < samples; ++i) {
        const std::size_t label = (i * 5 + i / 3) % classes;
        d.labels[i] = int(label);
        for (std::size_t f = 0; f < features; ++f)
            d.x[i * features + f] = centres[label * features + f] + 1.5f * uniform();
    }
    return d;
}

/// The same training on the host in double: returns the weights after `epochs` steps.
std::vector<double> hostTrain(const Data& d, std::size_t n, std::size_t f, std::size_t c,
                              unsigned epochs, double rate) {
    std::vector<double> w(f * c, 0.0), b(c, 0.0), delta(n * c);
    for (unsigned e = 0; e < epochs; ++e) {
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<double> logit(c);
            double mx = -1e300, sum = 0;
            for (std::size_t k = 0; k < c; ++k) {
                logit[k] = b[k];
                for (std::size_t j = 0; j < f; ++j)
                    logit[k] += d.x[i * f + j] * w[j * c + k];
                mx = std::max(mx, logit[k]);
            }
            for (auto& l : logit)
                sum += (l = std::exp(l - mx));
            for (std::size_t k = 0; k < c; ++k)
                delta[i * c + k] = logit[k] / sum - (int(k) == d.labels[i] ? 1.0 : 0.0);
        }
        for (std::size_t j = 0; j < f; ++j)
            for (std::size_t k = 0; k < c; ++k) {
                double g = 0;
                for (std::size_t i = 0; i < n; ++i)
                    g += d.x[i * f + j] * delta[i * c + k];
                w[j * c + k] -= rate / double(n) * g;
            }
        for (std::size_t k = 0; k < c; ++k) {
            double g = 0;
            for (std::size_t i = 0; i < n; ++i)
                g += delta[i * c + k];
            b[k] -= rate / double(n) * g;
        }
    }
    return w;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> args{64, 512, 16, 4, 15};
    for (int i = 1; i < argc && i <= 5; ++i) {
        char* end = nullptr;
        const long value = std::strtol(argv[i], &end, 10);
        if (*end != '\0' || value <= 0) {
            std::cerr << "logistic_regression: argument " << i << " ('" << argv[i]
                      << "') must be a positive integer\nusage: logistic_regression [TILES] "
                         "[SAMPLES] [FEATURES] [CLASSES] [EPOCHS]\n";
            return 2;
        }
        args[std::size_t(i - 1)] = std::size_t(value);
    }
    const unsigned tiles = unsigned(args[0]);
    const std::size_t n = args[1], f = args[2], c = args[3];
    const unsigned epochs = unsigned(args[4]);
    if (c < 2) {
        std::cerr << "logistic_regression: CLASSES must be at least 2\n";
        return 2;
    }
    const float rate = 0.05f;
    try {
        IPUModel model("ipu2");
        model.tilesPerIPU = tiles;
        Device device = model.createDevice();
        Graph graph(device.getTarget());
        popops::addCodelets(graph);
        poplin::addCodelets(graph);
        popnn::addCodelets(graph);

        DebugInfo di(DebugContext("logreg"), "model");
        Tensor x = poplin::createMatMulInputLHS(graph, FLOAT, {n, f}, {f, c}, {di, "x"});
        Tensor labels = graph.addVariable(INT, {n}, {di, "labels"});
        poputil::mapTensorLinearly(graph, labels);
        Tensor w = poplin::createMatMulInputRHS(graph, FLOAT, {n, f}, {f, c}, {di, "weights"});
        Tensor b = graph.addVariable(FLOAT, {c}, {di, "bias"});
        poputil::mapTensorLinearly(graph, b);
        Tensor loss = graph.addVariable(FLOAT, {n}, {di, "loss"});
        poputil::mapTensorLinearly(graph, loss);
        Tensor correct = graph.addVariable(INT, {}, {di, "correct"});
        graph.setTileMapping(correct, 0);
        graph.createHostWrite("x", x);
        graph.createHostWrite("labels", labels);
        graph.createHostRead("weights", w);
        graph.createHostRead("loss", loss);
        graph.createHostRead("correct", correct);

        Sequence init;
        popops::zero(graph, w, init, {di, "initWeights"});
        popops::zero(graph, b, init, {di, "initBias"});

        Sequence epoch;
        Tensor logits = poplin::matMul(graph, x, w, epoch, {di, "logits"});
        popops::addInPlace(graph, logits, b, epoch, {di, "bias"});
        Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, epoch,
                                           {di, "softmax"});
        Tensor deltas = graph.clone(probs, {di, "deltas"});
        // calcLoss adds to the count (as PopLibs does): start each epoch's count at 0.
        popops::zero(graph, correct, epoch, {di, "resetCorrect"});
        popnn::calcLoss(graph, probs, labels, loss, deltas, correct, popnn::CROSS_ENTROPY_LOSS,
                        epoch, {di, "loss"});
        Tensor gradW = poplin::matMul(graph, x.transpose(), deltas, epoch, {di, "gradWeights"});
        Tensor gradB =
            popops::reduce(graph, deltas, {0}, popops::Operation::ADD, epoch, {di, "gradBias"});
        popops::scaledAddTo(graph, w, gradW, -rate / float(n), epoch, {di, "updateWeights"});
        popops::scaledAddTo(graph, b, gradB, -rate / float(n), epoch, {di, "updateBias"});

        const Data data = makeData(n, f, c);
        Engine engine(graph, {init, epoch});
        engine.load(device);
        engine.writeTensor("x", data.x.data(), data.x.data() + data.x.size());
        engine.writeTensor("labels", data.labels.data(), data.labels.data() + data.labels.size());
        engine.run(0);
        std::vector<double> accuracy, meanLoss;
        std::vector<float> lossv(n);
        for (unsigned e = 0; e < epochs; ++e) {
            engine.run(1);
            int numCorrect = 0;
            engine.readTensor("correct", &numCorrect, &numCorrect + 1);
            engine.readTensor("loss", lossv.data(), lossv.data() + lossv.size());
            accuracy.push_back(double(numCorrect) / double(n));
            double sum = 0;
            for (float l : lossv)
                sum += l;
            meanLoss.push_back(sum / double(n));
        }
        std::vector<float> wv(f * c);
        engine.readTensor("weights", wv.data(), wv.data() + wv.size());
        const auto want = hostTrain(data, n, f, c, epochs, rate);
        double maxError = 0;
        for (std::size_t i = 0; i < want.size(); ++i)
            maxError = std::max(maxError, std::abs(want[i] - wv[i]));

        bool lossFalls = epochs >= 2;
        for (std::size_t e = 1; e < meanLoss.size(); ++e)
            lossFalls = lossFalls && meanLoss[e] < meanLoss[e - 1];
        const bool learned = lossFalls && accuracy.back() >= accuracy.front() + 0.2;
        const bool ok = learned && maxError <= 1e-3;
        auto list = [](const std::vector<double>& v) {
            std::string s = "[";
            for (std::size_t i = 0; i < v.size(); ++i)
                s += (i ? "," : "") + std::to_string(v[i]);
            return s + "]";
        };
        std::cout << "{\"example\":\"logistic_regression\",\"accuracy\":" << list(accuracy)
                  << ",\"mean_loss\":" << list(meanLoss) << ",\"max_weight_error\":" << maxError
                  << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
        return ok ? 0 : 1;
    } catch (const poplar_error& e) {
        std::cerr << "logistic_regression: " << e.what() << "\n";
        return 1;
    }
}
