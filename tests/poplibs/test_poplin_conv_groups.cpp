// Grouped and depthwise convolutions as PopLibs builds them: one vertex per tile for all the conv
// groups it holds, its supervisor looping over them (PopLibs' numConvGroupGroups), costed by the
// estimators with the conv groups as a loop count; PopLibs' ConvPartial1x4SLIC vertex on ipu2
// for few channels per group; and their results against the host reference.

#include "ConvReference.hpp"
#include "PoplibsHarness.hpp"
#include "VertexEstimates.hpp"
#include "common/ConvCycleEstimates.hpp"
#include "poplin/ConvPlanner.hpp"

#include <catch2/catch.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/Convolution.hpp>
#include <tilescope/sim/CostModel.hpp>
#include <tilescope/sim/GraphModel.hpp>

using namespace poplibstest;
using poplar::FLOAT;
using poplar::HALF;
using poplin::ConvParams;
namespace pl = tilescope::poplibs;
namespace cycles = tilescope::poplibs::cycles;

using convtest::inShape;
using convtest::outShape;
using convtest::volume;
using convtest::wShape;

namespace {

/// A 3x3 convolution padded by 1 on a `size` x `size` field.
ConvParams padded3x3(const poplar::Type& type, std::size_t batch, std::size_t size,
                     std::size_t chans, std::size_t groups) {
    ConvParams p(type, batch, {size, size}, {3, 3}, chans, chans, groups);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    return p;
}

/// The index of the compute set whose name ends in `suffix`.
std::uint32_t computeSet(const poplar::Graph& g, const std::string& suffix) {
    const auto& sets = g.model()->computeSets;
    for (std::uint32_t i = 0; i < sets.size(); ++i)
        if (sets[i].name.size() >= suffix.size() &&
            sets[i].name.compare(sets[i].name.size() - suffix.size(), suffix.size(), suffix) == 0)
            return i;
    FAIL("no compute set ending in " << suffix);
    return 0;
}

pl::ConvPlan planOf(const poplar::Target& t, const ConvParams& p) {
    return pl::planConvolution(t, pl::canonicalParams(p), FLOAT, 0.6, false);
}

} // namespace

TEST_CASE("a tile's conv groups share one ConvPartial1x1Out whose supervisor loops over them") {
    // 4 groups of 16 -> 16 channels, 1x1 HALF on an 8x8 field, one ipu2 tile.
    const ConvParams p(HALF, 1, {8, 8}, {1, 1}, 16, 16, 4);
    Harness h(1);
    const auto& t = h.graph.getTarget();
    // One group (the calibration row "conv 1x1 HALF 16->16"): 64 field elements over 6 workers
    // (11, 11, 11, 11, 10, 10); with zeroing 38 + 4 x 8 - 10 (retention) = 60 each, x 6 = 360;
    // 50 fixed + 6 x 10 retention, then 12 + 10 + 1 (zeroing input group) + 19 (output group) + 7
    // + 64 (weight loads: 16 units x 16 HALF x 2 B / 8 B per cycle, 64-bit loads) + 360 = 473
    // per group.
    REQUIRE(cycles::convPartial1x1(t, HALF, FLOAT, 64, 16, 16) == 50 + 60 + 473);
    // Four groups in one vertex: the 50 fixed cycles once, retention 6 x (10 + 2 x 3 further
    // input groups), 473 per group.
    const std::uint64_t four = 50 + 6 * (10 + 2 * 3) + 4 * 473;
    CHECK(cycles::convPartial1x1(t, HALF, FLOAT, 64, 16, 16, 4) == four);
    CHECK(four < 4 * (50 + 60 + 473)); // one vertex a group paid the fixed cycles 4 times

    const auto plan = planOf(t, p);
    INFO(plan.describe());
    REQUIRE(plan.method == pl::ConvMethod::Amp1x1);
    REQUIRE(plan.blockG == 4);
    CHECK(plan.vertexCycles == four);

    const auto xv = integers(volume(inShape(p)), -3, 3, 31);
    const auto wv = integers(volume(wShape(p)), -2, 2, 32);
    auto x = h.input(HALF, inShape(p), xv, "x");
    auto w = h.input(HALF, wShape(p), wv, "w");
    h.output(poplin::convolution(h.graph, x, w, p, false, h.prog, "conv"), "y");
    const auto cs = computeSet(h.graph, "conv/Convolve");
    CHECK(vertexEstimates(h.graph, cs, 0) == std::vector<std::uint64_t>{(four + 5) / 6});
    const poplar::Engine e(h.graph, h.prog);
    const tilescope::sim::CostModel costs;
    CHECK(stepCycles(e, cs, 0) == costs.computeSetOverheadCycles + 6 * ((four + 5) / 6));
    CHECK(h.run().at("y") == convtest::forward(p, xv, wv));
}

