// A small Poplar program that leaves a profile for the Python side of check.sh: x squared on a
// 4-tile IPU Model, run twice, with the report options of POPLAR_ENGINE_OPTIONS. It also marks
// its phases with C++ pvti tracepoints, which land in the trace file next to nothing else.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <pvti/pvti.hpp>

using namespace poplar;
using namespace poplar::program;

static pvti::TraceChannel channel = {"cpp"};

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
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
  {
    pvti::Tracepoint tracepoint(&channel, "run");
    engine.run(0);
    engine.run(0);
  }
  engine.readTensor("x-read", host.data(), host.data() + host.size());
  std::cout << "x:";
  for (unsigned i = 0; i < host.size(); ++i) {
    std::cout << " " << host[i];
  }
  std::cout << std::endl;
  return 0;
}
