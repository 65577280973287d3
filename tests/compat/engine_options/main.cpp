// A hardware program that narrows its device to a few tiles, asks the engine for the files
// Poplar's debugging options write, switches execution profiling off and on between runs, and
// finally connects a replica the (unreplicated) graph does not have, to show how that fails.

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " OUTDIR\n";
    return 2;
  }
  const std::string outDir = argv[1];

  DeviceManager manager = DeviceManager::createDeviceManager();
  std::vector<Device> devices = manager.getDevices(TargetType::IPU, 1);
  std::size_t chosen = 0;
  while (chosen < devices.size() && !devices[chosen].attach())
    ++chosen;
  if (chosen == devices.size()) {
    std::cerr << "no IPU to attach\n";
    return 1;
  }
  Device device = devices[chosen].createVirtualDevice(8);
  const Target &target = device.getTarget();
  std::cout << "tiles: " << target.getNumTiles() << "\n";

  Graph graph(target);
  popops::addCodelets(graph);
  Tensor x = graph.addVariable(FLOAT, {16}, "x");
  for (unsigned t = 0; t < 8; ++t)
    graph.setTileMapping(x.slice(2 * t, 2 * t + 2), t);
  graph.createHostWrite("x", x);
  graph.createHostRead("x", x);
  Sequence prog = {};
  popops::mulInPlace(graph, x, 2.0f, prog, "double");

  OptionFlags options{{"target.saveArchive", outDir + "/archive.a"},
                      {"debug.loweredVarDumpFile", outDir + "/vars.json"},
                      {"debug.outputAllSymbols", "true"},
                      {"exchange.streamBufferOverlap", "none"}};
  Engine engine(graph, prog, options);
  engine.load(device);

  std::vector<float> host(16);
  for (unsigned i = 0; i < host.size(); ++i)
    host[i] = static_cast<float>(i);
  engine.writeTensor("x", host.data(), host.data() + host.size());
  engine.disableExecutionProfiling();
  engine.run(0);
  engine.enableExecutionProfiling();
  engine.run(0);
  engine.readTensor("x", host.data(), host.data() + host.size());
  std::cout << "x:";
  for (unsigned i = 0; i < host.size(); ++i)
    std::cout << " " << host[i];
  std::cout << "\n";

  try {
    engine.connectStreamToCallback("x", 1, [](void *) {});
    std::cout << "replica 1 connected\n";
  } catch (const poplar::index_error &e) {
    std::cout << "replica 1 refused: " << e.what() << "\n";
  }
  return 0;
}
