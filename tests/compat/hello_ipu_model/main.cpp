// Hello, IPU Model: the shape of the SDK's first tutorial. A variable is written from the host,
// added to a constant with popops::add on the IPU Model, and read back to the host.
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
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();

  Graph graph(target);
  popops::addCodelets(graph);

  Tensor v1 = graph.addVariable(FLOAT, {2, 4}, "v1");
  for (unsigned i = 0; i < 2; ++i) {
    graph.setTileMapping(v1[i], i);
  }
  Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0f, 1.5f, 2.0f, 2.5f});
  graph.setTileMapping(c1, 0);

  graph.createHostWrite("v1-write", v1);
  graph.createHostRead("sum-read", v1);

  Sequence prog;
  // c1 broadcasts along the first dimension, as in the SDK.
  Tensor sum = popops::add(graph, v1, c1.broadcast(2, 0).reshape({2, 4}), prog, "add");
  prog.add(Copy(sum, v1));

  Engine engine(graph, prog);
  engine.load(device);

  std::vector<float> host(8);
  for (unsigned i = 0; i < host.size(); ++i) {
    host[i] = static_cast<float>(i);
  }
  engine.writeTensor("v1-write", host.data(), host.data() + host.size());
  engine.run(0);
  engine.readTensor("sum-read", host.data(), host.data() + host.size());

  std::cout << "sum:";
  for (unsigned i = 0; i < host.size(); ++i) {
    std::cout << " " << host[i];
  }
  std::cout << std::endl;
  return 0;
}
