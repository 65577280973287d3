// poplar::cycleCount and cycleStamp read the simulator's cycle model from inside a program, and
// Engine::disableExecutionProfiling stops recording runs without stopping them.

#include "TestSupport.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <poplar/CycleCount.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <tilescope/capture/ProfileRecords.hpp>

using namespace poplar;
using namespace poplar::program;
using tilescope::capture::StepKind;

namespace {

std::uint64_t toCycles(const std::uint32_t (&words)[2]) {
    return words[0] | static_cast<std::uint64_t>(words[1]) << 32;
}

std::uint64_t stepCycles(const tilescope::capture::StepExecutionRecord& s) {
    const auto& perTile = s.perTileCycles();
    return perTile.empty() ? 0 : *std::max_element(perTile.begin(), perTile.end());
}

/// 4 tiles summing rows of `data` into `sums`.
struct SumGraph {
    static Device fourTiles() {
        IPUModel m;
        m.tilesPerIPU = 4;
        return m.createDevice();
    }
    Device device = fourTiles();
    Graph g{device.getTarget()};
    Tensor data, sums;
    ComputeSet cs;
    SumGraph() {
        g.addCodelets(simtest::exampleCodelet("basic_codelets.cpp"));
        data = g.addVariable(FLOAT, {4, 8}, "data");
        sums = g.addVariable(FLOAT, {4}, "sums");
        cs = g.addComputeSet("sum");
        for (unsigned t = 0; t < 4; ++t) {
            g.setTileMapping(data[t], t);
            g.setTileMapping(sums[t], t);
            VertexRef v = g.addVertex(cs, "SumVertex", {{"in", data[t]}, {"out", sums[t]}});
            g.setTileMapping(v, t);
        }
        g.createHostWrite("data", data);
        g.createHostRead("sums", sums);
    }
};

} // namespace

TEST_CASE("cycleCount measures the cycles of the wrapped sequence on a tile", "[cycles]") {
    SumGraph s;
    Sequence body{Execute(s.cs), Execute(s.cs)};
    Tensor counter = cycleCount(s.g, body, 2, SyncType::INTERNAL, "timer");
    CHECK(counter.elementType() == UNSIGNED_INT);
    CHECK(counter.numElements() == 2);
    CHECK(s.g.getTileMapping(counter)[2].size() == 1);
    s.g.createHostRead("cycles", counter);
    Engine e(s.g, body);
    e.load(s.device);
    std::vector<float> host(32, 1.0f);
    e.writeTensor("data", host.data(), host.data() + host.size());
    e.run();
    std::uint32_t words[2] = {};
    e.readTensor("cycles", words, words + 2);
    float sums[4];
    e.readTensor("sums", sums, sums + 4);
    CHECK(sums[0] == 8.0f); // the wrapped programs still run

    // The sync comes first and is not counted; every later step is.
    const auto& run = e.executionRecords().runs.at(0);
    const auto& steps = e.compileRecords().steps;
    REQUIRE(!run.steps.empty());
    CHECK(steps[run.steps.front().step].kind == StepKind::Sync);
    std::uint64_t expected = 0;
    for (std::size_t i = 1; i < run.steps.size(); ++i)
        expected += stepCycles(run.steps[i]);
    CHECK(expected > 0);
    CHECK(toCycles(words) == expected);
    CHECK(toCycles(words) == run.totalCycles - stepCycles(run.steps.front()));

    CHECK_THROWS_AS(cycleCount(s.g, body, 4, SyncType::INTERNAL), index_error);
}

TEST_CASE("cycleStamp reads the counter at points of a program", "[cycles]") {
    SumGraph s;
    Sequence prog;
    Tensor before = cycleStamp(s.g, prog, 0, SyncType::EXTERNAL);
    prog.add(Execute(s.cs));
    const auto after = cycleStamp(s.g, prog, {0, 3}, SyncType::INTERNAL, "after");
    REQUIRE(after.size() == 2);
    s.g.createHostRead("before", before);
    s.g.createHostRead("after0", after[0]);
    s.g.createHostRead("after3", after[1]);
    Engine e(s.g, prog);
    e.load(s.device);
    std::vector<float> host(32, 1.0f);
    e.writeTensor("data", host.data(), host.data() + host.size());
    e.run();
    std::uint32_t b[2], a0[2], a3[2];
    e.readTensor("before", b, b + 2);
    e.readTensor("after0", a0, a0 + 2);
    e.readTensor("after3", a3, a3 + 2);
    const auto& run = e.executionRecords().runs.at(0);
    // before: after the first (external) sync; after: at the end, after the second sync.
    CHECK(toCycles(b) == stepCycles(run.steps.front()));
    CHECK(toCycles(a0) == run.totalCycles);
    CHECK(toCycles(a3) == toCycles(a0));
    CHECK(toCycles(a0) > toCycles(b));
}

TEST_CASE("disabled execution profiling records no runs but runs them", "[cycles][engine]") {
    SumGraph s;
    Sequence prog{Execute(s.cs)};
    Tensor counter = cycleCount(s.g, prog, 0, SyncType::INTERNAL);
    s.g.createHostRead("cycles", counter);
    Engine e(s.g, prog);
    e.disableExecutionProfiling(); // before load, as well as after
    e.load(s.device);
    std::vector<float> host(32, 2.0f);
    e.writeTensor("data", host.data(), host.data() + host.size());
    e.run();
    CHECK(e.executionRecords().runs.empty());
    float sums[4];
    e.readTensor("sums", sums, sums + 4);
    CHECK(sums[1] == 16.0f);
    std::uint32_t words[2] = {};
    e.readTensor("cycles", words, words + 2);
    CHECK(toCycles(words) > 0);
    e.enableExecutionProfiling();
    e.run();
    CHECK(e.executionRecords().runs.size() == 1);
    e.disableExecutionProfiling();
    e.run();
    e.run();
    CHECK(e.executionRecords().runs.size() == 1);
    e.enableExecutionProfiling();
    e.run();
    CHECK(e.executionRecords().runs.size() == 2);
}
