// A data-parallel step as SDK programs write it: a graph replicated over the 4 IPUs of the
// device, each replica fed its own numbers by a REPLICATE stream, and GCL's all-reduce summing
// them across the replicas; every replica's result streams back to its part of one buffer.
#include <gcl/Collectives.hpp>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned replicas = 4, n = 6;
  IPUModel ipuModel;
  ipuModel.numIPUs = replicas;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  popops::addCodelets(graph);
  std::cout << "replication factor: " << graph.getReplicationFactor() << "\n";
  std::cout << "IPUs per replica: " << graph.getTarget().getNumIPUs() << "\n";

  Tensor x = graph.addVariable(FLOAT, {n}, "x");
  poputil::mapTensorLinearly(graph, x);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, n, ReplicatedStreamMode::REPLICATE);
  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, n);
  Sequence prog;
  prog.add(Copy(in, x));
  Tensor sum = gcl::allReduceCrossReplica(graph, x, gcl::CollectiveOperator::ADD, prog,
                                          "sumOverReplicas");
  popops::addInPlace(graph, sum, 0.5f, prog);
  prog.add(Copy(sum, out));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> host(n * replicas), result(n * replicas);
  for (unsigned r = 0; r < replicas; ++r)
    for (unsigned i = 0; i < n; ++i)
      host[r * n + i] = static_cast<float>(10 * r + i);
  engine.connectStream("in", host.data(), host.data() + host.size());
  engine.connectStream("out", result.data(), result.data() + result.size());
  engine.run(0);
  for (unsigned r = 0; r < replicas; ++r) {
    std::cout << "replica " << r << ":";
    for (unsigned i = 0; i < n; ++i)
      std::cout << " " << result[r * n + i];
    std::cout << "\n";
  }
  return 0;
}
