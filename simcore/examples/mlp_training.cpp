// A two-layer perceptron (RELU hidden layer, softmax output) trained by mini-batch gradient
// descent with the PopLibs subset. One engine run is one epoch: program::Repeat over the batches,
// each fed from the host through two host-to-device FIFOs whose stream callbacks hand out the
// next batch of samples and labels. The backward pass uses poplin::matMul on transposed views,
// popnn::nonLinearityInputGradient (RELU), popops::reduce for bias gradients and
// popops::scaledAddTo for the updates; the batch losses are summed on the device.
//
//   mlp_training [TILES] [BATCH] [BATCHES] [HIDDEN] [EPOCHS]   (default 64 32 8 24 12)
//
// The data are two interleaved rings (a problem a linear model cannot solve), 2 features and
// 2 classes. Prints one JSON line with the mean loss per epoch; exit status 1 unless the loss
// falls to below 70% of the first epoch's and the trained weights match the same training done
// on the host in double within 2e-3 (float rounding only).

#include "RingsDataset.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
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

using rings::kClasses;
using rings::kFeatures;
using rings::makeRings;
using rings::pseudoRandom;

struct HostModel {
    std::vector<double> w1, b1, w2, b2;
};

/// The same training on the host in double; returns the mean loss of each epoch.
std::vector<double> hostTrain(HostModel& m, const std::vector<float>& x,
                              const std::vector<int>& labels, std::size_t batch,
                              std::size_t batches, std::size_t hidden, unsigned epochs,
                              double rate) {
    const std::size_t F = kFeatures, C = kClasses, H = hidden;
    std::vector<double> losses;
    for (unsigned e = 0; e < epochs; ++e) {
        double lossSum = 0;
        for (std::size_t bi = 0; bi < batches; ++bi) {
            std::vector<double> gw1(F * H, 0), gb1(H, 0), gw2(H * C, 0), gb2(C, 0);
            for (std::size_t r = 0; r < batch; ++r) {
                const std::size_t i = bi * batch + r;
                std::vector<double> h(H), logit(C), d(C), dh(H, 0);
                for (std::size_t j = 0; j < H; ++j) {
                    double acc = m.b1[j];
                    for (std::size_t f = 0; f < F; ++f)
                        acc += x[i * F + f] * m.w1[f * H + j];
                    h[j] = std::max(acc, 0.0);
                }
                double mx = -1e300, sum = 0;
                for (std::size_t c = 0; c < C; ++c) {
                    logit[c] = m.b2[c];
                    for (std::size_t j = 0; j < H; ++j)
                        logit[c] += h[j] * m.w2[j * C + c];
                    mx = std::max(mx, logit[c]);
                }
                for (std::size_t c = 0; c < C; ++c)
                    sum += std::exp(logit[c] - mx);
                for (std::size_t c = 0; c < C; ++c)
                    d[c] = std::exp(logit[c] - mx) / sum - (int(c) == labels[i] ? 1 : 0);
                lossSum -= logit[std::size_t(labels[i])] - mx - std::log(sum);
                for (std::size_t j = 0; j < H; ++j)
                    for (std::size_t c = 0; c < C; ++c) {
                        gw2[j * C + c] += h[j] * d[c];
                        dh[j] += d[c] * m.w2[j * C + c];
                    }
                for (std::size_t c = 0; c < C; ++c)
                    gb2[c] += d[c];
                for (std::size_t j = 0; j < H; ++j) {
                    const double g = h[j] > 0 ? dh[j] : 0;
                    for (std::size_t f = 0; f < F; ++f)
                        gw1[f * H + j] += x[i * F + f] * g;
                    gb1[j] += g;
                }
            }
            const double s = rate / double(batch);
            for (std::size_t k = 0; k < gw1.size(); ++k)
                m.w1[k] -= s * gw1[k];
            for (std::size_t k = 0; k < gb1.size(); ++k)
                m.b1[k] -= s * gb1[k];
            for (std::size_t k = 0; k < gw2.size(); ++k)
                m.w2[k] -= s * gw2[k];
            for (std::size_t k = 0; k < gb2.size(); ++k)
                m.b2[k] -= s * gb2[k];
        }
        losses.push_back(lossSum / double(batch * batches));
    }
    return losses;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> args{64, 32, 8, 24, 12};
    for (int i = 1; i < argc && i <= 5; ++i) {
        char* end = nullptr;
        const long value = std::strtol(argv[i], &end, 10);
        if (*end != '\0' || value <= 0) {
            std::cerr << "mlp_training: argument " << i << " ('" << argv[i]
                      << "') must be a positive integer\nusage: mlp_training [TILES] [BATCH] "
                         "[BATCHES] [HIDDEN] [EPOCHS]\n";
            return 2;
        }
        args[std::size_t(i - 1)] = std::size_t(value);
    }
    const unsigned tiles = unsigned(args[0]);
    const std::size_t B = args[1], batches = args[2], H = args[3];
    const unsigned epochs = unsigned(args[4]);
    const std::size_t F = kFeatures, C = kClasses;
    const float rate = 0.5f;
    try {
        IPUModel model("ipu2");
        model.tilesPerIPU = tiles;
        Device device = model.createDevice();
        Graph graph(device.getTarget());
        popops::addCodelets(graph);
        poplin::addCodelets(graph);
        popnn::addCodelets(graph);

        DebugInfo di(DebugContext("mlp"), "model");
        Tensor x = poplin::createMatMulInputLHS(graph, FLOAT, {B, F}, {F, H}, {di, "x"});
        Tensor labels = graph.addVariable(INT, {B}, {di, "labels"});
        poputil::mapTensorLinearly(graph, labels);
        Tensor w1 = poplin::createMatMulInputRHS(graph, FLOAT, {B, F}, {F, H}, {di, "w1"});
        Tensor w2 = poplin::createMatMulInputRHS(graph, FLOAT, {B, H}, {H, C}, {di, "w2"});
        Tensor b1 = graph.addVariable(FLOAT, {H}, {di, "b1"});
        Tensor b2 = graph.addVariable(FLOAT, {C}, {di, "b2"});
        Tensor loss = graph.addVariable(FLOAT, {B}, {di, "loss"});
        Tensor lossSum = graph.addVariable(FLOAT, {1}, {di, "lossSum"});
        for (const Tensor& t : {b1, b2, loss, lossSum})
            poputil::mapTensorLinearly(graph, t);
        for (const auto& [name, t] : {std::pair{"w1", w1}, {"w2", w2}, {"b1", b1}, {"b2", b2}}) {
            graph.createHostWrite(name, t);
            graph.createHostRead(name, t);
        }
        graph.createHostRead("lossSum", lossSum);
        DataStream xStream = graph.addHostToDeviceFIFO("x", FLOAT, B * F);
        DataStream labelStream = graph.addHostToDeviceFIFO("labels", INT, B);

        Sequence step;
        step.add(Copy(xStream, x, false, {di, "feedX"}));
        step.add(Copy(labelStream, labels, false, {di, "feedLabels"}));
        Tensor h = poplin::matMul(graph, x, w1, step, {di, "layer1"});
        popops::addInPlace(graph, h, b1, step, {di, "layer1/bias"});
        popnn::nonLinearityInPlace(graph, popnn::NonLinearityType::RELU, h, step,
                                   {di, "layer1/relu"});
        Tensor logits = poplin::matMul(graph, h, w2, step, {di, "layer2"});
        popops::addInPlace(graph, logits, b2, step, {di, "layer2/bias"});
        Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, step,
                                           {di, "softmax"});
        Tensor deltas = graph.clone(probs, {di, "deltas"});
        popnn::calcLoss(graph, probs, labels, loss, deltas, popnn::CROSS_ENTROPY_LOSS, step,
                        {di, "loss"});
        popops::reduceWithOutput(graph, loss, lossSum.reshape({}), {0},
                                 {popops::Operation::ADD, true}, step, {di, "sumLoss"});
        // Backward pass.
        Tensor gw2 = poplin::matMul(graph, h.transpose(), deltas, step, {di, "grad/w2"});
        Tensor gb2 =
            popops::reduce(graph, deltas, {0}, popops::Operation::ADD, step, {di, "grad/b2"});
        Tensor dh = poplin::matMul(graph, deltas, w2.transpose(), step, {di, "grad/h"});
        Tensor dz = popnn::nonLinearityInputGradient(graph, popnn::NonLinearityType::RELU, h, dh,
                                                     step, {di, "grad/relu"});
        Tensor gw1 = poplin::matMul(graph, x.transpose(), dz, step, {di, "grad/w1"});
        Tensor gb1 = popops::reduce(graph, dz, {0}, popops::Operation::ADD, step, {di, "grad/b1"});
        const float scale = -rate / float(B);
        popops::scaledAddTo(graph, w1, gw1, scale, step, {di, "update/w1"});
        popops::scaledAddTo(graph, b1, gb1, scale, step, {di, "update/b1"});
        popops::scaledAddTo(graph, w2, gw2, scale, step, {di, "update/w2"});
        popops::scaledAddTo(graph, b2, gb2, scale, step, {di, "update/b2"});

        Sequence epoch;
        popops::zero(graph, lossSum, epoch, {di, "resetLoss"});
        epoch.add(Repeat(unsigned(batches), step, {di, "batches"}));

        std::vector<float> xs;
        std::vector<int> ls;
        makeRings(B * batches, xs, ls);
        HostModel hostModel;
        const auto w1v = pseudoRandom(F * H, 1.0f, 1), w2v = pseudoRandom(H * C, 0.5f, 2);
        const auto b1v = pseudoRandom(H, 0.1f, 3), b2v = pseudoRandom(C, 0.1f, 4);
        hostModel.w1.assign(w1v.begin(), w1v.end());
        hostModel.w2.assign(w2v.begin(), w2v.end());
        hostModel.b1.assign(b1v.begin(), b1v.end());
        hostModel.b2.assign(b2v.begin(), b2v.end());

        Engine engine(graph, epoch);
        engine.load(device);
        engine.writeTensor("w1", w1v.data(), w1v.data() + w1v.size());
        engine.writeTensor("w2", w2v.data(), w2v.data() + w2v.size());
        engine.writeTensor("b1", b1v.data(), b1v.data() + b1v.size());
        engine.writeTensor("b2", b2v.data(), b2v.data() + b2v.size());
        // The host FIFOs: each callback hands out the next batch, wrapping at the epoch's end.
        std::size_t nextX = 0, nextLabels = 0;
        engine.connectStreamToCallback("x", [&](void* dst) {
            std::memcpy(dst, xs.data() + nextX * B * F, B * F * sizeof(float));
            nextX = (nextX + 1) % batches;
        });
        engine.connectStreamToCallback("labels", [&](void* dst) {
            std::memcpy(dst, ls.data() + nextLabels * B, B * sizeof(int));
            nextLabels = (nextLabels + 1) % batches;
        });
        std::vector<double> losses;
        for (unsigned e = 0; e < epochs; ++e) {
            engine.run(0);
            float sum = 0;
            engine.readTensor("lossSum", &sum, &sum + 1);
            losses.push_back(double(sum) / double(B * batches));
        }
        std::vector<float> w2out(H * C);
        engine.readTensor("w2", w2out.data(), w2out.data() + w2out.size());

        const auto want = hostTrain(hostModel, xs, ls, B, batches, H, epochs, rate);
        double maxError = 0;
        for (std::size_t i = 0; i < w2out.size(); ++i)
            maxError = std::max(maxError, std::abs(hostModel.w2[i] - w2out[i]));
        for (std::size_t e = 0; e < epochs; ++e)
            maxError = std::max(maxError, std::abs(want[e] - losses[e]));
        const bool ok = epochs >= 2 && losses.back() < 0.7 * losses.front() && maxError <= 2e-3;
        std::string list = "[";
        for (std::size_t e = 0; e < losses.size(); ++e)
            list += (e ? "," : "") + std::to_string(losses[e]);
        std::cout << "{\"example\":\"mlp_training\",\"mean_loss\":" << list
                  << "],\"max_error_vs_host\":" << maxError << ",\"ok\":" << (ok ? "true" : "false")
                  << "}\n";
        return ok ? 0 : 1;
    } catch (const poplar_error& e) {
        std::cerr << "mlp_training: " << e.what() << "\n";
        return 1;
    }
}
