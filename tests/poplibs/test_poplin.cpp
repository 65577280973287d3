// poplin::matMul against a host reference: exact for small integers in FLOAT, within tolerance
// in HALF; the planner's splits, partials and reduction; options and errors.

#include "PoplibsHarness.hpp"
#include "common/ConvCycleEstimates.hpp"
#include "poplin/ConvReduce.hpp"
#include "poplin/MatMulPlanner.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <catch2/catch.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>

using namespace poplibstest;
using poplar::FLOAT;
using poplar::HALF;

TEST_CASE("matMul is exact for small integers in FLOAT, for many shapes") {
    const std::vector<std::array<std::size_t, 3>> shapes = {
        {1, 1, 1},   {1, 7, 1},    {5, 3, 4},   {17, 9, 13},
        {2, 300, 3}, {33, 64, 20}, {64, 1, 64}, {128, 256, 192}};
    for (const auto& [M, K, N] : shapes) {
        INFO("M K N = " << M << " " << K << " " << N);
        Harness h(16);
        const auto av = integers(M * K, -4, 4, 1);
        const auto bv = integers(K * N, -4, 4, 2);
        auto a = h.input(FLOAT, {M, K}, av, "a");
        auto b = h.input(FLOAT, {K, N}, bv, "b");
        h.output(poplin::matMul(h.graph, a, b, h.prog, "mm"), "c");
        CHECK(h.run().at("c") == matMulReference(av, bv, M, K, N));
    }
}

TEST_CASE("matMulGrouped multiplies each group, FLOAT exactly and HALF within tolerance") {
    // {G, M, K, N}: one group, shapes dividing nothing evenly, a broadcast B (stride-0 view).
    const std::vector<std::array<std::size_t, 4>> shapes = {
        {1, 4, 4, 4}, {3, 7, 5, 9}, {5, 2, 33, 3}};
    for (auto type : {FLOAT, HALF}) {
        for (const auto& [G, M, K, N] : shapes) {
            INFO("type " << type << ", G M K N = " << G << " " << M << " " << K << " " << N);
            Harness h(16);
            // Small integers: exact in HALF inputs, and FLOAT accumulation keeps sums exact;
            // HALF outputs round results (|c| <= 16 * 33) to HALF: relative 4.9e-4.
            const auto av = integers(G * M * K, -4, 4, 11);
            const auto bv = integers(G * K * N, -4, 4, 12);
            auto a = h.input(type, {G, M, K}, av, "a");
            auto b = h.input(type, {G, K, N}, bv, "b");
            h.output(poplin::matMulGrouped(h.graph, a, b, h.prog, type, "mmg"), "c");
            // The same B for every group, as a broadcast view of one matrix.
            auto b0 =
                h.input(type, {1, K, N}, std::vector<double>(bv.begin(), bv.begin() + K * N), "b0");
            h.output(poplin::matMulGrouped(h.graph, a, b0.broadcast(unsigned(G), 0), h.prog, FLOAT,
                                           "mmb"),
                     "cb");
            const auto r = h.run();
            for (std::size_t g = 0; g < G; ++g) {
                const std::vector<double> ag(av.begin() + g * M * K, av.begin() + (g + 1) * M * K);
                const std::vector<double> bg(bv.begin() + g * K * N, bv.begin() + (g + 1) * K * N);
                const auto want = matMulReference(ag, bg, M, K, N);
                const auto wantB = matMulReference(
                    ag, std::vector<double>(bv.begin(), bv.begin() + K * N), M, K, N);
                for (std::size_t i = 0; i < M * N; ++i) {
                    const double tol = type == HALF ? std::abs(want[i]) / 1024 : 0;
                    CHECK(std::abs(r.at("c")[g * M * N + i] - want[i]) <= tol);
                    CHECK(r.at("cb")[g * M * N + i] == wantB[i]);
                }
            }
        }
    }
    Harness h(4);
    auto a = h.input(FLOAT, {2, 3, 4}, std::vector<double>(24, 1), "a");
    auto b = h.input(FLOAT, {3, 4, 5}, std::vector<double>(60, 1), "b");
    CHECK_THROWS_WITH(poplin::matMulGrouped(h.graph, a, b, h.prog, FLOAT),
                      Catch::Contains("'a'") && Catch::Contains("'b'"));
}

