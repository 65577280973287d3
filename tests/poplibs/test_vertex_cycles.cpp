// Per-vertex cycle estimates of the PopLibs subset against PopLibs' estimator formulas, worked out
// by hand for several sizes, and the worker split as the compiled program charges it: one vertex
// per worker chunk, the tile costing the compute-set overhead + 6 x its busiest worker.

#include "PoplibsHarness.hpp"
#include "VertexEstimates.hpp"
#include "common/CycleEstimates.hpp"
#include "popnn/NonLinearityCycles.hpp"
#include "popops/ElementWiseCycles.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <poplin/MatMul.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduction.hpp>
#include <tilescope/sim/CostModel.hpp>
#include <tilescope/sim/GraphModel.hpp>

namespace cycles = tilescope::poplibs::cycles;
using popops::expr::BinaryOpType;
using popops::expr::UnaryOpType;

using poplibstest::ipu2;
using poplibstest::stepCycles;
using poplibstest::vertexEstimates;

namespace {} // namespace

TEST_CASE("BinaryOp1D worker cycles follow PopLibs' estimator, FLOAT and HALF") {
    const auto t = ipu2();
    // ADD/SUBTRACT/MULTIPLY have assembly codelets: 1 + 2 cycles per 64-bit vector; worker
    // overhead 29 for FLOAT, 26 for HALF.
    CHECK(cycles::binaryOp1DWorkerCycles(t, BinaryOpType::ADD, poplar::FLOAT, false, 10) ==
          29 + 5 * 3);
    CHECK(cycles::binaryOp1DWorkerCycles(t, BinaryOpType::ADD, poplar::FLOAT, false, 11) ==
          29 + 6 * 3);
    CHECK(cycles::binaryOp1DWorkerCycles(t, BinaryOpType::MULTIPLY, poplar::HALF, false, 10) ==
          26 + 3 * 3);
    CHECK(cycles::binaryOp1DWorkerCycles(t, BinaryOpType::SUBTRACT, poplar::HALF, false, 1000) ==
          26 + 250 * 3);
    // Loops of a fixed number of elements: MAXIMUM 4 cycles per 2 FLOAT / 4 HALF.
    CHECK(cycles::binaryOp1DWorkerCycles(t, BinaryOpType::MAXIMUM, poplar::FLOAT, false, 9) ==
          29 + 5 * 4);
    CHECK(cycles::binaryOp1DWorkerCycles(t, BinaryOpType::DIVIDE, poplar::HALF, false, 9) ==
          26 + 3 * 21);
    // In place: worker overhead 58, same loop.
    CHECK(cycles::binaryOp1DWorkerCycles(t, BinaryOpType::ADD, poplar::FLOAT, true, 10) ==
          58 + 5 * 3);
    // The whole MultiVertex as PopLibs states it: 6 x worker(ceil(n / 6)) + 11 supervisor.
    CHECK(cycles::binaryOp1DVertexCycles(t, BinaryOpType::ADD, poplar::FLOAT, false, 100) ==
          6 * (29 + 9 * 3) + 11);
}

TEST_CASE("UnaryOp1D worker cycles follow PopLibs' estimator, FLOAT and HALF") {
    const auto t = ipu2();
    // EXPONENT: worker overhead 33; 6 cycles per 2 FLOAT, 4 per 4 HALF.
    CHECK(cycles::unaryOp1DWorkerCycles(t, UnaryOpType::EXPONENT, poplar::FLOAT, false, 10) ==
          33 + 5 * 6);
    CHECK(cycles::unaryOp1DWorkerCycles(t, UnaryOpType::EXPONENT, poplar::HALF, false, 10) ==
          33 + 3 * 4);
    // ABSOLUTE: one element per loop, 1 + 4 cycles; overhead 17.
    CHECK(cycles::unaryOp1DWorkerCycles(t, UnaryOpType::ABSOLUTE, poplar::FLOAT, false, 10) ==
          17 + 10 * 5);
    // CEIL: natural vectors at 2 + 4 cycles, evaluated as PopLibs does: (6 * (10 + 3)) / 4.
    CHECK(cycles::unaryOp1DWorkerCycles(t, UnaryOpType::CEIL, poplar::HALF, false, 10) ==
          17 + (6 * 13) / 4);
    // TANH in place: overhead 55, 10 cycles per 2 FLOAT (12 when not in place).
    CHECK(cycles::unaryOp1DWorkerCycles(t, UnaryOpType::TANH, poplar::FLOAT, true, 7) ==
          55 + 4 * 10);
    CHECK(cycles::unaryOp1DWorkerCycles(t, UnaryOpType::TANH, poplar::FLOAT, false, 7) ==
          17 + 4 * 12);
    CHECK(cycles::unaryOp1DVertexCycles(t, UnaryOpType::TANH, poplar::HALF, false, 48) ==
          6 * (17 + 2 * 4) + 9 + 11);
}

