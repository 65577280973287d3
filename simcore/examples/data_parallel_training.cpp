// Data-parallel training over replicas: the two-layer perceptron of mlp_training, built once as
// a replicated graph (poplar::replication_factor). Each replica reads its own quarter of every
// global batch from REPLICATE streams (a callback per replica), computes gradients of its part,
// and gcl::allReduceInPlaceCrossReplica sums the gradients over the replicas before every
// replica applies the same update. The same program is then built with one replica that reads
// the whole global batch; after the same number of epochs both must hold the same weights.
//
//   data_parallel_training [REPLICAS] [TILES] [BATCH] [BATCHES] [HIDDEN] [EPOCHS]
//                          (default 4 16 32 6 16 6; BATCH is the global batch)
//
// Prints one JSON line (the loss per epoch, the largest difference between the replicated and
// the one-replica weights, cycles of one epoch each way); exit status 1 unless every replica
// holds identical weights, they equal the one-replica run's within 1e-5, and the loss falls.

#include "RingsDataset.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <gcl/Collectives.hpp>
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
#include <tilescope/capture/ProfileRecords.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

using rings::kClasses;
using rings::kFeatures;
using rings::makeRings;
using rings::pseudoRandom;

struct Settings {
    unsigned replicas = 4, tiles = 16;
    std::size_t batch = 32, batches = 6, hidden = 16;
    unsigned epochs = 6;
    float rate = 0.5f;
};

struct Result {
    std::vector<double> losses;              ///< mean loss per epoch (over the global batch)
    std::vector<std::vector<float>> weights; ///< w1, b1, w2, b2 of every replica, one after another
    std::uint64_t epochCycles = 0;
};

/// Trains on `replicas` replicas, each taking batch / replicas samples of every global batch.
Result train(const Settings& s, unsigned replicas, const std::vector<float>& xs,
             const std::vector<int>& ls) {
    const std::size_t F = kFeatures, C = kClasses, H = s.hidden;
    const std::size_t B = s.batch / replicas; // this replica's part of the global batch
    IPUModel model("ipu2");
    model.numIPUs = replicas;
    model.tilesPerIPU = s.tiles;
    Device device = model.createDevice();
    Graph graph(device.getTarget(), replication_factor(replicas));
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    popnn::addCodelets(graph);

    DebugInfo di(DebugContext("dataParallel"), "model");
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
    const std::vector<std::pair<std::string, Tensor>> params{
        {"w1", w1}, {"b1", b1}, {"w2", w2}, {"b2", b2}};
    for (const auto& [name, t] : params) {
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
    popnn::nonLinearityInPlace(graph, popnn::NonLinearityType::RELU, h, step, {di, "layer1/relu"});
    Tensor logits = poplin::matMul(graph, h, w2, step, {di, "layer2"});
    popops::addInPlace(graph, logits, b2, step, {di, "layer2/bias"});
    Tensor probs =
        popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, step, {di, "softmax"});
    Tensor deltas = graph.clone(probs, {di, "deltas"});
    popnn::calcLoss(graph, probs, labels, loss, deltas, popnn::CROSS_ENTROPY_LOSS, step,
                    {di, "loss"});
    popops::reduceWithOutput(graph, loss, lossSum.reshape({}), {0}, {popops::Operation::ADD, true},
                             step, {di, "sumLoss"});
    Tensor gw2 = poplin::matMul(graph, h.transpose(), deltas, step, {di, "grad/w2"});
    Tensor gb2 = popops::reduce(graph, deltas, {0}, popops::Operation::ADD, step, {di, "grad/b2"});
    Tensor dh = poplin::matMul(graph, deltas, w2.transpose(), step, {di, "grad/h"});
    Tensor dz = popnn::nonLinearityInputGradient(graph, popnn::NonLinearityType::RELU, h, dh, step,
                                                 {di, "grad/relu"});
    Tensor gw1 = poplin::matMul(graph, x.transpose(), dz, step, {di, "grad/w1"});
    Tensor gb1 = popops::reduce(graph, dz, {0}, popops::Operation::ADD, step, {di, "grad/b1"});
    // The gradients of the whole global batch: every replica's sums added over the IPU-Links.
    std::vector<Tensor> grads{gw1, gb1, gw2, gb2};
    gcl::allReduceInPlaceCrossReplica(graph, grads, gcl::CollectiveOperator::ADD, step,
                                      {di, "grad/allReduce"});
    const float scale = -s.rate / float(s.batch);
    popops::scaledAddTo(graph, w1, grads[0], scale, step, {di, "update/w1"});
    popops::scaledAddTo(graph, b1, grads[1], scale, step, {di, "update/b1"});
    popops::scaledAddTo(graph, w2, grads[2], scale, step, {di, "update/w2"});
    popops::scaledAddTo(graph, b2, grads[3], scale, step, {di, "update/b2"});

    Sequence epoch;
    popops::zero(graph, lossSum, epoch, {di, "resetLoss"});
    epoch.add(Repeat(unsigned(s.batches), step, {di, "batches"}));

    Engine engine(graph, epoch);
    engine.load(device);
    // Every replica starts from the same weights (a buffer of one copy goes to each).
    const std::vector<std::vector<float>> initial{
        pseudoRandom(F * H, 1.0f, 1), pseudoRandom(H, 0.1f, 3), pseudoRandom(H * C, 0.5f, 2),
        pseudoRandom(C, 0.1f, 4)};
    for (std::size_t p = 0; p < params.size(); ++p)
        engine.writeTensor(params[p].first, initial[p].data(),
                           initial[p].data() + initial[p].size());
    // Replica r takes samples [r * B, (r + 1) * B) of each global batch.
    std::vector<std::size_t> nextX(replicas, 0), nextLabels(replicas, 0);
    for (unsigned r = 0; r < replicas; ++r) {
        engine.connectStreamToCallback("x", r, [&, r](void* dst) {
            const std::size_t first = nextX[r] * s.batch + r * B;
            std::memcpy(dst, xs.data() + first * F, B * F * sizeof(float));
            nextX[r] = (nextX[r] + 1) % s.batches;
        });
        engine.connectStreamToCallback("labels", r, [&, r](void* dst) {
            const std::size_t first = nextLabels[r] * s.batch + r * B;
            std::memcpy(dst, ls.data() + first, B * sizeof(int));
            nextLabels[r] = (nextLabels[r] + 1) % s.batches;
        });
    }
    Result out;
    for (unsigned e = 0; e < s.epochs; ++e) {
        engine.run(0);
        std::vector<float> sums(replicas); // one per replica: its part of the global batch
        engine.readTensor("lossSum", sums.data(), sums.data() + sums.size());
        double total = 0;
        for (float v : sums)
            total += v;
        out.losses.push_back(total / double(s.batch * s.batches));
    }
    for (const auto& [name, t] : params) {
        std::vector<float> all(t.numElements() * replicas);
        engine.readTensor(name, all.data(), all.data() + all.size());
        out.weights.push_back(std::move(all));
    }
    const auto& runs = engine.executionRecords().runs;
    out.epochCycles = runs.empty() ? 0 : runs.back().totalCycles;
    return out;
}

} // namespace

