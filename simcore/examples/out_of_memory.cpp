// A graph that does not fit: tile 3 of a Mk2 IPU gets a 700,000-byte variable. The engine reports
// the tile and by how much it is over; with debug.allowOutOfMemory the compile results are kept
// and their memory summary printed.

#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
    Device device = IPUModel("ipu2").createDevice();
    Graph graph(device.getTarget());
    Tensor big = graph.addVariable(FLOAT, {175000}, "big");
    Tensor small = graph.addVariable(FLOAT, {16}, "small");
    graph.setTileMapping(big, 3);
    graph.setTileMapping(small, 0);
    Sequence prog{Copy(big.slice(0, 16), small), PrintTensor("small", small)};
    try {
        Engine engine(graph, prog);
        std::cout << "unexpected: the graph fitted\n";
        return 1;
    } catch (const graph_memory_allocation_error& e) {
        std::cout << "caught graph_memory_allocation_error: " << e.what() << '\n';
        std::cout << "tile " << e.tile() << ", " << e.excessBytes() << " bytes over\n";
    }
    Engine kept(graph, prog, {{"debug.allowOutOfMemory", "true"}});
    kept.printProfileSummary(std::cout, {{"showVarStorage", "true"}});
    return 0;
}