TEST_CASE("ScaledAdd worker cycles follow PopLibs' scaled-arithmetic estimator") {
    const auto t = ipu2();
    // 15 prologue + 2 + 1 remainder checks + 1 exit; 6 + 3 per further vector.
    CHECK(cycles::scaledAddWorkerCycles(t, poplar::FLOAT, 168) == 15 + 3 + 1 + 6 + 3 * 83);
    // A FLOAT remainder costs 8.
    CHECK(cycles::scaledAddWorkerCycles(t, poplar::FLOAT, 9) == 15 + 3 + 1 + 6 + 3 * 3 + 8);
    // HALF remainders: 5, + 7 for two, + 6 for a third.
    CHECK(cycles::scaledAddWorkerCycles(t, poplar::HALF, 8) == 15 + 3 + 1 + 6 + 3 * 1);
    CHECK(cycles::scaledAddWorkerCycles(t, poplar::HALF, 9) == 15 + 3 + 1 + 6 + 3 + 5);
    CHECK(cycles::scaledAddWorkerCycles(t, poplar::HALF, 11) == 15 + 3 + 1 + 6 + 3 + 5 + 7 + 6);
    CHECK(cycles::scaledAddWorkerCycles(t, poplar::HALF, 3) == 15 + 3 + 1 + 5 + 7 + 6);
}

TEST_CASE("popnn non-linearity worker cycles follow PopLibs' NonLinearity estimators") {
    const auto t = ipu2();
    using NL = popnn::NonLinearityType;
    // 20 set-up; 2 ops per vector pipelined: 2 + op + (v - 1) x 2 op + 1 + op; FLOAT remainder
    // test 3 (+ 2 + op for an odd element).
    CHECK(cycles::nonLinearityWorkerCycles(t, NL::RELU, poplar::FLOAT, 10) ==
          20 + (2 + 1 + 4 * 2 + 1 + 1) + 3);
    CHECK(cycles::nonLinearityWorkerCycles(t, NL::SIGMOID, poplar::FLOAT, 11) ==
          20 + (2 + 5 + 4 * 10 + 1 + 5) + 3 + 2 + 5);
    // HALF TANH (op 1): 3 vectors of 4 and 3 left over: a pair (2 + 1) and one (3 + 1).
    CHECK(cycles::nonLinearityWorkerCycles(t, NL::TANH, poplar::HALF, 15) ==
          20 + (2 + 1 + 2 * 2 + 1 + 1) + 4 + (2 + 1) + (3 + 1));
    // Gradients: 25 set-up, 4 + 3 per further vector + 1, remainder checks.
    CHECK(cycles::nonLinearityGradWorkerCycles(t, poplar::FLOAT, 10) == 25 + 4 + 3 * 4 + 1 + 4);
    CHECK(cycles::nonLinearityGradWorkerCycles(t, poplar::HALF, 7) == 25 + 4 + 1 + 6 + 5 + 7);
}

TEST_CASE("select and clamp worker cycles follow PopLibs' Select and Clamp estimators") {
    const auto t = ipu2();
    // 5 for the vertex, 6 for the region; select 5 per element.
    CHECK(cycles::ternaryOpWorkerCycles(t, false, poplar::FLOAT, 10) == 5 + 6 + 50);
    // clamp: 2 per vector, (2 x (n + w - 1)) / w as PopLibs evaluates it; INT 7 per element.
    CHECK(cycles::ternaryOpWorkerCycles(t, true, poplar::FLOAT, 9) == 5 + 6 + (2 * 10) / 2);
    CHECK(cycles::ternaryOpWorkerCycles(t, true, poplar::HALF, 9) == 5 + 6 + (2 * 12) / 4);
    CHECK(cycles::ternaryOpWorkerCycles(t, true, poplar::INT, 9) == 5 + 6 + 63);
}

