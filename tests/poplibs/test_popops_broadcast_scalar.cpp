// Binary operations with a one-element operand run on PopLibs' BroadcastScalar1D vertex (its
// binaryOp takes that path whenever haveScalarBroadcastVertexForOp allows it), computed right and
// costed by PopLibs' broadcastArithmeticSupervisorCycleEstimate, worked out here by hand.

#include "PoplibsHarness.hpp"
#include "VertexEstimates.hpp"
#include "popops/ElementWiseCycles.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <popops/ElementWise.hpp>
#include <tilescope/sim/GraphModel.hpp>

namespace cycles = tilescope::poplibs::cycles;
using poplibstest::Harness;
using popops::expr::BinaryOpType;

using poplibstest::ipu2;
using poplibstest::vertexEstimates;

namespace {

/// The vertex type names of compute set `cs`, sorted and unique.
std::vector<std::string> vertexTypes(const poplar::Graph& g, std::uint32_t cs) {
    std::vector<std::string> out;
    for (const auto& v : g.model()->vertices)
        if (v.computeSet == cs)
            out.push_back(g.model()->vertexTypes.at(v.type).name);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace

TEST_CASE("BroadcastScalar1D worker cycles follow PopLibs' broadcast estimator") {
    const auto t = ipu2();
    // 20 cycles, then broadcastOpPerfInfo's loops. POWER: 312 (FLOAT) / 325 (HALF) per element,
    // against BinaryOp1D's 29 / 26 fixed cycles with the same loop.
    CHECK(cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::POWER, poplar::FLOAT, false, 5) ==
          20 + 5 * 312);
    CHECK(cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::POWER, poplar::HALF, false, 5) ==
          20 + 5 * 325);
    CHECK(
        cycles::binaryOp1DWorkerCycles(t, BinaryOpType::POWER, poplar::HALF, false, 5) -
            cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::POWER, poplar::HALF, false, 5) ==
        6);
    // Assembly ADD/SUBTRACT/MULTIPLY: 1 + 1 cycles per 64-bit vector (2 FLOAT, 4 HALF).
    CHECK(cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::ADD, poplar::FLOAT, false, 11) ==
          20 + 6 * 2);
    CHECK(cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::MULTIPLY, poplar::HALF, true,
                                                10) == 20 + 3 * 2);
    // Unrolled loops: DIVIDE 8 cycles per 2 FLOAT, 21 per 4 HALF; INT ADD 6 per element.
    CHECK(cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::DIVIDE, poplar::FLOAT, false, 9) ==
          20 + 5 * 8);
    CHECK(cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::DIVIDE, poplar::HALF, false, 9) ==
          20 + 3 * 21);
    CHECK(cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::ADD, poplar::INT, false, 7) ==
          20 + 7 * 6);
    // Comparisons give BOOL: FLOAT LESS_THAN 12 per 4 elements; BOOL EQUAL 25 per 4.
    CHECK(cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::LESS_THAN, poplar::FLOAT, false,
                                                9) == 20 + 3 * 12);
    CHECK(cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::EQUAL, poplar::BOOL, false, 8) ==
          20 + 2 * 25);
    // The MultiVertex: 6 x worker(ceil(n / 6)) + 11 supervisor cycles.
    CHECK(cycles::broadcastScalar1DVertexCycles(t, BinaryOpType::POWER, poplar::HALF, false, 64) ==
          6 * (20 + 11 * 325) + 11);
}