TEST_CASE("matMul with created inputs, HALF data and HALF output") {
    const std::size_t M = 24, K = 40, N = 18;
    Harness h(16);
    auto a = poplin::createMatMulInputLHS(h.graph, HALF, {M, K}, {K, N}, "A");
    auto b = poplin::createMatMulInputRHS(h.graph, HALF, {M, K}, {K, N}, "B");
    const auto av = values(M * K, -1, 1, 3);
    const auto bv = values(K * N, -1, 1, 4);
    std::vector<double> ah(av.size()), bh(bv.size());
    std::transform(av.begin(), av.end(), ah.begin(), toHalf);
    std::transform(bv.begin(), bv.end(), bh.begin(), toHalf);
    h.addInput(a, ah, "a");
    h.addInput(b, bh, "b");
    h.output(poplin::matMul(h.graph, a, b, h.prog, HALF, "mm"), "c");
    const auto c = h.run().at("c");
    const auto want = matMulReference(ah, bh, M, K, N);
    // Float accumulation rounded once to HALF: within one HALF ulp of results of magnitude < 8.
    for (std::size_t i = 0; i < c.size(); ++i)
        CHECK(std::abs(c[i] - want[i]) <= 8.0 / 1024);
}

TEST_CASE("the planner splits the reduction dimension when that is fastest") {
    poplar::IPUModel model("ipu2");
    model.tilesPerIPU = 64;
    const poplar::Target target = model.createDevice().getTarget();
    // A long reduction and a tiny output: only splitting K uses the tiles.
    const auto deep = tilescope::poplibs::planMatMul(target, FLOAT, FLOAT, 2, 4096, 2, 0.6);
    CHECK(deep.splitK > 1);
    CHECK(deep.splitM * deep.splitK * deep.splitN <= 64);
    // A wide output and a short reduction: no partials.
    const auto wide = tilescope::poplibs::planMatMul(target, FLOAT, FLOAT, 256, 4, 256, 0.6);
    CHECK(wide.splitK == 1);
    CHECK(wide.splitM * wide.splitN > 32);
    // Less memory forces smaller blocks.
    const auto roomy = tilescope::poplibs::planMatMul(target, FLOAT, FLOAT, 512, 512, 512, 0.9);
    const auto tight = tilescope::poplibs::planMatMul(target, FLOAT, FLOAT, 512, 512, 512, 0.35);
    CHECK(tight.bytesPerTile <= roomy.bytesPerTile);
    CHECK(tight.bytesPerTile <= std::uint64_t(0.35 * target.getBytesPerTile()));
}

TEST_CASE("the planner ranks tutorial 4's first product with PopLibs' planner terms") {
    // m1 {800,500} x m2 {500,400} on one Mk2 IPU, the plan and its term-by-term estimate in
    // simcore/CALIBRATION-NOTES.md ("The matMul planner against PopLibs' ConvPlan"): operands
    // 5,394, AMP 11,907 (weights loaded 64 bits at a time, PopLibs' default), partials'
    // exchange 928, reduction 1,332, regroup 2,259.
    poplar::IPUModel model("ipu2");
    const poplar::Target target = model.createDevice().getTarget();
    const auto plan = tilescope::poplibs::planMatMul(target, FLOAT, FLOAT, 800, 500, 400, 0.6);
    CHECK(plan.describe() == "split M/K/N 50/4/7, block 16x128x58");
    CHECK(plan.estimatedCycles == 21820);
}