TEST_CASE("ReduceAllRegionsContinuous follows PopLibs' estimator") {
    const auto t = ipu2();
    // FLOAT: 2 partials per inner loop (the 64-bit data path), 12 per output, 10 + 7 fixed.
    CHECK(cycles::reduceContinuous(t, poplar::FLOAT, 3, 8) == 3 * 4 + 12 * 3 + 17);
    // HALF: 4 per loop; an odd partial count costs 2 more; an update 1 more.
    CHECK(cycles::reduceContinuous(t, poplar::HALF, 3, 9) == 3 * 2 + 2 + 12 * 3 + 17);
    CHECK(cycles::reduceContinuous(t, poplar::HALF, 3, 9, true) == 3 * 2 + 2 + 12 * 3 + 17 + 1);
    CHECK(cycles::reduceContinuous(t, poplar::FLOAT, 1, 1000) == 500 + 12 + 17);
    // LOG_ADD is a scalar C++ loop of 20 cycles per partial.
    CHECK(cycles::reduceContinuous(t, poplar::FLOAT, 2, 4, false, true) == 20 * 2 * 4 + 24 + 17);
}

TEST_CASE("strided reductions follow PopLibs' strided-reduce estimator") {
    const auto t = ipu2();
    using C = cycles::ReduceOpClass;
    // FLOAT ADD into FLOAT: 15 fixed; groups of gcd(min(4, 2), 100) = 2 outputs, each
    // 3 + (3 + 2) + 3 + (3 - 1) = 13 cycles.
    CHECK(cycles::reduceStrided(t, poplar::FLOAT, poplar::FLOAT, C::Add, 12, 3, 100) ==
          15 + 6 * 13);
    // HALF MAX updating HALF: groups of gcd(4, 6) = 2; 3 + (1 + 10) + 3 + 3 = 20 each.
    CHECK(cycles::reduceStrided(t, poplar::HALF, poplar::HALF, C::MaxMin, 10, 4, 6, true) ==
          15 + 5 * 20);
    // An odd stride loads one output at a time.
    CHECK(cycles::reduceStrided(t, poplar::FLOAT, poplar::FLOAT, C::Add, 12, 3, 7) == 15 + 12 * 13);
}

TEST_CASE("matrix-product blocks follow PopLibs' ConvPartial1x1Out estimator") {
    const auto t = ipu2();
    // HALF 12 x 16 x 16, FLOAT partials: one input and one output channel group; 2 field
    // elements per worker: with zeroing 40 + 2 - 10 (state retention) = 32 per worker, x 6 =
    // 192, at least min + 14 = 206; weight loads 16 units x 16 HALF x 2 bytes / 8 bytes per
    // cycle (64-bit loads, use128BitConvUnitLoad's default) = 64; 50 fixed + 6 x 10 retention +
    // 12 + 10 + 1 per zeroing input group, 19 per output group, 7 + 64 + 206 per pass.
    CHECK(cycles::convPartial1x1(t, poplar::HALF, poplar::FLOAT, 12, 16, 16) ==
          50 + 60 + 12 + 11 + 19 + 7 + 64 + 206);
    // 128-bit weight loads (use128BitConvUnitLoad true): 16 bytes a cycle, 32.
    CHECK(cycles::convPartial1x1(t, poplar::HALF, poplar::FLOAT, 12, 16, 16, 1, true) ==
          50 + 60 + 12 + 11 + 19 + 7 + 32 + 206);
    // FLOAT 7 x 8 x 8: 16 input channels a group on ipu2, 8 cycles per element; workers take 2,
    // 1, 1, 1, 1, 1 elements: 46 + 2 + 4 x 2 = 56 and 47 + 2 + 4 = 53, x 6 = 336 vs 318 + 14;
    // weight loads 8 units x 16 FLOAT x 4 bytes / 8 = 64.
    CHECK(cycles::convPartial1x1(t, poplar::FLOAT, poplar::FLOAT, 7, 8, 8) ==
          50 + 12 + 11 + 19 + 7 + 64 + 336);
    // Two input groups: the second runs without zeroing (40 + 4 x 3 elements beyond 3 - 10) and
    // costs 15 + 1 per input group, 6 per pass; retention 6 x (10 + 2 per further group).
    const std::uint64_t zeroing = 6 * (38 + 4 * 3 - 10) + 14;
    const std::uint64_t plain = 6 * (40 + 4 * 3 - 10) + 14;
    CHECK(cycles::convPartial1x1(t, poplar::HALF, poplar::FLOAT, 36, 32, 16) ==
          50 + 72 + 12 + (16 + 19 + 6 + 64 + plain) + (11 + 19 + 7 + 64 + zeroing));
    // ipu1 FLOAT: 8 input channels a group and 4 conv units, 4 cycles per element; its
    // coefficient loads (8 bytes a cycle) halved as well by the 64-bit default.
    const auto t1 = poplar::Target::createIPUTarget(1, "ipu1");
    CHECK(cycles::convPartial1x1(t1, poplar::FLOAT, poplar::FLOAT, 18, 8, 4) ==
          50 + 12 + 11 + 19 + 7 + 4 * 8 * 4 / 4 + (6 * (46 + 2 + 4 * 3) + 14));
    // The simulator's MultiVertex states it per worker, rounded up.
    CHECK(cycles::matMulBlock(t, poplar::HALF, poplar::FLOAT, 12, 16, 16) == (429 + 5) / 6);
}

