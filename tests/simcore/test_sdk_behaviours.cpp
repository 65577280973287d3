// SDK behaviours programs rely on: a number in addVertex's connection list for an Input field
// connects a constant on the vertex's tile (Poplar's ConnectionDesc(field, value)), and
// Engine::getTimeStamp / reportTiming measure the device cycles and host time between two points.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <tilescope/capture/ProfileRecords.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

std::string codelet(const std::string& name) {
    return std::string(SIMCORE_TEST_CODELETS_DIR) + "/" + name;
}

struct ScaleBiasGraph {
    Device device = [] {
        IPUModel m;
        m.tilesPerIPU = 4;
        return m.createDevice();
    }();
    Graph g{device.getTarget()};
    Tensor x = g.addVariable(FLOAT, {4}, "x");
    Tensor y = g.addVariable(FLOAT, {4}, "y");
    ComputeSet cs = g.addComputeSet("scaleBias");
    ScaleBiasGraph() {
        g.addCodelets(codelet("scale_bias.cpp"));
        for (unsigned i = 0; i < 4; ++i) {
            g.setTileMapping(x[i], i);
            g.setTileMapping(y[i], i);
        }
        g.createHostWrite("x", x);
        g.createHostRead("y", y);
    }
};

} // namespace

TEST_CASE("numbers in addVertex's list connect constants to Input fields", "[sdk][vertices]") {
    ScaleBiasGraph s;
    for (unsigned i = 0; i < 4; ++i) {
        VertexRef v =
            s.g.addVertex(s.cs, "ScaleBias",
                          {{"in", s.x[i]}, {"scale", 0.5 + i}, {"bias", 10 * i}, {"out", s.y[i]}});
        s.g.setTileMapping(v, i);
    }
    Engine e(s.g, Execute(s.cs));
    e.load(s.device);
    std::vector<float> in = {2, 4, 6, 8}, out(4);
    e.writeTensor("x", in.data(), in.data() + 4);
    e.run();
    e.readTensor("y", out.data(), out.data() + 4);
    CHECK(out == std::vector<float>{1, 16, 35, 58});
    // Each constant lives on its vertex's tile, so the vertices need no exchange.
    bool constantsOnTiles = true;
    for (const auto& step : e.compileRecords().steps)
        if (step.kind == tilescope::capture::StepKind::DoExchange)
            constantsOnTiles = false;
    CHECK(constantsOnTiles);
}

TEST_CASE("a number for a field that is not a scalar Input is refused by name", "[sdk][vertices]") {
    ScaleBiasGraph s;
    CHECK_THROWS_WITH(s.g.addVertex(s.cs, "ScaleBias", {{"in", s.x[0]}, {"out", 1.0f}}),
                      Catch::Contains("field 'out'") && Catch::Contains("not a scalar Input"));
    CHECK_THROWS_AS(s.g.addVertex(s.cs, "ScaleBias", {{"bias", -1}}), type_error);
}

TEST_CASE("getTimeStamp and reportTiming measure the runs between two points", "[sdk][timing]") {
    ScaleBiasGraph s;
    for (unsigned i = 0; i < 4; ++i) {
        VertexRef v = s.g.addVertex(
            s.cs, "ScaleBias", {{"in", s.x[i]}, {"scale", 1.0f}, {"bias", 0u}, {"out", s.y[i]}});
        s.g.setTileMapping(v, i);
    }
    Engine e(s.g, Execute(s.cs));
    e.load(s.device);
    const Engine::TimerTimePoint t0 = e.getTimeStamp();
    CHECK(t0.deviceCycles == 0);
    e.run();
    e.run();
    const Engine::TimerTimePoint t1 = e.getTimeStamp();
    const auto& runs = e.executionRecords().runs;
    REQUIRE(runs.size() == 2);
    CHECK(t1.deviceCycles == runs[0].totalCycles + runs[1].totalCycles);
    const std::string report = e.reportTiming(t0, t1);
    CHECK_THAT(report,
               Catch::StartsWith("Device: " + std::to_string(t1.deviceCycles) + " cycles ("));
    CHECK_THAT(report, Catch::Contains("MHz), host: "));
    CHECK_THROWS_AS(e.reportTiming(t1, t0), poplar_error);
}
