// Compile once, cache the executable in a file, and load it on later runs instead of compiling:
// the usual way SDK programs avoid paying for graph compilation at every start.
#include <fstream>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static const char* kExecutableFile = "prog.poplar_exec";

static Executable buildAndCompile(const Target& target) {
    Graph graph(target);
    graph.addCodelets("codelets.cpp");
    popops::addCodelets(graph);

    Tensor x = graph.addVariable(FLOAT, {4}, "x");
    Tensor squared = graph.addVariable(FLOAT, {4}, "squared");
    graph.setTileMapping(x, 0);
    graph.setTileMapping(squared, 1);

    ComputeSet cs = graph.addComputeSet("square");
    VertexRef v = graph.addVertex(cs, "SquareVertex", {{"in", x}, {"out", squared}});
    graph.setTileMapping(v, 1);

    DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 4);
    DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 4);

    Sequence prog;
    prog.add(Copy(in, x));
    prog.add(Execute(cs));
    Tensor result = popops::add(graph, squared, x, prog, "addX");
    prog.add(Copy(result, out));

    std::vector<Program> progs;
    progs.push_back(prog);
    return compileGraph(graph, progs);
}

static int run() {
    IPUModel ipuModel;
    ipuModel.tilesPerIPU = 4;
    Device device = ipuModel.createDevice();

    Executable exe;
    std::ifstream cached(kExecutableFile, std::ios::binary);
    if (cached) {
        exe = Executable::deserialize(cached);
        std::cout << "loaded " << kExecutableFile << std::endl;
    } else {
        exe = buildAndCompile(device.getTarget());
        std::ofstream file(kExecutableFile, std::ios::binary);
        exe.serialize(file);
        std::cout << "compiled and saved " << kExecutableFile << std::endl;
    }

    Engine engine(std::move(exe));
    engine.load(device);
    std::vector<float> input = {1, 2, 3, 4};
    std::vector<float> output(4);
    engine.connectStream("in", input.data(), input.data() + input.size());
    engine.connectStream("out", output.data(), output.data() + output.size());
    engine.run(0);

    std::cout << "result:";
    for (unsigned i = 0; i < output.size(); ++i)
        std::cout << " " << output[i];
    std::cout << std::endl;
    return 0;
}

int main() {
    try {
        return run();
    } catch (const poplar_error& e) {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
}
