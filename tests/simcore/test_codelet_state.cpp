// Codelets as hand-written IPU programs have them: `const` vertex state with a constructor that is
// declared but never defined, lists of SPAN rows, and Clang's ext_vector_type (built with Clang
// when TILESCOPE_CODELET_CXX names it, refused with a hint otherwise). Also the IPUModel knobs
// such programs set.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <tilescope/sim/CostModel.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace simtest;

namespace {

/// Sets TILESCOPE_CODELET_CXX for one scope.
class CodeletCompilerOverride {
public:
    explicit CodeletCompilerOverride(const char* compiler) {
        if (const char* old = std::getenv("TILESCOPE_CODELET_CXX"))
            saved_ = old, hadOld_ = true;
        setenv("TILESCOPE_CODELET_CXX", compiler, 1);
    }
    ~CodeletCompilerOverride() {
        if (hadOld_)
            setenv("TILESCOPE_CODELET_CXX", saved_.c_str(), 1);
        else
            unsetenv("TILESCOPE_CODELET_CXX");
    }

private:
    std::string saved_;
    bool hadOld_ = false;
};

bool clangAvailable() {
    return run("command -v clang++ >/dev/null 2>&1").status == 0;
}

} // namespace

TEST_CASE("const vertex state with an undefined constructor is set from the graph",
          "[codelets][sdk][engine]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    g.addCodelets(testCodelet("const_state.cpp"));
    Tensor m = g.addVariable(FLOAT, {2, 3}, "m");
    Tensor sums = g.addVariable(FLOAT, {2}, "sums");
    g.setTileMapping(m, 0);
    g.setTileMapping(sums, 1);
    ComputeSet cs = g.addComputeSet("cs");
    VertexRef v = g.addVertex(cs, "ScaledRowSums", {{"rows", m}, {"sums", sums}});
    g.setInitialValue(v["scale"], 2.0f);
    g.setInitialValue(v["skip"], 1u);
    g.setInitialValue(v["offset"], -1);
    g.setTileMapping(v, 1);
    g.createHostWrite("m", m);
    g.createHostRead("sums", sums);
    Engine e(g, Execute(cs));
    e.load(device);
    const std::vector<float> host = {1, 2, 3, 10, 20, 30};
    e.writeTensor("m", host.data(), host.data() + host.size());
    e.run();
    std::vector<float> out(2);
    e.readTensor("sums", out.data(), out.data() + out.size());
    // Rows without their first element, doubled, minus one.
    CHECK(out == std::vector<float>{9, 99});
}

TEST_CASE("const fields are fields of the vertex type", "[codelets][sdk]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    g.addCodelets(testCodelet("const_state.cpp"));
    ComputeSet cs = g.addComputeSet("cs");
    VertexRef v = g.addVertex(cs, "ScaledRowSums");
    for (const char* field : {"rows", "sums", "scale", "skip", "offset"})
        CHECK_NOTHROW(v[field]);
}

TEST_CASE("ext_vector_type codelets need Clang, which TILESCOPE_CODELET_CXX selects",
          "[codelets][sdk][clang]") {
    SECTION("the host's default compiler refuses them with a hint") {
        CodeletCompilerOverride gcc("g++");
        Graph g(Target::createIPUTarget(1, 4, "ipu2"));
        CHECK_THROWS_WITH(g.addCodelets(testCodelet("clang_vectors.cpp")),
                          Catch::Contains("ext_vector_type, a Clang extension") &&
                              Catch::Contains("TILESCOPE_CODELET_CXX=clang++"));
    }
    SECTION("Clang builds and runs them") {
        if (!clangAvailable()) {
            WARN("clang++ is not installed: the Clang build of codelets is not tested");
            return;
        }
        CodeletCompilerOverride clang("clang++");
        Device device = IPUModel().createDevice();
        Graph g(device.getTarget());
        g.addCodelets(testCodelet("clang_vectors.cpp"));
        // The registration and the SDK's codelet headers compile under Clang too.
        g.addCodelets(testCodelet("const_state.cpp"));
        Tensor in = g.addVariable(FLOAT, {6}, "in");
        Tensor out = g.addVariable(FLOAT, {6}, "out");
        g.setTileMapping(in, 0);
        g.setTileMapping(out, 0);
        ComputeSet cs = g.addComputeSet("cs");
        g.setTileMapping(g.addVertex(cs, "SwapPairs", {{"in", in}, {"out", out}}), 0);
        g.createHostWrite("in", in);
        g.createHostRead("out", out);
        Engine e(g, Execute(cs));
        e.load(device);
        const std::vector<float> host = {1, 2, 3, 4, 5, 6};
        e.writeTensor("in", host.data(), host.data() + host.size());
        e.run();
        std::vector<float> result(6);
        e.readTensor("out", result.data(), result.data() + result.size());
        CHECK(result == std::vector<float>{2, 1, 4, 3, 6, 5});
    }
}

TEST_CASE("IPUModel's sync-delay knobs set what every sync of the device costs",
          "[devices][sdk][cycles]") {
    const tilescope::sim::CostModel costs;
    IPUModel model("ipu1");
    CHECK(model.minIPUSyncDelay == tilescope::sim::TargetSpec::kDefaultMinIpuSyncDelay);
    CHECK(model.relativeSyncDelay == IPUModel::RelativeSyncDelayType::AUTO);
    // By default: the delay plus the release of the furthest of 38 columns of 32 tiles, 19 away.
    CHECK(costs.syncCycles(model.createDevice().getTarget().spec(), false) ==
          tilescope::sim::TargetSpec::kDefaultMinIpuSyncDelay +
              19 * costs.relativeSyncDelayCyclesPerColumn);
    model.minIPUSyncDelay = 0;
    model.relativeSyncDelay = IPUModel::RelativeSyncDelayType::NO_DELAY;
    Device device = model.createDevice();
    CHECK(device.getTarget().getTargetArchString() == "ipu1");
    CHECK(device.getTarget().getNumTiles() == 1216);
    CHECK(costs.syncCycles(device.getTarget().spec(), false) == 0);
    CHECK(costs.syncCycles(device.getTarget().spec(), true) == 0);
}
