// A small convolutional network trained on synthetic images with the PopLibs subset: a 3x3
// convolution (poplin), batch normalisation (popnn::bn), ReLU, 2x2 max pooling
// (popnn::pooling), a fully connected layer (poplin::matMul) with bias, softmax and
// cross-entropy (popnn::calcLoss), and SGD. The backward pass runs the pooling, ReLU and batch
// norm gradients, the convolution's weight deltas and bias gradient
// (poplin::convolutionWeightUpdate, convolutionBiasUpdate) and the matrix products' gradients.
// One engine run is one epoch: program::Repeat over the batches, fed from the host through
// FIFOs.
//
//   cnn_training [TILES] [BATCH] [BATCHES] [EPOCHS] [SIZE]   (default 16 16 4 8 8)
//
// The images are SIZE x SIZE, one channel: noise plus a bright 3x3 blob in one of four
// quadrants, the quadrant being the class. Prints one JSON line with the mean loss per epoch and
// the host wall time of one training step (one batch) averaged over the epochs after the first;
// exit status 1 unless the loss falls below half of the first epoch's.

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <poplar/DebugInfo.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduction.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr std::size_t kClasses = 4, kChannels = 8;

std::vector<float> pseudoRandom(std::size_t n, float scale, unsigned seed) {
    std::vector<float> v(n);
    std::uint32_t s = seed * 2654435761u + 7u;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = scale * (float((s >> 8) & 0xffff) / 32768.0f - 1.0f);
    }
    return v;
}

