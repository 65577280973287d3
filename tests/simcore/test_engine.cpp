// The BSP engine: thread-count independence, streams, multiple programs, PrintTensor, summaries
// and engine options.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <sstream>
#include <tilescope/capture/ProfileRecords.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

struct RunResult {
    std::vector<float> values;
    tilescope::capture::ExecutionRecords execution;
};

/// A graph with work on 64 tiles over several compute sets, cross-tile inputs and a loop.
RunResult runWithThreads(const std::string& threads) {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    g.addCodelets(simtest::exampleCodelet("basic_codelets.cpp"));
    constexpr unsigned tiles = 64;
    Tensor data = g.addVariable(FLOAT, {tiles, 16}, "data");
    Tensor sums = g.addVariable(FLOAT, {tiles}, "sums");
    ComputeSet sum = g.addComputeSet("sum");
    ComputeSet scale = g.addComputeSet("scale");
    for (unsigned t = 0; t < tiles; ++t) {
        g.setTileMapping(data[t], t);
        g.setTileMapping(sums[t], t);
        VertexRef v =
            g.addVertex(sum, "SumVertex", {{"in", data[(t * 7 + 3) % tiles]}, {"out", sums[t]}});
        g.setTileMapping(v, t);
        VertexRef s = g.addVertex(scale, "ScaleRows");
        g.connect(s["rows"], data.slice(t, t + 1));
        g.setInitialValue(s["scale"], 1.0f + static_cast<float>(t % 3) / 8);
        g.setTileMapping(s, t);
    }
    g.createHostWrite("data", data);
    g.createHostRead("sums", sums);
    Engine e(g, Repeat(5, Sequence{Execute(scale), Execute(sum)}),
             {{"tilescope.hostThreads", threads}});
    e.load(device);
    std::vector<float> host(tiles * 16);
    for (std::size_t i = 0; i < host.size(); ++i)
        host[i] = static_cast<float>(i % 13) / 4;
    e.writeTensor("data", host.data(), host.data() + host.size());
    e.run();
    e.run();
    RunResult r;
    r.values.resize(tiles);
    e.readTensor("sums", r.values.data(), r.values.data() + tiles);
    r.execution = e.executionRecords();
    return r;
}

} // namespace

TEST_CASE("results and cycles do not depend on the number of host threads", "[engine][threads]") {
    const auto one = runWithThreads("1");
    const auto two = runWithThreads("2");
    CHECK(one.values == two.values);
    REQUIRE(one.execution.runs.size() == 2);
    REQUIRE(two.execution.runs.size() == 2);
    for (std::size_t r = 0; r < 2; ++r) {
        const auto& a = one.execution.runs[r];
        const auto& b = two.execution.runs[r];
        CHECK(a.totalCycles == b.totalCycles);
        CHECK(a.totalCycles > 0);
        REQUIRE(a.steps.size() == b.steps.size());
        CHECK(a.steps.size() == 5 * 4); // scale, then sync + exchange + sum, five times
        for (std::size_t s = 0; s < a.steps.size(); ++s) {
            CHECK(a.steps[s].step == b.steps[s].step);
            CHECK(a.steps[s].startCycle == b.steps[s].startCycle);
            CHECK(a.steps[s].perTileCycles() == b.steps[s].perTileCycles());
        }
    }
    // Tile 1 sums row 10, which two runs of five loops scaled ten times by 1.125.
    float expected = 0;
    const unsigned src = 10;
    for (unsigned i = 0; i < 16; ++i) {
        float x = static_cast<float>((src * 16 + i) % 13) / 4;
        for (int k = 0; k < 10; ++k)
            x *= 1.0f + static_cast<float>(src % 3) / 8;
        expected += x;
    }
    CHECK(one.values[1] == Approx(expected).epsilon(1e-6));
}