int main(int argc, char** argv) {
    Settings s;
    std::vector<std::size_t> args{s.replicas, s.tiles, s.batch, s.batches, s.hidden, s.epochs};
    for (int i = 1; i < argc && i <= 6; ++i) {
        char* end = nullptr;
        const long value = std::strtol(argv[i], &end, 10);
        if (*end != '\0' || value <= 0) {
            std::cerr << "data_parallel_training: argument " << i << " ('" << argv[i]
                      << "') must be a positive integer\nusage: data_parallel_training "
                         "[REPLICAS] [TILES] [BATCH] [BATCHES] [HIDDEN] [EPOCHS]\n";
            return 2;
        }
        args[std::size_t(i - 1)] = std::size_t(value);
    }
    s.replicas = unsigned(args[0]);
    s.tiles = unsigned(args[1]);
    s.batch = args[2];
    s.batches = args[3];
    s.hidden = args[4];
    s.epochs = unsigned(args[5]);
    if (s.batch % s.replicas != 0) {
        std::cerr << "data_parallel_training: the global batch (" << s.batch
                  << ") must be a multiple of the replica count (" << s.replicas << ")\n";
        return 2;
    }
    try {
        std::vector<float> xs;
        std::vector<int> ls;
        makeRings(s.batch * s.batches, xs, ls);
        const Result replicated = train(s, s.replicas, xs, ls);
        const Result single = train(s, 1, xs, ls);
        // Every replica holds the same weights, and they are the one-replica run's.
        bool identical = true;
        double maxDifference = 0;
        for (std::size_t p = 0; p < single.weights.size(); ++p) {
            const auto& one = single.weights[p];
            const auto& all = replicated.weights[p];
            for (unsigned r = 0; r < s.replicas; ++r)
                for (std::size_t i = 0; i < one.size(); ++i) {
                    const float w = all[r * one.size() + i];
                    identical = identical && w == all[i];
                    maxDifference = std::max(maxDifference, double(std::abs(w - one[i])));
                }
        }
        double lossDifference = 0;
        for (std::size_t e = 0; e < single.losses.size(); ++e)
            lossDifference =
                std::max(lossDifference, std::abs(single.losses[e] - replicated.losses[e]));
        const bool ok = identical && maxDifference <= 1e-5 && lossDifference <= 1e-5 &&
                        s.epochs >= 2 && replicated.losses.back() < 0.9 * replicated.losses.front();
        std::string list = "[";
        for (std::size_t e = 0; e < replicated.losses.size(); ++e)
            list += (e ? "," : "") + std::to_string(replicated.losses[e]);
        std::cout << "{\"example\":\"data_parallel_training\",\"replicas\":" << s.replicas
                  << ",\"mean_loss\":" << list
                  << "],\"replicas_identical\":" << (identical ? "true" : "false")
                  << ",\"max_weight_difference_vs_one_replica\":" << maxDifference
                  << ",\"epoch_cycles\":" << replicated.epochCycles
                  << ",\"epoch_cycles_one_replica\":" << single.epochCycles
                  << ",\"ok\":" << (ok ? "true" : "false") << "}\n";
        return ok ? 0 : 1;
    } catch (const poplar_error& e) {
        std::cerr << "data_parallel_training: " << e.what() << "\n";
        return 1;
    }
}