TEST_CASE("a split reduction creates partials and a reduction and is still exact") {
    const std::size_t M = 3, K = 2000, N = 2;
    Harness h(32);
    const auto av = integers(M * K, -2, 2, 5);
    const auto bv = integers(K * N, -2, 2, 6);
    auto a = h.input(FLOAT, {M, K}, av, "a");
    auto b = h.input(FLOAT, {K, N}, bv, "b");
    h.output(poplin::matMul(h.graph, a, b, h.prog, "deep"), "c");
    CHECK(h.run().at("c") == matMulReference(av, bv, M, K, N));
    // The compiled profile: the partials are a not-always-live temporary, the block products
    // and the reduction are named compute sets with exchanges before them.
    const poplar::Engine engine(h.graph, h.prog);
    const auto& records = engine.compileRecords();
    bool partials = false;
    for (const auto& v : records.variables)
        if (v.name == "deep/partials") {
            partials = true;
            CHECK_FALSE(v.alwaysLive);
            CHECK(v.firstLiveStep >= 0);
        }
    CHECK(partials);
    std::vector<std::string> computeSteps;
    bool exchange = false;
    for (const auto& s : records.steps) {
        if (s.kind == tilescope::capture::StepKind::OnTileExecute)
            computeSteps.push_back(s.name);
        exchange = exchange || s.kind == tilescope::capture::StepKind::DoExchange;
    }
    // B (4,000 elements mapped 125 to a tile) has no column grouping that is a multiple of the
    // FLOAT grain, so PopLibs does not regroup it: one copy to the planned layout, no transpose
    // compute set. The products run, and the partials of each output (K split over most of the
    // tiles) are summed in two stages, PopLibs' plan from a depth of 16 on.
    CHECK(computeSteps ==
          std::vector<std::string>{"deep", "deep/matMul", "deep/Reduce_#0", "deep/Reduce"});
    CHECK(exchange);
}

TEST_CASE("matMul options and shape errors are reported clearly") {
    Harness h(4);
    auto a = h.input(FLOAT, {3, 4}, values(12, 0, 1), "a");
    auto b = h.input(FLOAT, {5, 2}, values(10, 0, 1), "b");
    CHECK_THROWS_WITH(poplin::matMul(h.graph, a, b, h.prog),
                      Catch::Contains("'a'") && Catch::Contains("{5,2}"));
    auto b2 = h.input(FLOAT, {4, 2}, values(8, 0, 1), "b2");
    CHECK_THROWS_AS(poplin::matMul(h.graph, a, b2, h.prog, poplar::DebugContext{},
                                   {{"partialsType", "double"}}),
                    poplar::invalid_option);
    CHECK_THROWS_AS(poplin::matMul(h.graph, a, b2, h.prog, poplar::DebugContext{},
                                   {{"availableMemoryProportion", "1.5"}}),
                    poplar::invalid_option);
    poplin::PlanningCache cache;
    auto c = poplin::matMul(h.graph, a, b2, h.prog, poplar::DebugContext{},
                            {{"partialsType", "half"}}, &cache);
    CHECK(c.shape() == std::vector<std::size_t>{3, 2});
}

TEST_CASE("matMul takes PopLibs' convolution options, and 128-bit weight loads are faster") {
    // The estimated cycles of the products' compute set on its busiest tile.
    const auto productCycles = [](const poplar::OptionFlags& options) {
        Harness h(4);
        auto a = h.input(FLOAT, {32, 64}, values(32 * 64, 0, 1), "a");
        auto b = h.input(FLOAT, {64, 16}, values(64 * 16, 0, 1), "b");
        poplin::matMul(h.graph, a, b, h.prog, "p", options);
        const poplar::Engine engine(h.graph, h.prog);
        std::uint64_t most = 0;
        for (const auto& s : engine.compileRecords().steps)
            if (s.name == "p/matMul")
                for (auto c : s.estimatedCyclesPerTile)
                    most = std::max<std::uint64_t>(most, c);
        return most;
    };
    const auto loads64 = productCycles({});
    const auto loads128 = productCycles({{"use128BitConvUnitLoad", "true"}});
    CHECK(loads64 > 0);
    CHECK(loads128 < loads64);
    CHECK(productCycles({{"use128BitConvUnitLoad", "false"},
                         {"fullyConnectedPass", "TRAINING_FWD"},
                         {"enableFastReduce", "true"},
                         {"inputRHSIsPreArranged", "false"}}) == loads64);
    Harness h(4);
    auto a = h.input(FLOAT, {3, 4}, values(12, 0, 1), "a");
    auto b = h.input(FLOAT, {4, 2}, values(8, 0, 1), "b");
    CHECK_THROWS_WITH(poplin::matMul(h.graph, a, b, h.prog, poplar::DebugContext{},
                                     {{"use128BitConvUnitLoad", "yes"}}),
                      Catch::Contains("use128BitConvUnitLoad") && Catch::Contains("'yes'"));
    CHECK_THROWS_WITH(poplin::matMul(h.graph, a, b, h.prog, poplar::DebugContext{},
                                     {{"fullyConnectedPass", "BWD"}}),
                      Catch::Contains("fullyConnectedPass") && Catch::Contains("'BWD'"));
    CHECK_THROWS_WITH(
        poplin::matMul(h.graph, a, b, h.prog, poplar::DebugContext{}, {{"tileSize", "4"}}),
        Catch::Contains("unknown option 'tileSize'"));
}