TEST_CASE("streams cycle through their buffer and reach callbacks", "[engine][streams]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor t = g.addVariable(UNSIGNED_SHORT, {3}, "t");
    g.setTileMapping(t, 2);
    DataStream in = g.addHostToDeviceFIFO("in", UNSIGNED_SHORT, 3);
    DataStream out = g.addDeviceToHostFIFO("out", UNSIGNED_SHORT, 3);
    Engine e(g, Sequence(Repeat(1, Sequence(Copy(in, t))), Copy(t, out)));
    e.load(device);
    std::vector<unsigned short> src = {1, 2, 3, 4, 5, 6};
    std::vector<unsigned short> seen;
    e.connectStream("in", src.data(), src.data() + src.size());
    e.connectStreamToCallback("out", [&](void* p) {
        auto* v = static_cast<unsigned short*>(p);
        seen.insert(seen.end(), v, v + 3);
    });
    for (int i = 0; i < 3; ++i)
        e.run();
    CHECK(seen == std::vector<unsigned short>{1, 2, 3, 4, 5, 6, 1, 2, 3});
    CHECK_THROWS_AS(e.connectStream("in", src.data(), src.data() + 2), stream_connection_error);
}

TEST_CASE("an engine runs any of its programs, functions are shared", "[engine]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor a = g.addVariable(INT, {2}, "a");
    Tensor b = g.addVariable(INT, {2}, "b");
    g.setTileMapping(a, 0);
    g.setTileMapping(b, 1);
    g.setInitialValue(a, ArrayRef<int>({4, 5}));
    Function swap = g.addFunction(Sequence{Copy(a, b), Copy(b.reverse(0), a)});
    std::ostringstream printed;
    Engine e(g, {Sequence{Call(swap), PrintTensor("a", a)},
                 Sequence{Call(swap), Call(swap), PrintTensor("b", b)}});
    e.setPrintStream(printed);
    e.load(device);
    e.run(0);
    e.run(1);
    // Run 0 swaps once (a = [5 4]); run 1 swaps twice more: b = [4 5], a = [5 4].
    CHECK(printed.str() == "a: [5 4]\nb: [4 5]\n");
    CHECK_THROWS_AS(e.run(2), index_error);
    const auto& r = e.compileRecords();
    CHECK(r.entryPoints.size() == 2);
    CHECK(r.functions.size() == 1);
    CHECK(e.executionRecords().runs.size() == 2);
    CHECK(e.executionRecords().runs[1].programIndex == 1);
}

TEST_CASE("PrintTensor prints scalars, vectors and nested ranks", "[engine][print]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor s = g.addConstant<float>(FLOAT, {}, 0.25f, "s");
    Tensor b = g.addConstant<bool>(BOOL, {2}, ArrayRef<bool>({true, false}), "b");
    Tensor h = g.addConstant<float>(HALF, {1, 2}, ArrayRef<float>({1.0f, -0.5f}), "h");
    Tensor c = g.addConstant<int>(INT, {2, 1, 2}, ArrayRef<int>({1, -2, 3, 4}), "c");
    for (const auto& t : {s, b, h, c})
        g.setTileMapping(t, 0);
    std::ostringstream out;
    Engine e(g, Sequence{PrintTensor(s), PrintTensor("bools", b), PrintTensor("halves", h),
                         PrintTensor("cube", c)});
    e.setPrintStream(out);
    e.load(device);
    e.run();
    CHECK(out.str() == "s: 0.2500000\n"
                       "bools: [1 0]\n"
                       "halves: [\n [1.0000000 -0.5000000]\n]\n"
                       "cube: [\n [\n  [1 -2]\n ]\n [\n  [3 4]\n ]\n]\n");
}

