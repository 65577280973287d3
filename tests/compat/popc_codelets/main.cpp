// Loads codelets built ahead of time by popc (codelets.gp) and runs them on the IPU model.
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel ipuModel;
    Device device = ipuModel.createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets("codelets.gp");

    Tensor count = graph.addVariable(UNSIGNED_INT, {}, "count");
    Tensor xf = graph.addVariable(FLOAT, {3}, "xf");
    Tensor yf = graph.addVariable(FLOAT, {3}, "yf");
    Tensor xi = graph.addVariable(INT, {3}, "xi");
    Tensor yi = graph.addVariable(INT, {3}, "yi");
    Tensor v = graph.addVariable(FLOAT, {4}, "v");
    Tensor norm = graph.addVariable(FLOAT, {}, "norm");
    graph.setTileMapping(count, 0);
    graph.setTileMapping(xf, 1);
    graph.setTileMapping(yf, 1);
    graph.setTileMapping(xi, 2);
    graph.setTileMapping(yi, 2);
    graph.setTileMapping(v, 3);
    graph.setTileMapping(norm, 3);
    graph.setInitialValue(count, 0u);

    ComputeSet cs = graph.addComputeSet("step");
    VertexRef counter = graph.addVertex(cs, "Counter", {{"count", count}});
    graph.setTileMapping(counter, 0);
    VertexRef axpyF = graph.addVertex(cs, "Axpy<float>", {{"x", xf}, {"y", yf}});
    graph.setInitialValue(axpyF["a"], 0.5f);
    graph.setTileMapping(axpyF, 1);
    VertexRef axpyI = graph.addVertex(cs, "Axpy<int>", {{"x", xi}, {"y", yi}});
    graph.setInitialValue(axpyI["a"], 2);
    graph.setTileMapping(axpyI, 2);
    ComputeSet normCs = graph.addComputeSet("norm");
    VertexRef n = graph.addVertex(normCs, "Norm", {{"in", v}, {"out", norm}});
    graph.setTileMapping(n, 3);

    graph.createHostWrite("xf", xf);
    graph.createHostWrite("yf", yf);
    graph.createHostWrite("xi", xi);
    graph.createHostWrite("yi", yi);
    graph.createHostWrite("v", v);
    graph.createHostRead("count", count);
    graph.createHostRead("yf", yf);
    graph.createHostRead("yi", yi);
    graph.createHostRead("norm", norm);

    Engine engine(graph, Sequence({Repeat(4, Execute(cs)), Execute(normCs)}));
    engine.load(device);
    std::vector<float> hxf = {1.0f, 2.0f, 4.0f}, hyf = {0.0f, 0.5f, 1.0f};
    std::vector<int> hxi = {1, 2, 3}, hyi = {10, 20, 30};
    std::vector<float> hv = {1.0f, 2.0f, 2.0f, 4.0f};
    engine.writeTensor("xf", hxf.data(), hxf.data() + hxf.size());
    engine.writeTensor("yf", hyf.data(), hyf.data() + hyf.size());
    engine.writeTensor("xi", hxi.data(), hxi.data() + hxi.size());
    engine.writeTensor("yi", hyi.data(), hyi.data() + hyi.size());
    engine.writeTensor("v", hv.data(), hv.data() + hv.size());
    engine.run(0);

    unsigned c = 0;
    float nv = 0;
    engine.readTensor("count", &c, &c + 1);
    engine.readTensor("yf", hyf.data(), hyf.data() + hyf.size());
    engine.readTensor("yi", hyi.data(), hyi.data() + hyi.size());
    engine.readTensor("norm", &nv, &nv + 1);
    std::cout << "count: " << c << "\n";
    std::cout << "yf:";
    for (float x : hyf)
        std::cout << " " << x;
    std::cout << "\nyi:";
    for (int x : hyi)
        std::cout << " " << x;
    std::cout << "\nnorm: " << nv << std::endl;
    return 0;
}