/// `n` images of size x size with a blob in the quadrant of their label.
void makeImages(std::size_t n, std::size_t size, std::vector<float>& x, std::vector<int>& labels) {
    x = pseudoRandom(n * size * size, 0.3f, 5);
    labels.resize(n);
    const auto where = pseudoRandom(2 * n, 1.0f, 6);
    const std::size_t half = size / 2;
    for (std::size_t i = 0; i < n; ++i) {
        const int label = int((i * 7 + i / 3) % kClasses);
        labels[i] = label;
        // The blob's centre anywhere inside the quadrant (at least one pixel from its edges).
        const std::size_t span = half > 2 ? half - 2 : 1;
        const std::size_t cy =
            (label / 2) * half + 1 + std::size_t((where[2 * i] + 1) * 0.5f * span) % span;
        const std::size_t cx =
            (label % 2) * half + 1 + std::size_t((where[2 * i + 1] + 1) * 0.5f * span) % span;
        for (std::size_t dy = 0; dy < 3; ++dy)
            for (std::size_t dx = 0; dx < 3; ++dx) {
                const std::size_t y = cy + dy - 1, xx = cx + dx - 1;
                if (y < size && xx < size)
                    x[(i * size + y) * size + xx] += 1.0f;
            }
    }
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> args{16, 16, 4, 8, 8};
    for (int i = 1; i < argc && i <= 5; ++i) {
        char* end = nullptr;
        const long value = std::strtol(argv[i], &end, 10);
        if (*end != '\0' || value <= 0 || (i == 5 && (value < 4 || value % 2))) {
            std::cerr << "cnn_training: argument " << i << " ('" << argv[i]
                      << "') must be a positive integer (SIZE even and at least 4)\nusage: "
                         "cnn_training [TILES] [BATCH] [BATCHES] [EPOCHS] [SIZE]\n";
            return 2;
        }
        args[std::size_t(i - 1)] = std::size_t(value);
    }
    const unsigned tiles = unsigned(args[0]);
    const std::size_t B = args[1], batches = args[2], S = args[4];
    const unsigned epochs = unsigned(args[3]);
    const std::size_t C = kChannels, P = S / 2, flat = C * P * P;
    const float rate = 0.05f;
    try {
        IPUModel model("ipu2");
        model.tilesPerIPU = tiles;
        Device device = model.createDevice();
        Graph graph(device.getTarget());
        popops::addCodelets(graph);
        poplin::addCodelets(graph);
        popnn::addCodelets(graph);
        poplin::PlanningCache cache;

        DebugInfo di(DebugContext("cnn"), "model");
        // conv 3x3, 1 -> C channels, padding 1: the output has the input's size.
        poplin::ConvParams conv(FLOAT, B, {S, S}, {3, 3}, 1, C, 1);
        conv.inputTransform.paddingLower = {1, 1};
        conv.inputTransform.paddingUpper = {1, 1};
        Tensor x = poplin::createInput(graph, conv, {di, "x"}, {}, &cache);
        Tensor w = poplin::createWeights(graph, conv, {di, "convWeights"}, {}, &cache);
        Tensor labels = graph.addVariable(INT, {B}, {di, "labels"});
        poputil::mapTensorLinearly(graph, labels);
        Tensor gamma = graph.addVariable(FLOAT, {C}, {di, "gamma"});
        Tensor beta = graph.addVariable(FLOAT, {C}, {di, "beta"});
        Tensor wfc = poplin::createMatMulInputRHS(graph, FLOAT, {B, flat}, {flat, kClasses},
                                                  {di, "fcWeights"}, {}, &cache);
        Tensor bfc = graph.addVariable(FLOAT, {kClasses}, {di, "fcBias"});
        Tensor loss = graph.addVariable(FLOAT, {B}, {di, "loss"});
        Tensor lossSum = graph.addVariable(FLOAT, {1}, {di, "lossSum"});
        for (const Tensor& t : {gamma, beta, bfc, loss, lossSum})
            poputil::mapTensorLinearly(graph, t);
        for (const auto& [name, t] :
             {std::pair{"w", w}, {"gamma", gamma}, {"beta", beta}, {"wfc", wfc}, {"bfc", bfc}})
            graph.createHostWrite(name, t);
        graph.createHostWrite("lossSum", lossSum);
        graph.createHostRead("lossSum", lossSum);
        DataStream xStream = graph.addHostToDeviceFIFO("x", FLOAT, B * S * S);
        DataStream labelStream = graph.addHostToDeviceFIFO("labels", INT, B);

        Sequence step;
        step.add(Copy(xStream, x, false, {di, "feedX"}));
        step.add(Copy(labelStream, labels, false, {di, "feedLabels"}));
        // Forward.
        Tensor c = poplin::convolution(graph, x, w, conv, false, step, {di, "conv"},
                                       {{"pass", "TRAINING_FWD"}}, &cache);
        auto [mean, invStd] =
            popnn::bn::batchNormStatistics(graph, c, 1e-5f, step, false, false, FLOAT, {di, "bn"});
        auto [normed, whitened] =
            popnn::bn::batchNormalise(graph, c, gamma, beta, mean, invStd, step, {di, "bn"});
        Tensor r =
            popnn::nonLinearity(graph, popnn::NonLinearityType::RELU, normed, step, {di, "relu"});
        const popnn::pooling::PoolParams pool(popnn::PoolingType::MAX, {S, S}, {2, 2}, {2, 2},
                                              {0, 0}, {0, 0}, C, B, FLOAT);
        Tensor pooled = popnn::pooling::pool(graph, pool, r, step, {di, "pool"});
        Tensor features = pooled.reshape({B, flat});
        Tensor logits = poplin::matMul(graph, features, wfc, step, {di, "fc"}, {}, &cache);
        popops::addInPlace(graph, logits, bfc, step, {di, "fc/bias"});
        Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, step,
                                           {di, "softmax"});
        Tensor deltas = graph.clone(probs, {di, "deltas"});
        popnn::calcLoss(graph, probs, labels, loss, deltas, popnn::CROSS_ENTROPY_LOSS, step,
                        {di, "loss"});
        popops::reduceWithOutput(graph, loss, lossSum.reshape({}), {0},
                                 {popops::Operation::ADD, true}, step, {di, "sumLoss"});
        // Backward: the fully connected layer, pooling, ReLU, batch norm, convolution weights.
        const float s = rate / float(B);
        Tensor gwfc =
            poplin::matMul(graph, features.transpose(), deltas, step, {di, "grad/fc"}, {}, &cache);
        Tensor gbfc =
            popops::reduce(graph, deltas, {0}, popops::Operation::ADD, step, {di, "grad/fcBias"});
        Tensor gFeatures =
            poplin::matMul(graph, deltas, wfc.transpose(), step, {di, "grad/features"}, {}, &cache);
        Tensor gPooled = gFeatures.reshape(pooled.shape());
        Tensor gr = popnn::pooling::poolInputGradient(graph, pool, r, pooled, gPooled, false, step,
                                                      {di, "grad/pool"});
        Tensor gNormed = popnn::nonLinearityInputGradient(graph, popnn::NonLinearityType::RELU, r,
                                                          gr, step, {di, "grad/relu"});
        auto [gGamma, gBeta] = popnn::bn::batchNormParamGradients(graph, whitened, gNormed, step,
                                                                  FLOAT, {di, "grad/bnParams"});
        Tensor gc = popnn::bn::batchNormGradients(graph, whitened, gNormed, invStd, gamma, step,
                                                  FLOAT, {di, "grad/bn"});
        poplin::convolutionWeightUpdate(graph, gc, w, x, conv, -s, step, {di, "update/conv"},
                                        {{"pass", "TRAINING_WU"}}, &cache);
        popnn::bn::batchNormParamUpdate(graph, gGamma, gBeta, s, gamma, beta, step,
                                        {di, "update/bn"});
        popops::scaledAddTo(graph, wfc, gwfc, -s, step, {di, "update/fc"});
        popops::scaledAddTo(graph, bfc, gbfc, -s, step, {di, "update/fcBias"});

        Engine engine(graph, Repeat(unsigned(batches), step, {di, "epoch"}));
        engine.load(device);

        std::vector<float> images;
        std::vector<int> classes;
        makeImages(B * batches, S, images, classes);
        std::size_t next = 0;
        engine.connectStreamToCallback("x", [&](void* p) {
            std::copy_n(images.data() + next * B * S * S, B * S * S, static_cast<float*>(p));
        });
        engine.connectStreamToCallback("labels", [&](void* p) {
            std::copy_n(classes.data() + next * B, B, static_cast<int*>(p));
            next = (next + 1) % batches;
        });
        const auto w0 = pseudoRandom(C * 9, 0.5f, 1);
        const auto wfc0 = pseudoRandom(flat * kClasses, 0.1f, 2);
        const std::vector<float> ones(C, 1.0f), zeros(std::max(C, kClasses), 0.0f);
        engine.writeTensor("w", w0.data(), w0.data() + w0.size());
        engine.writeTensor("gamma", ones.data(), ones.data() + C);
        engine.writeTensor("beta", zeros.data(), zeros.data() + C);
        engine.writeTensor("wfc", wfc0.data(), wfc0.data() + wfc0.size());
        engine.writeTensor("bfc", zeros.data(), zeros.data() + kClasses);

        std::vector<double> losses;
        double warmSeconds = 0;
        for (unsigned e = 0; e < epochs; ++e) {
            float zero = 0.0f, sum = 0.0f;
            engine.writeTensor("lossSum", &zero, &zero + 1);
            const auto start = std::chrono::steady_clock::now();
            engine.run(0);
            if (e > 0 || epochs == 1)
                warmSeconds +=
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            engine.readTensor("lossSum", &sum, &sum + 1);
            losses.push_back(double(sum) / double(B * batches));
        }
        const bool ok = losses.back() < 0.5 * losses.front();
        std::cout << "{\"example\":\"cnn_training\",\"tiles\":" << tiles << ",\"batch\":" << B
                  << ",\"batches\":" << batches << ",\"size\":" << S << ",\"losses\":[";
        for (std::size_t i = 0; i < losses.size(); ++i)
            std::cout << (i ? "," : "") << losses[i];
        const double steps = double(batches) * (epochs > 1 ? epochs - 1 : 1);
        std::cout << "],\"step_wall_s\":" << warmSeconds / steps
                  << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "cnn_training: " << e.what() << "\n";
        return 1;
    }
}
