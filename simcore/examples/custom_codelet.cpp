// A custom codelet file compiled at run time: sums rows on four tiles, scales rows on all six
// workers of a tile, counts values above per-row thresholds, and widens half-precision data.
// Usage: custom_codelet <path/to/basic_codelets.cpp>

#include <exception>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static int run(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " <codelet file>\n";
        return 2;
    }
    IPUModel ipuModel;
    Device device = ipuModel.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets(argv[1]);

    Tensor m = graph.addVariable(FLOAT, {4, 4}, "m");
    Tensor sums = graph.addVariable(FLOAT, {4}, "sums");
    Tensor counts = graph.addVariable(UNSIGNED_INT, {4}, "counts");
    Tensor halves = graph.addVariable(HALF, {3}, "halves");
    Tensor widened = graph.addVariable(FLOAT, {3}, "widened");
    for (unsigned i = 0; i < 4; ++i) {
        graph.setTileMapping(m[i], i);
        graph.setTileMapping(sums[i], i);
    }
    graph.setTileMapping(counts, 0);
    graph.setTileMapping(halves, 1);
    graph.setTileMapping(widened, 1);

    ComputeSet sumCs = graph.addComputeSet("sum");
    for (unsigned i = 0; i < 4; ++i) {
        VertexRef v = graph.addVertex(sumCs, "SumVertex", {{"in", m[i]}, {"out", sums[i]}});
        graph.setTileMapping(v, i);
        graph.setPerfEstimate(v, 20);
    }

    ComputeSet scaleCs = graph.addComputeSet("scale");
    VertexRef scale = graph.addVertex(scaleCs, "ScaleRows");
    graph.connect(scale["rows"], m);
    graph.setInitialValue(scale["scale"], 10.0f);
    graph.setTileMapping(scale, 0);

    ComputeSet countCs = graph.addComputeSet("count");
    VertexRef count = graph.addVertex(countCs, "CountAbove");
    graph.setFieldSize(count["in"], 4);
    graph.setFieldSize(count["counts"], 4);
    for (unsigned i = 0; i < 4; ++i) {
        graph.connect(count["in"][i], m[i]);
        graph.connect(count["counts"][i], counts[i]);
    }
    graph.setInitialValue(count["thresholds"], ArrayRef<float>({0.0f, 50.0f, 100.0f, 1000.0f}));
    graph.setTileMapping(count, 0);

    ComputeSet widenCs = graph.addComputeSet("widen");
    VertexRef widen = graph.addVertex(widenCs, "HalfToFloat", {{"in", halves}, {"out", widened}});
    graph.setInitialValue(widen["factor"], 2.0f);
    graph.setTileMapping(widen, 1);

    graph.createHostWrite("m", m);
    graph.createHostWrite("halves", halves);

    Sequence prog{Execute(sumCs),   PrintTensor("sums", sums),
                  Execute(scaleCs), PrintTensor("scaled", m),
                  Execute(countCs), PrintTensor("counts", counts),
                  Execute(widenCs), PrintTensor("widened", widened)};

    Engine engine(graph, prog);
    engine.load(device);
    std::vector<float> host(16);
    for (unsigned i = 0; i < 16; ++i)
        host[i] = static_cast<float>(i);
    engine.writeTensor("m", host.data(), host.data() + host.size());
    // 0.1 is not representable in binary16: it rounds to 0.0999755859375.
    std::vector<half> h = {half(0.1f), half(1.5f), half(-2.0f)};
    engine.writeTensor("halves", h.data(), h.data() + h.size());
    engine.run(0);
    return 0;
}

// Bad input (a missing codelet file, an unreadable option) ends with the error's message and status
// 1, not std::terminate.
int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "custom_codelet: " << e.what() << "\n";
        return 1;
    }
}