TEST_CASE("a binary operation splits its elements over the 6 workers of each tile") {
    poplibstest::Harness h(2);
    // 100 FLOAT elements on tile 0 (not divisible by 6): chunks of 18 (ceil(100 / 6) rounded
    // to the 2-element vector), five of 18 and one of 10.
    poplar::Tensor a = h.graph.addVariable(poplar::FLOAT, {100}, "a");
    poplar::Tensor b = h.graph.addVariable(poplar::FLOAT, {100}, "b");
    h.graph.setTileMapping(a, 0);
    h.graph.setTileMapping(b, 0);
    popops::addInPlace(h.graph, a, b, h.prog);
    const auto& cs = h.graph.model()->computeSets;
    REQUIRE(cs.size() == 1);
    const auto estimates = vertexEstimates(h.graph, 0, 0);
    const auto worker = [&](std::uint64_t n) {
        return cycles::binaryOp1DWorkerCycles(h.graph.getTarget(), BinaryOpType::ADD, poplar::FLOAT,
                                              true, n);
    };
    CHECK(estimates == std::vector<std::uint64_t>{worker(18), worker(18), worker(18), worker(18),
                                                  worker(18), worker(10)});
    poplar::Engine e(h.graph, h.prog);
    const tilescope::sim::CostModel costs;
    // The tile: 6 x the busiest worker, PopLibs' MultiVertex figure without its supervisor part.
    CHECK(stepCycles(e, 0, 0) == costs.computeSetOverheadCycles + 6 * worker(18));
    CHECK(6 * worker(18) == cycles::binaryOp1DVertexCycles(h.graph.getTarget(), BinaryOpType::ADD,
                                                           poplar::FLOAT, true, 100) -
                                11);
}

TEST_CASE("unary, reduce and cast vertices carry their formulas in a program") {
    poplibstest::Harness h(1);
    poplar::Tensor x = h.graph.addVariable(poplar::HALF, {7, 13}, "x");
    h.graph.setTileMapping(x, 0);
    popops::exp(h.graph, x, h.prog);
    popops::reduce(h.graph, x, {1}, {popops::Operation::ADD}, h.prog);
    popops::cast(h.graph, x, poplar::FLOAT, h.prog);
    const auto& t = h.graph.getTarget();
    // exp: 91 HALF elements, chunks of ceil(91 / 6) = 16 (a multiple of 4): five of 16, one 11.
    CHECK(vertexEstimates(h.graph, 0, 0) ==
          std::vector<std::uint64_t>(
              {cycles::unaryOp1DWorkerCycles(t, UnaryOpType::EXPONENT, poplar::HALF, false, 16),
               cycles::unaryOp1DWorkerCycles(t, UnaryOpType::EXPONENT, poplar::HALF, false, 16),
               cycles::unaryOp1DWorkerCycles(t, UnaryOpType::EXPONENT, poplar::HALF, false, 16),
               cycles::unaryOp1DWorkerCycles(t, UnaryOpType::EXPONENT, poplar::HALF, false, 16),
               cycles::unaryOp1DWorkerCycles(t, UnaryOpType::EXPONENT, poplar::HALF, false, 16),
               cycles::unaryOp1DWorkerCycles(t, UnaryOpType::EXPONENT, poplar::HALF, false, 11)}));
    // reduce: 7 outputs of 13 partials, output chunks of ceil(7 / 6) = 2 rounded to the HALF
    // vector (4): one vertex of 4 outputs and one of 3.
    CHECK(vertexEstimates(h.graph, 1, 0) ==
          std::vector<std::uint64_t>({cycles::reduceContinuous(t, poplar::HALF, 4, 13),
                                      cycles::reduceContinuous(t, poplar::HALF, 3, 13)}));
    // cast: 91 elements in chunks of 16 (HALF vector 4), PopLibs' castWorkerCycles each.
    const auto casts = vertexEstimates(h.graph, 2, 0);
    REQUIRE(casts.size() == 6);
    CHECK(casts.front() == cycles::cast(t, poplar::HALF, poplar::FLOAT, 16));
    CHECK(casts.back() == cycles::cast(t, poplar::HALF, poplar::FLOAT, 11));
}

