// GCL's communication groups and all-to-all as SDK programs write them: four replicas, each fed
// its own numbers, summed within CONSECUTIVE pairs and within ORTHOGONAL pairs, and exchanged
// all-to-all so that replica j receives element j of every replica.
#include <gcl/Collectives.hpp>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned replicas = 4, n = 4;
  IPUModel ipuModel;
  ipuModel.numIPUs = replicas;
  ipuModel.tilesPerIPU = 8;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  popops::addCodelets(graph);

  Tensor x = graph.addVariable(FLOAT, {n}, "x");
  poputil::mapTensorLinearly(graph, x);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, n, ReplicatedStreamMode::REPLICATE);
  Sequence prog;
  prog.add(Copy(in, x));
  gcl::CommGroup pairs(gcl::CommGroupType::CONSECUTIVE, 2);
  gcl::CommGroup across(gcl::CommGroupType::ORTHOGONAL, 2);
  std::vector<Tensor> results;
  results.push_back(gcl::allReduceCrossReplica(graph, x, gcl::CollectiveOperator::ADD, prog,
                                               pairs, "pairs"));
  results.push_back(gcl::allReduceCrossReplica(graph, x, gcl::CollectiveOperator::ADD, prog,
                                               across, "across"));
  results.push_back(gcl::allToAllCrossReplica(graph, x, prog, "exchange"));
  const char *names[] = {"consecutive", "orthogonal", "allToAll"};
  for (unsigned k = 0; k < results.size(); ++k)
    prog.add(Copy(results[k], graph.addDeviceToHostFIFO(names[k], FLOAT, n)));

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> host(n * replicas);
  for (unsigned r = 0; r < replicas; ++r)
    for (unsigned i = 0; i < n; ++i)
      host[r * n + i] = static_cast<float>(10 * r + i);
  engine.connectStream("in", host.data(), host.data() + host.size());
  std::vector<std::vector<float>> out(3, std::vector<float>(n * replicas));
  for (unsigned k = 0; k < 3; ++k)
    engine.connectStream(names[k], out[k].data(), out[k].data() + out[k].size());
  engine.run(0);
  for (unsigned k = 0; k < 3; ++k)
    for (unsigned r = 0; r < replicas; ++r) {
      std::cout << names[k] << " " << r << ":";
      for (unsigned i = 0; i < n; ++i)
        std::cout << " " << out[k][r * n + i];
      std::cout << "\n";
    }
  return 0;
}
