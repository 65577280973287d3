// Writes a profile whose program copies a tensor on its tiles before a popops operation: the
// report of an on-tile Copy step beside an OnTileExecute step (test_pva_sdk_scripts.py).
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

int main() {
    poplar::IPUModel model;
    model.tilesPerIPU = 2;
    poplar::Device device = model.createDevice();
    poplar::Graph graph(device.getTarget());
    popops::addCodelets(graph);
    poplar::Tensor source = graph.addVariable(poplar::FLOAT, {2, 3}, "source");
    poplar::Tensor copy = graph.addVariable(poplar::FLOAT, {2, 3}, "copy");
    for (unsigned tile = 0; tile < 2; ++tile) {
        graph.setTileMapping(source[tile], tile);
        graph.setTileMapping(copy[tile], tile);
    }
    graph.setInitialValue(source, poplar::ArrayRef<float>({1, 2, 3, 4, 5, 6}));
    graph.createHostRead("copy-read", copy);
    poplar::program::Sequence program;
    program.add(poplar::program::Copy(source, copy, false, "duplicate"));
    popops::squareInPlace(graph, copy, program, "square");
    poplar::Engine engine(graph, program);
    engine.load(device);
    engine.run(0);
    float result[6] = {};
    engine.readTensor("copy-read", result, result + 6);
    std::cout << "copy:";
    for (float value : result)
        std::cout << " " << value;
    std::cout << std::endl;
    return 0;
}
