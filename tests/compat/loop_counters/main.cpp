// The building blocks of blocked (flash-style) attention loops as SDK programs write them:
// UNSIGNED_INT loop counters stepped and tested with popops::map expressions (unsigned
// constants, %, comparisons feeding If), mask blocks from Graph::cloneN, accumulation with
// poplin::matMulAcc and matMulGroupedAcc, and a cycle count with poplar/SyncType.hpp. Prints
// every result for check.sh to compare with expected.txt. Like many SDK programs it uses
// std::find_if over DeviceManager's devices without including <algorithm> itself.

#include <poplar/CycleCount.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/SyncType.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;
namespace pe = popops::expr;

namespace {

template <typename T>
void print(Engine &engine, const std::string &name, std::size_t n) {
  std::vector<T> values(n);
  engine.readTensor(name, values.data(), values.data() + n);
  std::cout << name << ":";
  for (const T &v : values)
    std::cout << " " << v;
  std::cout << "\n";
}

Tensor counter(Graph &graph, Sequence &prog, const std::string &name) {
  Tensor c = graph.addVariable(UNSIGNED_INT, {1}, name);
  poputil::mapTensorLinearly(graph, c);
  popops::zero(graph, c, prog);
  graph.createHostRead(name, c);
  return c;
}

} // namespace

int main() {
  // Any hardware is only listed here; the program runs on an IPU model.
  auto devices =
      DeviceManager::createDeviceManager().getDevices(TargetType::IPU, 1);
  auto tiny = std::find_if(devices.begin(), devices.end(), [](Device &d) {
    return d.getTarget().getNumTiles() < 4;
  });
  std::cout << "tiny hardware: " << (tiny != devices.end() ? "yes" : "no")
            << "\n";
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  Sequence prog;

  // Counters: i += 1 and j += 2 each step; `taken` counts the steps where
  // (i + 1) * 3 > j * 2; k cycles through 0..3.
  Tensor i = counter(graph, prog, "i");
  Tensor j = counter(graph, prog, "j");
  Tensor taken = counter(graph, prog, "taken");
  Tensor k = counter(graph, prog, "k");
  Sequence step;
  Tensor ahead = popops::map(graph, ((pe::_1 + 1) * 3u) > (pe::_2 * 2u), {i, j},
                             step, "ahead")[0];
  Sequence count;
  popops::mapInPlace(graph, pe::_1 + 1, {taken}, count, "taken+=1");
  step.add(If(ahead, count, Sequence()));
  popops::mapInPlace(graph, pe::_1 + 1, {i}, step, "i+=1");
  popops::mapInPlace(graph, pe::_1 + 2u, {j}, step, "j+=2");
  popops::mapInPlace(graph, (pe::_1 + 1) % 4u, {k}, step, "k=(k+1)%4");
  Sequence loop;
  loop.add(Repeat(5, step));
  Tensor cycles = cycleCount(graph, loop, 0, SyncType::EXTERNAL, "loopCycles");
  prog.add(loop);
  graph.createHostRead("cycles", cycles);

  // Three mask blocks cloned from one row, mapped as the row is.
  Tensor row = graph.addVariable(FLOAT, {4}, "row");
  graph.setTileMapping(row.slice(0, 2), 1);
  graph.setTileMapping(row.slice(2, 4), 3);
  Tensor masks = graph.cloneN(FLOAT, row, 3, "masks");
  popops::fill(graph, masks, prog, -100.0f);
  popops::zero(graph, masks[1].slice(1, 3), prog);
  graph.createHostRead("masks", masks);
  std::cout << "masks shape: " << masks.shapeToString() << "\n";
  std::cout << "masks[2] on tiles:";
  for (unsigned e = 0; e < 4; ++e) {
    const auto mapping = graph.getTileMapping(masks[2][e]);
    for (unsigned tile = 0; tile < mapping.size(); ++tile)
      if (!mapping[tile].empty())
        std::cout << " " << tile;
  }
  std::cout << "\n";

  // C += 0.5 * A x B, and grouped Cg += k * Ag x Bg with k a tensor.
  Tensor a = graph.addVariable(FLOAT, {2, 3}, "a");
  Tensor b = graph.addVariable(FLOAT, {3, 2}, "b");
  Tensor c = graph.addVariable(FLOAT, {2, 2}, "c");
  Tensor ag = graph.addVariable(FLOAT, {2, 2, 3}, "ag");
  Tensor bg = graph.addVariable(FLOAT, {2, 3, 2}, "bg");
  Tensor cg = graph.addVariable(FLOAT, {2, 2, 2}, "cg");
  for (Tensor t : {a, b, c, ag, bg, cg}) {
    poputil::mapTensorLinearly(graph, t);
    graph.createHostWrite(t.getName(), t);
  }
  Tensor scale = graph.addConstant(FLOAT, {}, 2.0f, "scale");
  graph.setTileMapping(scale, 0);
  poplin::matMulAcc(graph, c, 0.5f, a, b, prog, "accumulate");
  poplin::matMulGroupedAcc(graph, cg, scale, ag, bg, prog, "accumulateGroups");
  graph.createHostRead("c", c);
  graph.createHostRead("cg", cg);

  Engine engine(graph, prog);
  engine.load(device);
  const std::vector<float> ha = {1, 2, 3, 4, 5, 6};
  const std::vector<float> hb = {1, 0, 0, 1, 1, 1};
  const std::vector<float> hc = {1, 1, 1, 1};
  const std::vector<float> hag = {1, 2, 3, 4, 5, 6, 2, 4, 6, 8, 10, 12};
  const std::vector<float> hbg = {1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1};
  const std::vector<float> hcg(8, 0.0f);
  engine.writeTensor("a", ha.data(), ha.data() + ha.size());
  engine.writeTensor("b", hb.data(), hb.data() + hb.size());
  engine.writeTensor("c", hc.data(), hc.data() + hc.size());
  engine.writeTensor("ag", hag.data(), hag.data() + hag.size());
  engine.writeTensor("bg", hbg.data(), hbg.data() + hbg.size());
  engine.writeTensor("cg", hcg.data(), hcg.data() + hcg.size());
  engine.run(0);

  print<unsigned>(engine, "i", 1);
  print<unsigned>(engine, "j", 1);
  print<unsigned>(engine, "taken", 1);
  print<unsigned>(engine, "k", 1);
  std::vector<unsigned> cycleWords(2);
  engine.readTensor("cycles", cycleWords.data(), cycleWords.data() + 2);
  std::cout << "loop counted cycles: " << (cycleWords[0] > 0 ? "yes" : "no")
            << "\n";
  print<float>(engine, "masks", 12);
  print<float>(engine, "c", 4);
  print<float>(engine, "cg", 8);

  // An operation INT and UNSIGNED_INT do not have is refused by name.
  try {
    popops::mapInPlace(graph, pe::Sqrt(pe::_1), {k}, prog);
    std::cout << "sqrt of a counter: accepted\n";
  } catch (const std::exception &e) {
    std::cout << "sqrt of a counter: " << e.what() << "\n";
  }
  return 0;
}