TEST_CASE("a binary op with a scalar operand runs on BroadcastScalar1D, computes right and is "
          "costed by the broadcast estimator") {
    for (const auto& type : {poplar::FLOAT, poplar::HALF}) {
        INFO("type " << type);
        Harness h(1);
        const auto xv = poplibstest::values(24, 0.5, 2.0, 3);
        auto x = h.input(type, {4, 6}, xv, "x");
        h.graph.setTileMapping(x, 0);
        auto e = h.input(type, {1}, {2.0}, "e");
        h.graph.setTileMapping(e, 0);
        auto c = h.input(type, {}, {3.0}, "c");
        h.graph.setTileMapping(c, 0);
        auto y = popops::map(h.graph, BinaryOpType::POWER, x, e, h.prog, "pow");
        // A scalar first operand of a commutative operation: swapped, as PopLibs does.
        auto z = popops::map(h.graph, BinaryOpType::MULTIPLY, c, x, h.prog, "mul");
        // Not commutative with the scalar first: stays on BinaryOp1D over a broadcast view.
        auto w = popops::map(h.graph, BinaryOpType::SUBTRACT, c, x, h.prog, "sub");
        // In place with a scalar second operand.
        auto u = h.input(type, {4, 6}, xv, "u");
        h.graph.setTileMapping(u, 0);
        popops::mapInPlace(h.graph, BinaryOpType::ADD, u, c, h.prog, "addInPlace");
        h.output(y, "y");
        h.output(z, "z");
        h.output(w, "w");
        h.output(u, "u");

        const auto& sets = h.graph.model()->computeSets;
        REQUIRE(sets.size() == 4);
        const std::string ty = type == poplar::FLOAT ? "float" : "half";
        CHECK(vertexTypes(h.graph, 0) ==
              std::vector<std::string>{"popops::BroadcastScalar1D<popops::expr::BinaryOpType::"
                                       "POWER," +
                                       ty + ">"});
        CHECK(vertexTypes(h.graph, 1) ==
              std::vector<std::string>{"popops::BroadcastScalar1D<popops::expr::BinaryOpType::"
                                       "MULTIPLY," +
                                       ty + ">"});
        CHECK(vertexTypes(h.graph, 2) ==
              std::vector<std::string>{"popops::BinaryOp1D<popops::expr::BinaryOpType::"
                                       "SUBTRACT," +
                                       ty + ">"});
        CHECK(vertexTypes(h.graph, 3) ==
              std::vector<std::string>{"popops::BroadcastScalar1DInPlace<popops::expr::"
                                       "BinaryOpType::ADD," +
                                       ty + ">"});
        // 24 elements on one tile: chunks of ceil(24 / 6) = 4 (a whole vector either way).
        const auto& t = h.graph.getTarget();
        const std::uint64_t powWorker =
            cycles::broadcastScalar1DWorkerCycles(t, BinaryOpType::POWER, type, false, 4);
        CHECK(powWorker == 20 + 4 * (type == poplar::FLOAT ? 312 : 325));
        CHECK(vertexEstimates(h.graph, 0, 0) == std::vector<std::uint64_t>(6, powWorker));

        const auto r = h.run();
        const double tol = type == poplar::FLOAT ? 1e-5 : 1e-2;
        for (std::size_t i = 0; i < xv.size(); ++i) {
            const double xi = type == poplar::HALF ? static_cast<double>(poplar::half(xv[i]))
                                                   : static_cast<float>(xv[i]);
            CHECK(r.at("y")[i] == Approx(xi * xi).epsilon(tol));
            CHECK(r.at("z")[i] == Approx(3.0 * xi).epsilon(tol));
            CHECK(r.at("w")[i] == Approx(3.0 - xi).epsilon(tol).margin(tol));
            CHECK(r.at("u")[i] == Approx(xi + 3.0).epsilon(tol));
        }
    }
}

TEST_CASE("a scalar operand over data in many regions of a tile runs on BroadcastScalar2DData, "
          "as PopLibs' cost comparison picks") {
    // x {64, 8} FLOAT: even rows on tile 0, odd rows on tile 1, so each tile holds 32 regions of
    // 8 elements. By hand (PopLibs' createVertexBinaryOpBroadcastScalar):
    //   one BroadcastScalar1D MultiVertex per region: 6 x (20 + 1 vector x 2) + 11 = 143 cycles,
    //   32 of them 4,576;
    //   BroadcastScalar2DData: 256 elements in grains of max(2, 4 bytes) = 4: 11 grains (44
    //   elements) a worker; the busiest worker has 6 regions (8, 8, 8, 8, 8, 4): 20 + 5 x (4 x 2
    //   + 28) + (2 x 2 + 28) = 232 thread cycles, x 6 = 1,392 < 4,576: the 2D vertices win.
    for (bool inPlace : {false, true}) {
        INFO("in place " << inPlace);
        Harness h(2);
        const auto xv = poplibstest::values(512, -2.0, 2.0, 9);
        auto x = h.input(poplar::FLOAT, {64, 8}, xv, "x");
        for (unsigned r = 0; r < 64; ++r)
            h.graph.setTileMapping(x[r], r % 2);
        auto c = h.input(poplar::FLOAT, {}, {1.5}, "c");
        h.graph.setTileMapping(c, 0);
        poplar::Tensor y = x;
        if (inPlace)
            popops::mapInPlace(h.graph, BinaryOpType::MULTIPLY, x, c, h.prog, "mulInPlace");
        else
            y = popops::map(h.graph, BinaryOpType::MULTIPLY, x, c, h.prog, "mul");
        h.output(y, "y");
        const std::string name = inPlace ? "popops::BroadcastScalar2DDataInPlace<popops::expr::"
                                           "BinaryOpType::MULTIPLY,float>"
                                         : "popops::BroadcastScalar2DData<popops::expr::"
                                           "BinaryOpType::MULTIPLY,float>";
        CHECK(vertexTypes(h.graph, 0) == std::vector<std::string>{name});
        // Six workers' shares: 44 elements each, the last 36 (4, 8, 8, 8, 8).
        CHECK(vertexEstimates(h.graph, 0, 0) ==
              std::vector<std::uint64_t>{232, 232, 232, 232, 232, 196});
        const auto out = h.run()["y"];
        for (std::size_t i = 0; i < 512; ++i)
            CHECK(out[i] == Approx(xv[i] * 1.5));
    }
    // The figures above, from the estimators.
    const auto t = ipu2();
    CHECK(cycles::broadcastScalar1DVertexCycles(t, BinaryOpType::MULTIPLY, poplar::FLOAT, false,
                                                8) == 143);
    CHECK(cycles::broadcastScalar2DWorkerCycles(t, BinaryOpType::MULTIPLY, poplar::FLOAT, false,
                                                {8, 8, 8, 8, 8, 4}) == 232);
}
