// Feeds batches to the device with StreamCallback objects, as SDK programs do: a callback that
// prefetches, a LegacyStreamCallback and a lambda, connected before the engine is loaded.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/StreamCallback.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const unsigned batch = 4;

// Produces batches 0, 1, 2, ... (element i of batch b is 10 * b + i) and logs the calls.
class BatchFeeder : public StreamCallback {
public:
  explicit BatchFeeder(std::vector<std::string> &log) : log_(log), next_(0) {}

  Result prefetch(void *p) override {
    log_.push_back("prefetch " + std::to_string(next_));
    fill(p);
    return Result::Success;
  }
  void fetch(void *p) override {
    log_.push_back("fetch " + std::to_string(next_));
    fill(p);
  }
  void complete() override { log_.push_back("complete"); }
  void invalidatePrefetched() override { log_.push_back("invalidate"); }

private:
  void fill(void *p) {
    int *data = static_cast<int *>(p);
    for (unsigned i = 0; i < batch; ++i)
      data[i] = static_cast<int>(10 * next_ + i);
    ++next_;
  }
  std::vector<std::string> &log_;
  unsigned next_;
};

// Prints each result batch the device sends.
class ResultPrinter : public LegacyStreamCallback {
public:
  void fetch(void *p) override {
    const int *data = static_cast<const int *>(p);
    std::cout << "result";
    for (unsigned i = 0; i < batch; ++i)
      std::cout << " " << data[i];
    std::cout << "\n";
  }
};

} // namespace

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("codelets.cpp");

  Tensor in = graph.addVariable(INT, {batch}, "in");
  Tensor out = graph.addVariable(INT, {batch}, "out");
  Tensor count = graph.addVariable(UNSIGNED_INT, {1}, "count");
  graph.setTileMapping(in, 0);
  graph.setTileMapping(out, 0);
  graph.setTileMapping(count, 1);

  ComputeSet cs = graph.addComputeSet("scaleBias");
  VertexRef v = graph.addVertex(cs, "ScaleBias",
                                {{"in", in}, {"out", out}, {"scale", 2}, {"bias", 1u}});
  graph.setTileMapping(v, 0);

  DataStream inStream = graph.addHostToDeviceFIFO("in", INT, batch);
  DataStream outStream = graph.addDeviceToHostFIFO("out", INT, batch);
  DataStream countStream = graph.addHostToDeviceFIFO("count", UNSIGNED_INT, 1);

  Sequence body = {};
  body.add(Copy(inStream, in));
  body.add(Execute(cs));
  body.add(Copy(out, outStream));
  Sequence prog{Copy(countStream, count), Repeat(3, body), Sequence{}};

  Engine engine(graph, prog);
  std::vector<std::string> log;
  std::unique_ptr<BatchFeeder> feeder(new BatchFeeder(log));
  engine.connectStreamToCallback("in", std::move(feeder));
  engine.connectStreamToCallback("out", 0, std::unique_ptr<ResultPrinter>(new ResultPrinter()));
  unsigned counted = 0;
  engine.connectStreamToCallback("count", [&counted](void *p) {
    *static_cast<unsigned *>(p) = 3;
    ++counted;
  });
  engine.load(device);
  engine.run(0);

  std::cout << "count callback calls " << counted << "\n";
  for (const std::string &entry : log)
    std::cout << "in: " << entry << "\n";
  return 0;
}