TEST_CASE("ConvPartialnx1 and ConvPartialHorizontalMac take the conv groups as a loop count") {
    const auto t = ipu2();
    // PopLibs' outer loops: nx1 93 + groups x (15 + ...), MAC 62 + groups x (21 + ...).
    const std::size_t out[3] = {4, 1, 8}, kernel[3] = {3, 1, 3};
    for (std::size_t groups : {2u, 5u}) {
        const auto nx1 = [&](std::size_t g) {
            return pl::convVertexCycles(t, HALF, pl::ConvMethod::AmpNx1, g, 1, 16, 16, out, kernel);
        };
        CHECK(nx1(groups) == 93 + groups * (nx1(1) - 93));
        const auto mac = [&](std::size_t g) {
            return pl::convVertexCycles(t, FLOAT, pl::ConvMethod::HorizontalMac, g, 1, 3, 2, out,
                                        kernel);
        };
        CHECK(mac(groups) == 62 + groups * (mac(1) - 62));
    }
    // A 3x3 FLOAT convolution of 4 groups of 16 -> 16 on one tile: one nx1 vertex.
    Harness h(1);
    const auto p = padded3x3(FLOAT, 1, 8, 16, 4);
    const auto plan = planOf(h.graph.getTarget(), p);
    INFO(plan.describe());
    REQUIRE(plan.method == pl::ConvMethod::AmpNx1);
    const std::size_t blockOut[3] = {8, 1, 8}, k3[3] = {3, 1, 3};
    const auto one = pl::convVertexCycles(h.graph.getTarget(), FLOAT, pl::ConvMethod::AmpNx1, 1, 1,
                                          16, 16, blockOut, k3);
    CHECK(plan.vertexCycles == 93 + 4 * (one - 93));
    const auto xv = integers(volume(inShape(p)), -3, 3, 33);
    const auto wv = integers(volume(wShape(p)), -2, 2, 34);
    auto x = h.input(FLOAT, inShape(p), xv, "x");
    auto w = h.input(FLOAT, wShape(p), wv, "w");
    h.output(poplin::convolution(h.graph, x, w, p, false, h.prog, "conv"), "y");
    CHECK(vertexEstimates(h.graph, computeSet(h.graph, "conv/Convolve"), 0).size() == 1);
    CHECK(h.run().at("y") == convtest::forward(p, xv, wv));
}

