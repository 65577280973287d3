// A program written for IPU hardware: it asks the device manager for single-IPU devices, attaches
// the first free one, adds two vectors spread over four tiles with PopLibs and prints the result.

#include <algorithm>
#include <iostream>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  auto manager = DeviceManager::createDeviceManager();
  auto devices = manager.getDevices(TargetType::IPU, 1);
  std::cout << "Found " << devices.size() << " single-IPU devices\n";
  auto it = std::find_if(devices.begin(), devices.end(),
                         [](Device &device) { return device.attach(); });
  if (it == devices.end()) {
    std::cerr << "Error attaching to device\n";
    return 1;
  }
  Device device = std::move(*it);
  std::cout << "Attached to IPU " << device.getId() << "\n";

  Target target = device.getTarget();
  std::cout << "Target: " << target.getNumIPUs() << " IPU, " << target.getTilesPerIPU()
            << " tiles, " << target.getTargetArchString() << "\n";

  Graph graph(target);
  popops::addCodelets(graph);
  Tensor a = graph.addVariable(FLOAT, {8}, "a");
  Tensor b = graph.addVariable(FLOAT, {8}, "b");
  for (unsigned tile = 0; tile < 4; ++tile) {
    graph.setTileMapping(a.slice(tile * 2, tile * 2 + 2), tile);
    graph.setTileMapping(b.slice(tile * 2, tile * 2 + 2), tile);
  }
  graph.createHostWrite("a", a);
  graph.createHostWrite("b", b);
  graph.createHostRead("a", a);

  Sequence prog;
  popops::addInPlace(graph, a, b, prog, "a+=b");

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> hostA = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> hostB = {0.5f, 0.5f, 0.5f, 0.5f, 10, 20, 30, 40};
  engine.writeTensor("a", hostA.data(), hostA.data() + hostA.size());
  engine.writeTensor("b", hostB.data(), hostB.data() + hostB.size());
  engine.run(0);
  engine.readTensor("a", hostA.data(), hostA.data() + hostA.size());

  std::cout << "Result:";
  for (float x : hostA)
    std::cout << " " << x;
  std::cout << "\n";
  device.detach();
  return 0;
}
