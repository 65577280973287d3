// poplar/CSRFunctions.hpp: floating-point behaviour flags are accepted (the simulator raises no
// floating-point exceptions) and stochastic rounding is refused by name.

#include <catch2/catch.hpp>
#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <tilescope/sim/GraphModel.hpp>

using namespace poplar;
using namespace poplar::program;

TEST_CASE("FloatingPointBehaviour has the SDK's defaults and inverts", "[sdk][csr]") {
    const FloatingPointBehaviour defaults;
    CHECK(defaults.inv);
    CHECK(defaults.div0);
    CHECK(defaults.oflo);
    CHECK_FALSE(defaults.esr);
    CHECK(defaults.nanoo);
    const FloatingPointBehaviour inverted = !FloatingPointBehaviour(true, false, true, false, true);
    CHECK_FALSE(inverted.inv);
    CHECK(inverted.div0);
    CHECK_FALSE(inverted.oflo);
    CHECK(inverted.esr);
    CHECK_FALSE(inverted.nanoo);
}

TEST_CASE("setFloatingPointBehaviour without stochastic rounding leaves the program's results",
          "[sdk][csr][engine]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor t = g.addVariable(FLOAT, {2}, "t");
    g.setTileMapping(t, 0);
    g.setInitialValue(t, ArrayRef<float>({1.5f, -2.0f}));
    g.createHostRead("t", t);
    Sequence prog;
    setFloatingPointBehaviour(g, prog, {true, true, true, false, true}, "checks on");
    FloatingPointBehaviour quiet;
    quiet.inv = quiet.div0 = quiet.oflo = quiet.nanoo = false;
    setFloatingPointBehaviour(g, prog, quiet);
    setStochasticRounding(g, prog, false, "sr off");
    Engine e(g, prog);
    e.load(device);
    e.run();
    std::vector<float> out(2);
    e.readTensor("t", out.data(), out.data() + 2);
    CHECK(out == std::vector<float>{1.5f, -2.0f});
}

TEST_CASE("stochastic rounding is refused with an error naming it", "[sdk][csr][errors]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    Sequence prog;
    CHECK_THROWS_WITH(setFloatingPointBehaviour(g, prog, {true, true, true, true, true}, "fp"),
                      Catch::Contains("stochastic rounding is not supported") &&
                          Catch::Contains("'fp'"));
    CHECK_THROWS_AS(setStochasticRounding(g, prog, true), poplar_error);
}

TEST_CASE("setCycleEstimate is the older name of setPerfEstimate", "[sdk][graph]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    g.addCodelets(std::string(SIMCORE_TEST_CODELETS_DIR) + "/const_state.cpp");
    ComputeSet cs = g.addComputeSet("cs");
    VertexRef v = g.addVertex(cs, "ScaledRowSums");
    g.setCycleEstimate(v, 42);
    CHECK(g.model()->vertices.at(v.getId()).perfEstimate == std::uint64_t(42));
}