TEST_CASE("a depthwise HALF convolution runs PopLibs' ConvPartial1x4SLIC on ipu2") {
    // 8 channels, 3x3 padded on an 8x8 field, one ipu2 tile: 4 conv groups of one channel a
    // group (2 conv group groups), 3 sub-kernels (the 3-wide kernel in one 1x4 window, 3 rows).
    const auto p = padded3x3(HALF, 1, 8, 1, 8);
    Harness h(1);
    const auto& t = h.graph.getTarget();
    // Workers: 8 rows of 8, two workers 2 rows, four 1. A row with implicit zeroing: 10 + 1, then
    // 15 + (8 - 5) = 18, 1 less with FLOAT partials, 3 more: 31; without: 30. Preamble 17: the
    // busiest 17 + 62 = 79 (zeroing) and 17 + 60 = 77, x 6 workers.
    const std::uint64_t zeroing = 6 * 79, inner = 6 * 77;
    // Weights per sub-kernel, 4 groups a group: 16 loads + 9 + 6 + 10 x 6 workers + 6 = 97.
    const std::uint64_t weights = 97;
    CHECK(cycles::convSlicWeightLoad(6, 4) == weights);
    // 28 + groups loop (15 x 2 + 6 + 1) + sub-kernel loop ((97 + 19) x 3 + 6 x 2 + 1) + per
    // group group one zeroing pass and two plain ones.
    const std::uint64_t slic =
        28 + (15 * 2 + 6 + 1) + ((weights + 19) * 3 + 6 * 2 + 1) + 2 * zeroing + 2 * 2 * inner;
    CHECK(slic == 3222);
    const auto plan = planOf(t, p);
    INFO(plan.describe());
    REQUIRE(plan.method == pl::ConvMethod::Slic);
    CHECK(plan.convGroupsPerGroup == 4);
    CHECK(plan.vertexCycles == slic);
    // Far cheaper than the AMP vertex with its channels padded to 16, or the MAC.
    const std::size_t out[3] = {8, 1, 8}, kernel[3] = {3, 1, 3};
    CHECK(pl::convVertexCycles(t, HALF, pl::ConvMethod::AmpNx1, 8, 1, 1, 1, out, kernel) > slic);
    CHECK(pl::convVertexCycles(t, HALF, pl::ConvMethod::HorizontalMac, 8, 1, 1, 1, out, kernel) >
          slic);

    const auto xv = integers(volume(inShape(p)), -3, 3, 35);
    const auto wv = integers(volume(wShape(p)), -2, 2, 36);
    auto x = h.input(HALF, inShape(p), xv, "x");
    auto w = h.input(HALF, wShape(p), wv, "w");
    h.output(poplin::convolution(h.graph, x, w, p, false, h.prog, "conv"), "y");
    const auto cs = computeSet(h.graph, "conv/Convolve");
    CHECK(vertexEstimates(h.graph, cs, 0) == std::vector<std::uint64_t>{(slic + 5) / 6});
    // Its second partials buffer: one conv group group's 4 x 64 FLOAT partials + 200 bytes.
    bool buffer = false;
    for (const auto& v : h.graph.model()->variables)
        if (v.name == "conv/slicBuffer") {
            buffer = true;
            CHECK(v.numElements == (4 * 64 * 4 + 200) / 4);
        }
    CHECK(buffer);
    CHECK(h.run().at("y") == convtest::forward(p, xv, wv));
}