TEST_CASE("printProfileSummary prints memory, cycles and, on request, the steps",
          "[engine][summary]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor a = g.addVariable(FLOAT, {4}, "a");
    Tensor b = g.addVariable(FLOAT, {4}, "b");
    g.setTileMapping(a, 0);
    g.setTileMapping(b, 1);
    g.createHostWrite("a", a);
    Engine e(g, Sequence{Copy(a, b), PrintTensor(b)});
    std::ostringstream null;
    e.setPrintStream(null);
    e.load(device);
    e.run();
    std::ostringstream plain, steps;
    e.printProfileSummary(plain);
    e.printProfileSummary(steps, {{"showExecutionSteps", "true"}, {"showVarStorage", "true"}});
    const std::string p = plain.str(), s = steps.str();
    for (const char* section :
         {"Target:", "Graph:", "Memory Usage:", "Execution:", "Tiles per IPU:", "1,472",
          "always_live_variables:", "Total cycles:"})
        CHECK(p.find(section) != std::string::npos);
    CHECK(p.find("DoExchange") != std::string::npos);
    CHECK(p.find("Run 0") == std::string::npos);
    CHECK(s.find("Run 0 (program 0):") != std::string::npos);
    CHECK(s.find("StreamCopyMid") != std::string::npos);
    CHECK(s.find("Largest variables:") != std::string::npos);
    CHECK_THROWS_AS(e.printProfileSummary(plain, {{"showSteps", "true"}}), invalid_option);
}

TEST_CASE("POPLAR_ENGINE_OPTIONS is read and overrides API options", "[engine][options]") {
    Graph g(Target::createIPUTarget(1, 2, "ipu2"));
    Tensor big = g.addVariable(FLOAT, {200000}, "big");
    g.setTileMapping(big, 0);
    setenv("POPLAR_ENGINE_OPTIONS", R"({"debug.allowOutOfMemory": "true"})", 1);
    CHECK_NOTHROW(Engine(g, PrintTensor(big.slice(0, 2)), {{"debug.allowOutOfMemory", "false"}}));
    // Values are strings, as in Poplar: a JSON boolean names the option and what was expected.
    setenv("POPLAR_ENGINE_OPTIONS", R"({"debug.allowOutOfMemory": true})", 1);
    CHECK_THROWS_WITH(Engine(g, PrintTensor(big.slice(0, 2))),
                      Catch::Contains("POPLAR_ENGINE_OPTIONS") &&
                          Catch::Contains("debug.allowOutOfMemory") &&
                          Catch::Contains("string value"));
    setenv("POPLAR_ENGINE_OPTIONS", "{not json", 1);
    CHECK_THROWS_AS(Engine(g, PrintTensor(big.slice(0, 2))), invalid_option);
    setenv("POPLAR_ENGINE_OPTIONS", R"({"debug.allowOutofMemory": "true"})", 1);
    CHECK_THROWS_WITH(Engine(g, PrintTensor(big.slice(0, 2))),
                      Catch::Contains("debug.allowOutofMemory") &&
                          Catch::Contains("did you mean 'debug.allowOutOfMemory'"));
    unsetenv("POPLAR_ENGINE_OPTIONS");
    CHECK_THROWS_AS(Engine(g, PrintTensor(big.slice(0, 2))), graph_memory_allocation_error);
}

TEST_CASE("runs past executionProfileProgramRunCount keep their totals and no steps",
          "[engine][records]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor a = g.addVariable(INT, {2}, "a");
    Tensor b = g.addVariable(INT, {2}, "b");
    g.setTileMapping(a, 0);
    g.setTileMapping(b, 1);
    Engine e(g, {Repeat(3, Sequence{Copy(a, b), Copy(b.reverse(0), a)}), Copy(b, a)},
             {{"autoReport.executionProfileProgramRunCount", "1"}});
    e.load(device);
    for (unsigned r = 0; r < 3; ++r)
        e.run(0);
    e.run(1);
    const auto& runs = e.executionRecords().runs;
    REQUIRE(runs.size() == 4);
    CHECK(runs[0].stepsRecorded);
    CHECK(!runs[0].steps.empty());
    for (unsigned r = 1; r < 3; ++r) {
        CHECK_FALSE(runs[r].stepsRecorded);
        CHECK(runs[r].steps.empty());
        CHECK(runs[r].totalCycles == runs[0].totalCycles);
    }
    // The count is per program: the first run of program 1 keeps its steps.
    CHECK(runs[3].stepsRecorded);
    CHECK(!runs[3].steps.empty());
    std::ostringstream summary;
    e.printProfileSummary(summary);
    CHECK(summary.str().find("Runs with steps") != std::string::npos);
}
