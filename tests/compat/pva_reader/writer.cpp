// Writes a profile: a small popops program on a 4-tile IPU Model, run twice, with the report
// options a user passes in POPLAR_ENGINE_OPTIONS (see check.sh).
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  ipuModel.compileIPUCode = true; // so that the profile accounts code memory
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  Tensor x = graph.addVariable(FLOAT, {4, 2}, "x");
  for (unsigned tile = 0; tile < 4; ++tile) {
    graph.setTileMapping(x[tile], tile);
  }
  graph.createHostWrite("x-write", x);
  graph.createHostRead("x-read", x);

  Sequence prog;
  popops::squareInPlace(graph, x, prog, "square");

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> host = {1, 2, 3, 4, 5, 6, 7, 8};
  engine.writeTensor("x-write", host.data(), host.data() + host.size());
  engine.run(0);
  engine.run(0);
  engine.readTensor("x-read", host.data(), host.data() + host.size());
  std::cout << "x:";
  for (unsigned i = 0; i < host.size(); ++i) {
    std::cout << " " << host[i];
  }
  std::cout << std::endl;
  return 0;
}
