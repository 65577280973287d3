// SDK behaviours programs rely on: std::optional without including <optional> (C++17), scalars
// in addVertex's connection list for Input fields, Engine::getTimeStamp/reportTiming and
// DeviceManager::acquireAvailableDevice.
#include <iostream>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static std::optional<unsigned> requestedIpus(int argc, char** argv) {
    if (argc > 1)
        return static_cast<unsigned>(std::stoul(argv[1]));
    return std::nullopt;
}

int main(int argc, char** argv) {
    auto manager = DeviceManager::createDeviceManager();
    Device device;
    try {
        device = manager.acquireAvailableDevice(requestedIpus(argc, argv).value_or(1));
    } catch (const poplar_error& e) {
        std::cout << "No device: " << e.what() << "\n";
        return 1;
    }
    std::cout << "Acquired device " << device.getId() << "\n";
    Target target = device.getTarget();
    Graph graph(target);
    graph.addCodelets("codelets.cpp");
    Tensor x = graph.addVariable(FLOAT, {4}, "x");
    Tensor y = graph.addVariable(FLOAT, {4}, "y");
    ComputeSet cs = graph.addComputeSet("scaleBias");
    for (unsigned i = 0; i < 4; ++i) {
        graph.setTileMapping(x[i], i);
        graph.setTileMapping(y[i], i);
        VertexRef v = graph.addVertex(cs, "ScaleBias",
                                      {{"in", x[i]}, {"scale", 2.5f}, {"bias", i}, {"out", y[i]}});
        graph.setTileMapping(v, i);
    }
    graph.createHostWrite("x", x);
    graph.createHostRead("y", y);
    Engine engine(graph, Execute(cs));
    engine.load(device);
    std::vector<float> in = {1, 2, 3, 4}, out(4);
    engine.writeTensor("x", in.data(), in.data() + in.size());
    Engine::TimerTimePoint start = engine.getTimeStamp();
    engine.run(0);
    engine.run(0);
    Engine::TimerTimePoint end = engine.getTimeStamp();
    engine.readTensor("y", out.data(), out.data() + out.size());
    std::cout << "Result:";
    for (float v : out)
        std::cout << " " << v;
    std::cout << "\n" << engine.reportTiming(start, end) << "\n";
    return 0;
}