TEST_CASE("partials are summed in PopLibs' stages with its ReduceAdd estimate") {
    using tilescope::poplibs::multiStageReducePlan;
    // One stage below a depth of 16; two from 16, each to about the square root of the depth,
    // rounded down or up, whichever means fewer messages (16: 4 + 16/4 = 8 beats 5 + 16/5).
    CHECK(multiStageReducePlan(8).empty());
    CHECK(multiStageReducePlan(15).empty());
    CHECK(multiStageReducePlan(16) == std::vector<unsigned>{4});
    CHECK(multiStageReducePlan(32) == std::vector<unsigned>{6}); // 6 + 32/6 < 5 + 32/5
    CHECK(multiStageReducePlan(125).size() == 2);
    // getReduceCycleEstimate (FLOAT partials into FLOAT, 6 workers): 24 outputs are 6 loops of
    // 4, one per worker: 32 + (3 x 4 partials + 7); 10 outputs are 3 loops, fewer than the
    // workers and not a multiple of 4: 32 + 2 x 4 + 13.
    poplar::IPUModel model("ipu2");
    const poplar::Target target = model.createDevice().getTarget();
    namespace cycles = tilescope::poplibs::cycles;
    CHECK(cycles::convReduceAdd(target, FLOAT, FLOAT, 24, 4) == 6 * (32 + 19));
    CHECK(cycles::convReduceAdd(target, FLOAT, FLOAT, 10, 4) == 6 * (32 + 8 + 13));
    // getCastCycleEstimate: 100 outputs, 17 per worker, FLOAT vectors of 2 loaded and HALF of 4
    // stored: max(9, 5) + 26 per worker.
    CHECK(cycles::convPartialsCast(target, poplar::HALF, FLOAT, 100) == 6 * (9 + 26));
}

TEST_CASE("a deep split reduction sums exactly through intermediate stages, half output too") {
    const std::size_t M = 2, K = 3000, N = 3;
    for (auto outType : {FLOAT, poplar::HALF}) {
        INFO("output " << outType);
        Harness h(64);
        const auto av = integers(M * K, -1, 1, 11);
        const auto bv = integers(K * N, -1, 1, 12);
        auto a = h.input(FLOAT, {M, K}, av, "a");
        auto b = h.input(FLOAT, {K, N}, bv, "b");
        h.output(poplin::matMul(h.graph, a, b, h.prog, outType, "deep"), "c");
        CHECK(h.run().at("c") == matMulReference(av, bv, M, K, N));
        std::size_t stages = 0;
        for (const auto& cs : h.graph.model()->computeSets)
            if (cs.name.rfind("deep/Reduce", 0) == 0) {
                ++stages;
                for (auto v : cs.vertices)
                    CHECK(h.graph.model()
                              ->vertexTypes.at(h.graph.model()->vertices[v].type)
                              .name.rfind("poplin::ReduceAdd<", 0) == 0);
            }
        CHECK(stages == 2);
    }
}