TEST_CASE("a matMul block on one tile costs PopLibs' ConvPartial1x1Out figure") {
    poplibstest::Harness h(1);
    poplar::Tensor a = h.graph.addVariable(poplar::HALF, {20, 40}, "a");
    poplar::Tensor b = h.graph.addVariable(poplar::HALF, {40, 24}, "b");
    h.graph.setTileMapping(a, 0);
    h.graph.setTileMapping(b, 0);
    poplin::matMul(h.graph, a, b, h.prog, poplar::HALF);
    const auto& t = h.graph.getTarget();
    const auto& sets = h.graph.model()->computeSets;
    std::uint32_t cs = 0;
    // The products' compute set (B is first pre-arranged in "matMul/PreArrange").
    const auto isProducts = [](const std::string& name) {
        return name.size() >= 6 && name.compare(name.size() - 6, 6, "matMul") == 0;
    };
    while (cs < sets.size() && !isProducts(sets[cs].name))
        ++cs;
    REQUIRE(cs < sets.size());
    // One tile: one vertex for the tile's whole block (PopLibs' createConvPartialAmpVertex: a
    // ConvPartial1x1Out supervisor looping over the output-channel groups of A's 20 rows), over
    // B's 24 columns as the field and K = 40.
    const std::uint64_t block = cycles::matMulBlock(t, poplar::HALF, poplar::FLOAT, 24, 40, 20);
    CHECK(block == (cycles::convPartial1x1(t, poplar::HALF, poplar::FLOAT, 24, 40, 20) + 5) / 6);
    // The supervisor's fixed cost is paid once: cheaper than one vertex per group of rows.
    const std::uint64_t group = cycles::numConvUnits(t, poplar::HALF);
    std::uint64_t perGroup = 0;
    for (std::uint64_t r0 = 0; r0 < 20; r0 += group)
        perGroup += cycles::convPartial1x1(t, poplar::HALF, poplar::FLOAT, 24, 40,
                                           std::min<std::uint64_t>(group, 20 - r0));
    CHECK(cycles::convPartial1x1(t, poplar::HALF, poplar::FLOAT, 24, 40, 20) < perGroup);
    CHECK(vertexEstimates(h.graph, cs, 0) == std::vector<std::uint64_t>{block});
    poplar::Engine e(h.graph, h.prog);
    const tilescope::sim::CostModel costs;
    // A MultiVertex keeps every worker busy for its estimate.
    CHECK(stepCycles(e, cs, 0) == costs.computeSetOverheadCycles + 6 * block);
}

TEST_CASE("a reduction over an outer dimension uses the strided estimate") {
    poplibstest::Harness h(1);
    poplar::Tensor x = h.graph.addVariable(poplar::FLOAT, {3, 50}, "x");
    h.graph.setTileMapping(x, 0);
    popops::reduce(h.graph, x, {0}, {popops::Operation::ADD}, h.prog);
    const auto& t = h.graph.getTarget();
    // 50 outputs of 3 partials 50 elements apart, chunks of ceil(50 / 6) = 9 rounded to the
    // FLOAT vector (10): five of 10 (the last chunk is empty).
    CHECK(vertexEstimates(h.graph, 0, 0) ==
          std::vector<std::uint64_t>(5,
                                     cycles::reduceStrided(t, poplar::FLOAT, poplar::FLOAT,
                                                           cycles::ReduceOpClass::Add, 10, 3, 50)));
}
