// A convolution layer as an SDK user writes one with poplin and popnn: ConvParams with a stride,
// createInput/createWeights, the forward pass, the input gradient (getGradientParams with
// transposed, flipped weights), weight deltas, biases, max and average pooling and batch-norm
// statistics, on a 4x4 image holding 0..15. Prints every result for check.sh.

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/codelets.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static void print(Engine& engine, const std::string& name, std::size_t n) {
    std::vector<float> v(n);
    engine.readTensor(name, v.data(), v.data() + n);
    std::cout << name << ":";
    for (std::size_t i = 0; i < n; ++i) {
        char buf[32];
        std::snprintf(buf, sizeof buf, " %g", v[i]);
        std::cout << buf;
    }
    std::cout << "\n";
}

int main() {
    IPUModel ipuModel;
    ipuModel.tilesPerIPU = 4;
    Device device = ipuModel.createDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    popnn::addCodelets(graph);

    // 2x2 kernel of ones, stride 2: each output sums one 2x2 block.
    poplin::ConvParams params(FLOAT, 1, {4, 4}, {2, 2}, 1, 1, 1);
    params.outputTransform.stride = {2, 2};
    poplin::PlanningCache cache;
    Tensor in = poplin::createInput(graph, params, "in", {}, &cache);
    Tensor weights = poplin::createWeights(graph, params, "weights", {}, &cache);
    Sequence prog;
    Tensor out = poplin::convolution(graph, in, weights, params, false, prog, "fwd",
                                     {{"pass", "TRAINING_FWD"}}, &cache);
    Tensor biases = poplin::createBiases(graph, out);
    poplin::addBias(graph, out, biases, prog, "bias");

    Tensor deltas = graph.addVariable(FLOAT, {1, 1, 2, 2}, "deltas");
    poputil::mapTensorLinearly(graph, deltas);
    poplin::ConvParams bwdParams = poplin::getGradientParams(params);
    Tensor inGrad = poplin::convolution(graph, deltas, weights, bwdParams, true, prog, "bwd");
    Tensor weightDeltas = poplin::calculateWeightDeltas(graph, deltas, in, params, prog, "wu");

    popnn::pooling::PoolParams maxPool(popnn::PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0},
                                       {0, 0}, 1, 1, FLOAT);
    Tensor maxPooled = popnn::pooling::pool(graph, maxPool, in, prog, "maxPool");
    popnn::pooling::PoolParams avgPool(popnn::PoolingType::AVG, {4, 4}, {2, 2}, {2, 2}, {0, 0},
                                       {0, 0}, 1, 1, FLOAT);
    Tensor avgPooled = popnn::pooling::pool(graph, avgPool, in, prog, "avgPool");
    std::pair<Tensor, Tensor> stats =
        popnn::bn::batchNormStatistics(graph, in, 0.0f, prog, false);

    graph.createHostWrite("in", in);
    graph.createHostWrite("weights", weights);
    graph.createHostWrite("biases", biases);
    graph.createHostWrite("deltas", deltas);
    graph.createHostRead("out", out);
    graph.createHostRead("inGrad", inGrad);
    graph.createHostRead("weightDeltas", weightDeltas);
    graph.createHostRead("maxPooled", maxPooled);
    graph.createHostRead("avgPooled", avgPooled);
    graph.createHostRead("mean", stats.first);
    graph.createHostRead("invStdDev", stats.second);

    Engine engine(graph, prog);
    engine.load(device);
    std::vector<float> x(16), ones(4, 1.0f), bias(1, 100.0f);
    for (std::size_t i = 0; i < x.size(); ++i)
        x[i] = float(i);
    engine.writeTensor("in", x.data(), x.data() + x.size());
    engine.writeTensor("weights", ones.data(), ones.data() + ones.size());
    engine.writeTensor("biases", bias.data(), bias.data() + 1);
    engine.writeTensor("deltas", ones.data(), ones.data() + ones.size());
    engine.run(0);
    print(engine, "out", 4);
    print(engine, "inGrad", 16);
    print(engine, "weightDeltas", 4);
    print(engine, "maxPooled", 4);
    print(engine, "avgPooled", 4);
    print(engine, "mean", 1);
    print(engine, "invStdDev", 1);
    return 0;
}
