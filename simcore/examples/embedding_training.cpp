// An embedding lookup followed by a linear classifier, trained by gradient descent with the
// PopLibs subset: h = E[tokens] (popops::multiSlice with indices read at run time), logits = h W,
// softmax cross-entropy (popnn::calcLoss), dW = h^T deltas, dh = deltas W^T, and the embedding's
// gradient scattered back with popops::multiUpdateAdd (repeated tokens accumulate), both updates
// scaled by -rate / batch. The embedding is laid out by popops::embedding::plan. One engine run
// is one epoch over a fixed batch; the host reads the loss after each.
//
//   embedding_training [TILES] [VOCAB] [DIM] [CLASSES] [BATCH] [EPOCHS] [MEMORY]
//   (default 16 100 8 4 64 20; MEMORY, if given, is the plan's availableMemoryProportion: a
//   small share splits the table's entries over more tiles)
//
// A token's class is token % CLASSES, so the embedding has to learn it. Prints one JSON line with
// the mean loss per epoch; exit status 1 unless the loss falls every epoch and the trained
// embedding and weights match the same training done on the host in double within 1e-3.

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
#include <popops/DynamicSlice.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

struct Sizes {
    std::size_t vocab, dim, classes, batch;
};

/// The batch's tokens (with repeats) and labels, and the embedding's initial values.
struct Data {
    std::vector<unsigned> tokens;
    std::vector<int> labels;
    std::vector<float> embedding; // vocab x dim
};

Data makeData(const Sizes& s) {
    std::uint32_t r = 77;
    auto next = [&] {
        r = r * 1664525u + 1013904223u;
        return r >> 8;
    };
    Data d;
    for (std::size_t i = 0; i < s.batch; ++i) {
        // Half the batch from the first few tokens, so repeated indices are common.
        const unsigned t =
            unsigned(i % 2 ? next() % s.vocab : next() % std::min<std::size_t>(5, s.vocab));
        d.tokens.push_back(t);
        d.labels.push_back(int(t % s.classes));
    }
    for (std::size_t i = 0; i < s.vocab * s.dim; ++i)
        d.embedding.push_back(float(next() % 2001) / 1000.0f - 1.0f);
    return d;
}

