// Blurs rows of an image with halo cells taken from constant zero tensors, as image-processing
// programs for the IPU do, and times the blur with a cycle counter.
#include <poplar/CSRFunctions.hpp>
#include <poplar/CycleCount.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <popfloat/experimental/CastToHalf.hpp>

#include <fstream>
#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 16;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("codelets.cpp", CodeletFileType::Auto, "-O3");

  const unsigned width = 6;
  Tensor image = graph.addVariable(FLOAT, {2, width}, "image");
  Tensor blurred = graph.addVariable(FLOAT, {2, width}, "blurred");
  Tensor pairs = graph.addVariable(FLOAT, {width, 2}, "pairs");
  Tensor pairsBlurred = graph.addVariable(FLOAT, {width, 2}, "pairs-blurred");
  graph.setTileMapping(image, 0);
  graph.setTileMapping(blurred, 0);
  graph.setTileMapping(pairs, 1);
  graph.setTileMapping(pairsBlurred, 1);
  const std::vector<float> zeros(2, 0.0f);
  Tensor halo = graph.addConstant(FLOAT, {1}, zeros.data(), "halo");
  Tensor haloPair = graph.addConstant(FLOAT, {1, 2}, zeros.data(), "halo-pair");
  graph.setTileMapping(halo, 0);
  graph.setTileMapping(haloPair, 1);

  ComputeSet blur = graph.addComputeSet("blur");
  for (unsigned r = 0; r < 2; ++r) {
    VertexRef v = graph.addVertex(
        blur, "BlurRow<float>",
        {{"in", concat({halo, image[r], halo})}, {"out", blurred[r]}});
    graph.setInitialValue(v["width"], width);
    graph.setCycleEstimate(v, 4 * width);
    graph.setTileMapping(v, 0);
  }
  VertexRef vp = graph.addVertex(
      blur, "BlurRowPairs",
      {{"in", concat({haloPair, pairs, haloPair}).flatten()},
       {"out", pairsBlurred.flatten()}});
  graph.setInitialValue(vp["width"], width);
  graph.setCycleEstimate(vp, 2 * width);
  graph.setTileMapping(vp, 1);

  Sequence body;
  setFloatingPointBehaviour(graph, body, {true, true, true, false, true},
                            "exceptions on, no stochastic rounding");
  body.add(Execute(blur));
  Tensor cycles = cycleCount(graph, body, 0, SyncType::INTERNAL, "timer");
  graph.createHostRead("cycles", cycles, true);
  graph.createHostWrite("image", image);
  graph.createHostWrite("pairs", pairs);
  graph.createHostRead("blurred", blurred);
  graph.createHostRead("pairs-blurred", pairsBlurred);

  try {
    Graph replicated(device.getTarget(), replication_factor(2));
    std::cout << "replication: accepted\n";
  } catch (const poplar_error &) {
    std::cout << "replication: refused, factor " << graph.getReplicationFactor() << " runs\n";
  }
  try {
    Sequence rejected;
    setFloatingPointBehaviour(graph, rejected, {true, true, true, true, true});
    std::cout << "stochastic rounding: accepted\n";
  } catch (const poplar_error &) {
    std::cout << "stochastic rounding: refused\n";
  }

  const std::vector<Program> programs = {body};
  std::ofstream vertexGraph("vertexgraph.dot");
  graph.outputVertexGraph(vertexGraph, programs);
  std::ofstream computeGraph("computegraph.dot");
  graph.outputComputeGraph(computeGraph, programs);

  Engine engine(graph, programs);
  engine.load(device);
  std::vector<float> pixels(2 * width), pairPixels(2 * width);
  for (unsigned i = 0; i < width; ++i) {
    pixels[i] = 4.0f * (i + 1);         // row 0: 4 8 12 ...
    pixels[width + i] = i == 2 ? 16 : 0; // row 1: one bright pixel
    pairPixels[2 * i] = pixels[i];
    pairPixels[2 * i + 1] = pixels[width + i];
  }
  engine.writeTensor("image", pixels.data(), pixels.data() + pixels.size());
  engine.writeTensor("pairs", pairPixels.data(), pairPixels.data() + pairPixels.size());
  engine.run(0);

  std::vector<float> out(2 * width), pairOut(2 * width);
  engine.readTensor("blurred", out.data(), out.data() + out.size());
  engine.readTensor("pairs-blurred", pairOut.data(), pairOut.data() + pairOut.size());
  for (unsigned r = 0; r < 2; ++r) {
    std::cout << "row " << r << ":";
    for (unsigned i = 0; i < width; ++i)
      std::cout << " " << out[r * width + i];
    std::cout << "\n";
  }
  bool pairsMatch = true;
  for (unsigned i = 0; i < width; ++i)
    pairsMatch = pairsMatch && pairOut[2 * i] == out[i] && pairOut[2 * i + 1] == out[width + i];
  std::cout << "float2 pairs match: " << (pairsMatch ? "yes" : "no") << "\n";

  unsigned long long counted = 0;
  engine.readTensor("cycles", &counted);
  std::cout << "cycles counted: " << (counted > 0 ? "yes" : "no") << "\n";
  std::cout << "vertex graph written: " << (vertexGraph.tellp() > 0 ? "yes" : "no") << "\n";
  const unsigned short h = popfloat::experimental::singleToHalf(out[1]);
  std::cout << "as half: " << popfloat::experimental::halfToSingle(h) << "\n";
  return 0;
}
