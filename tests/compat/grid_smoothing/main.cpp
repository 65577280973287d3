// Smooths a 10x10 grid (fixed border) with a five-point stencil, ping-ponging between two
// tensors: a Poplar program in the style of HPC codes written for the IPU. Usage:
//   prog [model-ipu1|model-ipu2|ipu] [iterations]
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static const unsigned kSize = 10;

static Device getDevice(const std::string &kind) {
  if (kind == "ipu") {
    auto manager = DeviceManager::createDeviceManager();
    auto devices = manager.getDevices(TargetType::IPU, 1);
    auto it = std::find_if(devices.begin(), devices.end(),
                           [](Device &d) { return d.attach(); });
    if (it == devices.end())
      throw std::runtime_error("no IPU to attach to");
    return std::move(*it);
  }
  IPUModel model(kind == "model-ipu1" ? "ipu1" : "ipu2");
  model.minIPUSyncDelay = 0;
  model.relativeSyncDelay = IPUModel::RelativeSyncDelayType::NO_DELAY;
  return model.createDevice();
}

// One compute set smoothing `in` into the interior of `out`: two tiles, the rows of each split
// between its workers.
static ComputeSet smoothing(Graph &graph, Tensor in, Tensor out, const char *name) {
  ComputeSet cs = graph.addComputeSet(name);
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  const unsigned interior = kSize - 2;
  for (unsigned tile = 0; tile < 2; ++tile) {
    const unsigned first = 1 + tile * interior / 2, count = interior / 2;
    for (unsigned w = 0; w < workers; ++w) {
      const unsigned lo = first + w * count / workers,
                     hi = first + (w + 1) * count / workers;
      if (lo == hi)
        continue;
      VertexRef v = graph.addVertex(cs, "SmoothRows");
      graph.connect(v["in"], in.slice({lo - 1, 0}, {hi + 1, kSize}));
      graph.connect(v["out"], out.slice({lo, 1}, {hi, kSize - 1}));
      graph.setInitialValue(v["rows"], hi - lo);
      graph.setInitialValue(v["width"], interior);
      graph.setInitialValue(v["centre"], 0.5f);
      graph.setTileMapping(v, tile);
    }
  }
  return cs;
}

int main(int argc, char **argv) {
  const std::string kind = argc > 1 ? argv[1] : "model-ipu2";
  const unsigned iterations = argc > 2 ? std::atoi(argv[2]) : 3;
  try {
    Device device = getDevice(kind);
    const Target &target = device.getTarget();
    std::cout << "arch " << target.getTargetArchString() << "\n";

    Graph graph(target);
    graph.addCodelets("codelets.gp");
    Tensor a = graph.addVariable(FLOAT, {kSize, kSize}, "a");
    Tensor b = graph.addVariable(FLOAT, {kSize, kSize}, "b");
    graph.setTileMapping(a.slice(0, kSize / 2), 0);
    graph.setTileMapping(a.slice(kSize / 2, kSize), 1);
    // b lives where a does.
    const auto &mapping = graph.getTileMapping(a);
    graph.setTileMapping(b, mapping);

    ComputeSet aToB = smoothing(graph, a, b, "a_to_b");
    ComputeSet bToA = smoothing(graph, b, a, "b_to_a");
    DataStream in = graph.addHostToDeviceFIFO("grid-in", FLOAT, kSize * kSize);
    DataStream out = graph.addDeviceToHostFIFO("grid-out", FLOAT, kSize * kSize);

    std::vector<Program> programs;
    programs.push_back(Sequence{Copy(in, a), Copy(a, b)});
    Sequence steps;
    if (iterations % 2 == 1)
      steps.add(Execute(aToB));
    steps.add(Repeat(iterations / 2,
                     Sequence{Execute(iterations % 2 ? bToA : aToB),
                              Execute(iterations % 2 ? aToB : bToA)}));
    programs.push_back(steps);
    programs.push_back(Copy(iterations % 2 ? b : a, out));

    Executable exe = compileGraph(graph, programs);
    Engine engine(std::move(exe));
    // Streams may be connected before the engine is loaded.
    std::vector<float> grid(kSize * kSize, 0.0f), result(kSize * kSize);
    for (unsigned c = 0; c < kSize; ++c)
      grid[c] = 64; // a hot top edge
    grid[5 * kSize + 5] = 128;
    engine.connectStream("grid-in", grid.data(), grid.data() + grid.size());
    engine.connectStream("grid-out", result.data(), result.data() + result.size());
    engine.load(device);
    for (unsigned p = 0; p < programs.size(); ++p)
      engine.run(p);

    // The same on the host; every value is a multiple of 1/4^iterations, exact in float.
    std::vector<float> x = grid, y = grid;
    for (unsigned it = 0; it < iterations; ++it) {
      for (unsigned r = 1; r + 1 < kSize; ++r)
        for (unsigned c = 1; c + 1 < kSize; ++c)
          y[r * kSize + c] = 0.5f * x[r * kSize + c] +
                             0.125f * (x[(r - 1) * kSize + c] + x[(r + 1) * kSize + c] +
                                       x[r * kSize + c - 1] + x[r * kSize + c + 1]);
      std::swap(x, y);
    }
    unsigned mismatches = 0;
    for (unsigned i = 0; i < kSize * kSize; ++i)
      mismatches += x[i] != result[i];
    std::cout << "mismatches " << mismatches << "\n";
    std::cout << "row 1:";
    for (unsigned c = 0; c < kSize; ++c)
      std::cout << " " << result[kSize + c];
    std::cout << "\ncentre " << result[5 * kSize + 5] << "\n";
  } catch (const std::exception &e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