/// The same training on the host in double; returns the embedding followed by the weights.
std::vector<double> hostTrain(const Data& d, const Sizes& s, unsigned epochs, double rate) {
    std::vector<double> e(d.embedding.begin(), d.embedding.end()), w(s.dim * s.classes, 0.0);
    const double step = rate / double(s.batch);
    for (unsigned epoch = 0; epoch < epochs; ++epoch) {
        std::vector<double> h(s.batch * s.dim), delta(s.batch * s.classes);
        for (std::size_t i = 0; i < s.batch; ++i) {
            for (std::size_t k = 0; k < s.dim; ++k)
                h[i * s.dim + k] = e[d.tokens[i] * s.dim + k];
            std::vector<double> logit(s.classes, 0.0);
            double mx = -1e300, sum = 0;
            for (std::size_t c = 0; c < s.classes; ++c) {
                for (std::size_t k = 0; k < s.dim; ++k)
                    logit[c] += h[i * s.dim + k] * w[k * s.classes + c];
                mx = std::max(mx, logit[c]);
            }
            for (auto& l : logit)
                sum += (l = std::exp(l - mx));
            for (std::size_t c = 0; c < s.classes; ++c)
                delta[i * s.classes + c] = logit[c] / sum - (int(c) == d.labels[i] ? 1.0 : 0.0);
        }
        std::vector<double> dh(s.batch * s.dim, 0.0);
        for (std::size_t i = 0; i < s.batch; ++i)
            for (std::size_t k = 0; k < s.dim; ++k)
                for (std::size_t c = 0; c < s.classes; ++c)
                    dh[i * s.dim + k] += delta[i * s.classes + c] * w[k * s.classes + c];
        for (std::size_t k = 0; k < s.dim; ++k)
            for (std::size_t c = 0; c < s.classes; ++c) {
                double g = 0;
                for (std::size_t i = 0; i < s.batch; ++i)
                    g += h[i * s.dim + k] * delta[i * s.classes + c];
                w[k * s.classes + c] -= step * g;
            }
        for (std::size_t i = 0; i < s.batch; ++i)
            for (std::size_t k = 0; k < s.dim; ++k)
                e[d.tokens[i] * s.dim + k] -= step * dh[i * s.dim + k];
    }
    e.insert(e.end(), w.begin(), w.end());
    return e;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> args{16, 100, 8, 4, 64, 20};
    for (int i = 1; i < argc && i <= 6; ++i) {
        char* end = nullptr;
        const long value = std::strtol(argv[i], &end, 10);
        if (*end != '\0' || value <= 0) {
            std::cerr << "embedding_training: argument " << i << " ('" << argv[i]
                      << "') must be a positive integer\nusage: embedding_training [TILES] "
                         "[VOCAB] [DIM] [CLASSES] [BATCH] [EPOCHS] [MEMORY]\n";
            return 2;
        }
        args[std::size_t(i - 1)] = std::size_t(value);
    }
    const unsigned tiles = unsigned(args[0]);
    const Sizes s{args[1], args[2], args[3], args[4]};
    const unsigned epochs = unsigned(args[5]);
    if (s.classes < 2) {
        std::cerr << "embedding_training: CLASSES must be at least 2\n";
        return 2;
    }
    poplar::OptionFlags planOptions;
    if (argc > 7)
        planOptions.set("availableMemoryProportion", argv[7]);
    const float rate = 0.5f;
    try {
        IPUModel model("ipu2");
        model.tilesPerIPU = tiles;
        Device device = model.createDevice();
        Graph graph(device.getTarget());
        popops::addCodelets(graph);
        poplin::addCodelets(graph);
        popnn::addCodelets(graph);

        DebugInfo di(DebugContext("embedding"), "model");
        const popops::SlicePlan plan =
            popops::embedding::plan(graph, FLOAT, s.vocab, s.dim, {s.batch}, planOptions);
        Tensor table = popops::createSliceableTensor(graph, FLOAT, {s.vocab, s.dim}, {0}, {1}, plan,
                                                     {}, {di, "embedding"});
        Tensor tokens = popops::createIndicesTensor(graph, {0}, s.batch, plan, {}, {di, "tokens"});
        Tensor labels = graph.addVariable(INT, {s.batch}, {di, "labels"});
        poputil::mapTensorLinearly(graph, labels);
        Tensor w = poplin::createMatMulInputRHS(graph, FLOAT, {s.batch, s.dim}, {s.dim, s.classes},
                                                {di, "weights"});
        Tensor loss = graph.addVariable(FLOAT, {s.batch}, {di, "loss"});
        poputil::mapTensorLinearly(graph, loss);
        Tensor correct = graph.addVariable(INT, {}, {di, "correct"});
        graph.setTileMapping(correct, 0);
        Tensor step = graph.addConstant(FLOAT, {}, -rate / float(s.batch), {di, "step"});
        graph.setTileMapping(step, 0);
        graph.createHostWrite("embedding", table);
        graph.createHostWrite("tokens", tokens);
        graph.createHostWrite("labels", labels);
        graph.createHostRead("embedding", table);
        graph.createHostRead("weights", w);
        graph.createHostRead("loss", loss);

        Sequence init;
        popops::zero(graph, w, init, {di, "initWeights"});

        Sequence epoch;
        Tensor h =
            popops::multiSlice(graph, table, tokens, {0}, {1}, epoch, plan, {}, {di, "lookup"})
                .reshape({s.batch, s.dim});
        Tensor logits = poplin::matMul(graph, h, w, epoch, {di, "logits"});
        Tensor probs = popnn::nonLinearity(graph, popnn::NonLinearityType::SOFTMAX, logits, epoch,
                                           {di, "softmax"});
        Tensor deltas = graph.clone(probs, {di, "deltas"});
        popnn::calcLoss(graph, probs, labels, loss, deltas, correct, popnn::CROSS_ENTROPY_LOSS,
                        epoch, {di, "loss"});
        Tensor gradW = poplin::matMul(graph, h.transpose(), deltas, epoch, {di, "gradWeights"});
        Tensor gradH = poplin::matMul(graph, deltas, w.transpose(), epoch, {di, "gradLookup"});
        popops::scaledAddTo(graph, w, gradW, -rate / float(s.batch), epoch, {di, "updateWeights"});
        popops::multiUpdateAdd(graph, table, gradH.reshape({s.batch, 1, s.dim}), tokens, step, {0},
                               {1}, epoch, plan, {}, {di, "updateEmbedding"});

        const Data data = makeData(s);
        Engine engine(graph, {init, epoch});
        engine.load(device);
        engine.writeTensor("embedding", data.embedding.data(),
                           data.embedding.data() + data.embedding.size());
        engine.writeTensor("tokens", data.tokens.data(), data.tokens.data() + data.tokens.size());
        engine.writeTensor("labels", data.labels.data(), data.labels.data() + data.labels.size());
        engine.run(0);
        std::vector<double> meanLoss;
        std::vector<float> lossv(s.batch);
        for (unsigned e = 0; e < epochs; ++e) {
            engine.run(1);
            engine.readTensor("loss", lossv.data(), lossv.data() + lossv.size());
            double sum = 0;
            for (float l : lossv)
                sum += l;
            meanLoss.push_back(sum / double(s.batch));
        }
        std::vector<float> ev(s.vocab * s.dim), wv(s.dim * s.classes);
        engine.readTensor("embedding", ev.data(), ev.data() + ev.size());
        engine.readTensor("weights", wv.data(), wv.data() + wv.size());
        ev.insert(ev.end(), wv.begin(), wv.end());
        const auto want = hostTrain(data, s, epochs, rate);
        double maxError = 0;
        for (std::size_t i = 0; i < want.size(); ++i)
            maxError = std::max(maxError, std::abs(want[i] - ev[i]));

        bool lossFalls = epochs >= 2;
        for (std::size_t e = 1; e < meanLoss.size(); ++e)
            lossFalls = lossFalls && meanLoss[e] < meanLoss[e - 1];
        const bool ok = lossFalls && maxError < 1e-3;
        std::cout << "{\"example\":\"embedding_training\",\"plan\":\"" << plan << "\",\"loss\":[";
        for (std::size_t e = 0; e < meanLoss.size(); ++e)
            std::cout << (e ? "," : "") << meanLoss[e];
        std::cout << "],\"max_error\":" << maxError << ",\"ok\":" << (ok ? "true" : "false")
                  << "}\n";
        return ok ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "embedding_training: " << e.what() << "\n";
        return 1;
    }
}
