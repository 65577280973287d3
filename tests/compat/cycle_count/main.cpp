// Times programs on the device with poplar::cycleCount and poplar::cycleStamp, as SDK programs do
// to measure a kernel, and runs once more with execution profiling disabled.

#include <cstdint>
#include <iostream>
#include <vector>

#include <poplar/CycleCount.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

static std::uint64_t readCycles(Engine &engine, const std::string &handle) {
  std::vector<unsigned> words(2);
  engine.readTensor(handle, words.data(), words.data() + words.size());
  return words[0] + (static_cast<std::uint64_t>(words[1]) << 32);
}

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  Tensor x = graph.addVariable(FLOAT, {8}, "x");
  Tensor y = graph.addVariable(FLOAT, {8}, "y");
  for (unsigned tile = 0; tile < 4; ++tile) {
    graph.setTileMapping(x.slice(tile * 2, tile * 2 + 2), tile);
    graph.setTileMapping(y.slice(tile * 2, tile * 2 + 2), tile);
  }
  graph.createHostWrite("x", x);
  graph.createHostWrite("y", y);
  graph.createHostRead("x", x);

  Sequence add;
  popops::addInPlace(graph, x, y, add, "x+=y");

  Sequence once;
  once.add(add);
  Tensor onceCycles = cycleCount(graph, once, 0, SyncType::INTERNAL, "once");
  Sequence fourTimes;
  fourTimes.add(Repeat(4, add));
  Tensor fourCycles = cycleCount(graph, fourTimes, 0, SyncType::INTERNAL, "four");
  Sequence stamped;
  Tensor start = cycleStamp(graph, stamped, 0, SyncType::INTERNAL, "start");
  stamped.add(add);
  Tensor end = cycleStamp(graph, stamped, 0, SyncType::INTERNAL, "end");
  graph.createHostRead("once", onceCycles);
  graph.createHostRead("four", fourCycles);
  graph.createHostRead("start", start);
  graph.createHostRead("end", end);

  Engine engine(graph, {once, fourTimes, stamped});
  engine.load(device);
  std::vector<float> hostX = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> hostY(8, 1.0f);
  engine.writeTensor("x", hostX.data(), hostX.data() + hostX.size());
  engine.writeTensor("y", hostY.data(), hostY.data() + hostY.size());

  engine.run(0);
  std::cout << "cycles once: " << readCycles(engine, "once") << "\n";
  engine.run(1);
  std::cout << "cycles four times: " << readCycles(engine, "four") << "\n";
  engine.run(2);
  std::cout << "cycles between stamps: " << readCycles(engine, "end") - readCycles(engine, "start")
            << "\n";
  engine.disableExecutionProfiling();
  engine.run(0);
  std::cout << "cycles once (profiling disabled): " << readCycles(engine, "once") << "\n";

  engine.readTensor("x", hostX.data(), hostX.data() + hostX.size());
  std::cout << "x:";
  for (float v : hostX)
    std::cout << " " << v;
  std::cout << "\n";
  return 0;
}