TEST_CASE("SLIC is offered only where PopLibs offers it") {
    const auto depthwise = padded3x3(HALF, 1, 8, 1, 8);
    const auto t2 = ipu2();
    CHECK(planOf(t2, depthwise).method == pl::ConvMethod::Slic);
    // Mk1 has no SLIC instruction; FLOAT inputs and HALF partials have no SLIC vertex.
    const auto t1 = poplar::Target::createIPUTarget(1, "ipu1");
    CHECK(planOf(t1, depthwise).method != pl::ConvMethod::Slic);
    CHECK(planOf(t2, padded3x3(FLOAT, 1, 8, 1, 8)).method != pl::ConvMethod::Slic);
    CHECK(pl::planConvolution(t2, pl::canonicalParams(depthwise), HALF, 0.6, false).method !=
          pl::ConvMethod::Slic);
    // No input dilation; strides of 2 only in the innermost dimension.
    auto dilated = depthwise;
    dilated.inputTransform.dilation = {2, 1};
    CHECK_FALSE(pl::slicApplies(t2, pl::canonicalParams(dilated), FLOAT));
    auto strided = depthwise;
    strided.outputTransform.stride = {1, 2};
    CHECK(pl::slicApplies(t2, pl::canonicalParams(strided), FLOAT));
    strided.outputTransform.stride = {2, 1};
    CHECK_FALSE(pl::slicApplies(t2, pl::canonicalParams(strided), FLOAT));
    // More than 4 channels a group: no grouping holds them.
    const std::size_t out[3] = {8, 1, 8}, kernel[3] = {3, 1, 3};
    CHECK(pl::convVertexCycles(t2, HALF, pl::ConvMethod::Slic, 2, 1, 5, 5, out, kernel) ==
          ~std::uint64_t(0));
    unsigned grouping = 0;
    pl::convVertexCycles(t2, HALF, pl::ConvMethod::Slic, 2, 1, 3, 4, out, kernel, 1, 4, &grouping);
    CHECK(grouping == 1);
    // Conv groups are split in grains of the grouping: a plan splitting 32 depthwise groups
    // gives each tile whole grains (2 groups a tile allow at most 2 a group).
    pl::convVertexCycles(t2, HALF, pl::ConvMethod::Slic, 8, 1, 1, 1, out, kernel, 1, 4, &grouping);
    CHECK(grouping == 4);
    pl::convVertexCycles(t2, HALF, pl::ConvMethod::Slic, 2, 1, 1, 1, out, kernel, 1, 2, &grouping);
    CHECK(grouping == 2);
    poplar::IPUModel model("ipu2");
    const auto device = model.createDevice();
    auto wide = padded3x3(HALF, 4, 56, 1, 32);
    const auto plan = planOf(device.getTarget(), wide);
    INFO(plan.describe());
    CHECK(plan.method == pl::ConvMethod::Slic);
    CHECK((plan.splitG == 1 || plan.blockG % plan.convGroupsPerGroup == 0));
}

TEST_CASE("grouped and depthwise HALF convolutions and their weight deltas equal the reference") {
    std::vector<std::pair<std::string, ConvParams>> cases = {
        {"depthwise", padded3x3(HALF, 2, 8, 1, 8)},
        {"2 channels a group", padded3x3(HALF, 1, 7, 2, 4)},
        {"4 channels a group", padded3x3(HALF, 1, 6, 4, 2)},
        {"5 -> 3 channels, 3 groups", ConvParams(HALF, 2, {6, 5}, {2, 3}, 5, 3, 3)},
        {"1-D kernel 5", ConvParams(HALF, 2, {12}, {5}, 1, 1, 6)},
    };
    {
        auto p = padded3x3(HALF, 1, 9, 1, 4);
        p.outputTransform.stride = {1, 2};
        cases.push_back({"depthwise, innermost stride 2", p});
    }
    bool slicUsed = false;
    for (unsigned tiles : {1u, 16u})
        for (const auto& [name, p] : cases) {
            Harness h(tiles);
            const auto plan = planOf(h.graph.getTarget(), p);
            INFO(name << " on " << tiles << " tiles: " << plan.describe());
            slicUsed = slicUsed || plan.method == pl::ConvMethod::Slic;
            const auto xv = integers(volume(inShape(p)), -3, 3, 37);
            const auto wv = integers(volume(wShape(p)), -2, 2, 38);
            const auto dyv = integers(volume(outShape(p)), -2, 2, 39);
            auto x = h.input(HALF, inShape(p), xv, "x");
            auto w = h.input(HALF, wShape(p), wv, "w");
            auto dy = h.input(HALF, outShape(p), dyv, "dy");
            h.output(poplin::convolution(h.graph, x, w, p, false, h.prog, "conv"), "y");
            h.output(poplin::calculateWeightDeltas(h.graph, dy, x, p, h.prog, "wu"), "dw");
            const auto r = h.run();
            // Small integers: every sum is exact in FLOAT partials and in HALF.
            CHECK(r.at("y") == convtest::forward(p, xv, wv));
            CHECK(r.at("dw") == convtest::weightDeltas(p, volume(wShape(p)), dyv, xv));
        }
    CHECK(slicUsed);
}
