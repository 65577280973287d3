// Writes a graph out for inspection: Graph::serialize as JSON and binary, and the vertex and
// compute graphs as Graphviz files, then runs the binary dump as an executable.
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

int main() {
    try {
        IPUModel ipuModel;
        ipuModel.tilesPerIPU = 4;
        Device device = ipuModel.createDevice();
        Graph graph(device.getTarget());
        graph.addCodelets("codelets.cpp");
        popops::addCodelets(graph);

        Tensor weights = graph.addVariable(FLOAT, {2, 3}, "weights");
        graph.setTileMapping(weights[0], 0);
        graph.setTileMapping(weights[1], 1);
        Tensor offsets = graph.addConstant<float>(FLOAT, {3}, {10, 20, 30}, "offsets");
        graph.setTileMapping(offsets, 2);

        ComputeSet scale = graph.addComputeSet("scaleRows");
        for (unsigned row = 0; row < 2; ++row) {
            VertexRef v = graph.addVertex(scale, "ScaleVertex", {{"data", weights[row]}});
            graph.setInitialValue(v["factor"], 2.0f + row);
            graph.setTileMapping(v, row);
        }

        Sequence prog;
        prog.add(Execute(scale));
        Tensor shifted = popops::add(graph, weights[1], offsets, prog, "shift");
        graph.createHostWrite("weights", weights);
        graph.createHostRead("shifted", shifted);
        std::vector<Program> progs;
        progs.push_back(prog);

        std::ofstream json("graph.json");
        graph.serialize(json, progs, SerializationFormat::JSON);
        std::ofstream vertexGraph("vertex_graph.dot");
        graph.outputVertexGraph(vertexGraph, progs);
        std::ofstream computeGraph("compute_graph.dot");
        graph.outputComputeGraph(computeGraph, progs);
        {
            std::ofstream binary("graph.bin", std::ios::binary);
            graph.serialize(binary, progs, SerializationFormat::Binary);
        }
        std::cout << "wrote graph.json graph.bin vertex_graph.dot compute_graph.dot" << std::endl;

        std::ifstream binary("graph.bin", std::ios::binary);
        Engine engine(Executable::deserialize(binary));
        engine.load(device);
        std::vector<float> w = {1, 2, 3, 4, 5, 6};
        std::vector<float> out(3);
        engine.writeTensor("weights", w.data(), w.data() + w.size());
        engine.run(0);
        engine.readTensor("shifted", out.data(), out.data() + out.size());
        std::cout << "shifted:";
        for (unsigned i = 0; i < out.size(); ++i)
            std::cout << " " << out[i];
        std::cout << std::endl;
    } catch (const poplar_error& e) {
        std::cerr << "error: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}
