// A CMake project as SDK users write them: find_package(poplar) and find_package(popops), C++17,
// -Wall -Werror. Computes 2 * m - 1 for a matrix with popops element-wise ops on the IPU Model.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

int main() {
  poplar::IPUModel ipuModel;
  poplar::Device device = ipuModel.createDevice();
  poplar::Graph graph(device.getTarget());
  popops::addCodelets(graph);

  poplar::Tensor m = graph.addVariable(poplar::FLOAT, {3, 4}, "m");
  for (unsigned row = 0; row < 3; ++row) {
    graph.setTileMapping(m[row], row);
  }
  poplar::program::Sequence prog;
  poplar::Tensor doubled = popops::add(graph, m, m, prog, "double");
  poplar::Tensor ones = graph.addConstant<float>(poplar::FLOAT, {3, 4}, 1.0f, "ones");
  graph.setTileMapping(ones, 0);
  poplar::Tensor result = popops::sub(graph, doubled, ones, prog, "minus-one");
  graph.createHostWrite("m-write", m);
  graph.createHostRead("result-read", result);

  poplar::Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> host(12);
  for (unsigned i = 0; i < host.size(); ++i) {
    host[i] = static_cast<float>(i);
  }
  engine.writeTensor("m-write", host.data(), host.data() + host.size());
  engine.run(0);
  engine.readTensor("result-read", host.data(), host.data() + host.size());
  std::cout << "2m-1:";
  for (float value : host) {
    std::cout << " " << value;
  }
  std::cout << std::endl;
  return 0;
}
