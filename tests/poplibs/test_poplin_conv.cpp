// poplin convolutions against a host reference (ConvReference.hpp): the forward pass over 1-D
// to 3-D fields with strides, padding, dilation, flips, truncation and groups; the input
// gradient (getGradientParams with transposed, flipped weights); weight deltas and updates;
// biases; the planner's vertex choice and splits; the tile order and super-tile exchange;
// options and errors.

#include "ConvReference.hpp"
#include "PoplibsHarness.hpp"
#include "poplin/ConvPlanner.hpp"

#include <catch2/catch.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>
#include <tilescope/sim/CostModel.hpp>

using namespace poplibstest;
using poplar::FLOAT;
using poplar::HALF;
using poplin::ConvParams;

using convtest::inShape;
using convtest::volume;
using convtest::wShape;

namespace {

/// A named case: params with transforms set per dimension.
struct Case {
    std::string name;
    ConvParams p;
};

ConvParams params(std::size_t b, std::vector<std::size_t> field, std::vector<std::size_t> kernel,
                  std::size_t ci, std::size_t co, std::size_t groups = 1) {
    return ConvParams(FLOAT, b, std::move(field), std::move(kernel), ci, co, groups);
}

std::vector<Case> cases() {
    std::vector<Case> c;
    c.push_back({"2-D 3x3", params(2, {6, 5}, {3, 3}, 3, 4)});
    c.push_back({"1x1 with many channels", params(2, {4, 4}, {1, 1}, 20, 17)});
    {
        auto p = params(1, {9, 8}, {3, 2}, 2, 3);
        p.outputTransform.stride = {2, 3};
        p.inputTransform.paddingLower = {1, 0};
        p.inputTransform.paddingUpper = {1, 2};
        c.push_back({"strides and padding", p});
    }
    {
        auto p = params(2, {7, 7}, {3, 3}, 2, 2);
        p.kernelTransform.dilation = {2, 1};
        p.inputTransform.dilation = {1, 2};
        c.push_back({"kernel and input dilation", p});
    }
    c.push_back({"groups", params(2, {5, 6}, {2, 3}, 2, 3, 3)});
    c.push_back({"depthwise", params(1, {6, 6}, {3, 3}, 1, 1, 5)});
    c.push_back({"1-D", params(3, {11}, {4}, 3, 5)});
    {
        auto p = params(1, {4, 5, 6}, {2, 3, 2}, 2, 3);
        p.outputTransform.stride = {1, 2, 1};
        p.inputTransform.paddingLower = {0, 1, 1};
        c.push_back({"3-D", p});
    }
    {
        auto p = params(1, {8, 7}, {3, 3}, 2, 2);
        p.inputTransform.flip = {true, false};
        p.kernelTransform.flip = {false, true};
        p.inputTransform.truncationLower = {1, 0};
        p.inputTransform.truncationUpper = {0, 1};
        p.kernelTransform.paddingUpper = {1, 0};
        p.outputTransform.truncationLower = {1, 0};
        p.outputTransform.paddingUpper = {0, 2};
        c.push_back({"flips, truncation and output padding", p});
    }
    return c;
}

} // namespace

TEST_CASE("convolution equals the host reference for 1-D to 3-D shapes and every transform") {
    for (unsigned tiles : {1u, 16u}) {
        for (const auto& [name, p] : cases()) {
            INFO(name << " on " << tiles << " tiles: " << p);
            Harness h(tiles);
            const auto xv = integers(volume(inShape(p)), -3, 3, 1);
            const auto wv = integers(volume(wShape(p)), -2, 2, 2);
            auto x = poplin::createInput(h.graph, p, "x");
            h.addInput(x, xv, "x");
            auto w = poplin::createWeights(h.graph, p, "w");
            h.addInput(w, wv, "w");
            auto y = poplin::convolution(h.graph, x, w, p, false, h.prog, "conv");
            std::vector<std::size_t> outShape = {p.batchSize, p.getNumOutputChans()};
            for (auto s : p.getOutputFieldShape())
                outShape.push_back(s);
            CHECK(y.shape() == outShape);
            h.output(y, "y");
            CHECK(h.run().at("y") == convtest::forward(p, xv, wv));
        }
    }
}

TEST_CASE("convolution and weight deltas of linearly mapped HALF tensors within tolerance") {
    auto p = ConvParams(HALF, HALF, 2, {10, 9}, {3, 3}, 8, 16, 1);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    Harness h(8);
    const auto xv = integers(volume(inShape(p)), -3, 3, 3);
    const auto wv = integers(volume(wShape(p)), -2, 2, 4);
    auto x = h.input(HALF, inShape(p), xv, "x");
    auto w = h.input(HALF, wShape(p), wv, "w");
    h.output(
        poplin::convolution(h.graph, x, w, p, false, h.prog, "conv", {{"partialsType", "half"}}),
        "y");
    // Weight deltas in HALF: small integers, sums exact in FLOAT partials, rounded to HALF.
    std::vector<std::size_t> outShape = {p.batchSize, p.getNumOutputChans()};
    for (auto s : p.getOutputFieldShape())
        outShape.push_back(s);
    // HALF inputs to a FLOAT output: exact for these integers.
    auto pf = p;
    pf.outputType = FLOAT;
    h.output(poplin::convolution(h.graph, x, w, pf, false, h.prog, "convFloat"), "yf");
    const auto dyv = integers(volume(outShape), -2, 2, 5);
    auto dy = h.input(HALF, outShape, dyv, "dy");
    h.output(poplin::calculateWeightDeltas(h.graph, dy, x, p, h.prog, "wu"), "dw");
    const auto r = h.run();
    const auto want = convtest::forward(p, xv, wv);
    const auto& got = r.at("y");
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        CHECK(std::abs(got[i] - want[i]) <= std::abs(want[i]) / 512);
    CHECK(r.at("yf") == want);
    const auto wantDw = convtest::weightDeltas(p, wv.size(), dyv, xv);
    for (std::size_t i = 0; i < wantDw.size(); ++i)
        CHECK(r.at("dw")[i] == toHalf(wantDw[i]));
}

TEST_CASE("the input gradient is a convolution with getGradientParams and flipped weights") {
    for (const auto& [name, p] : cases()) {
        INFO(name << ": " << p);
        Harness h(8);
        const ConvParams bwd = poplin::getGradientParams(p);
        CHECK(bwd.getOutputFieldShape() == p.inputFieldShape);
        const auto outShape = inShape(bwd);
        const auto dyv = integers(volume(outShape), -3, 3, 5);
        const auto wv = integers(volume(wShape(p)), -2, 2, 6);
        auto dy = poplin::createInput(h.graph, bwd, "dy");
        h.addInput(dy, dyv, "dy");
        auto w = poplin::createWeights(h.graph, p, "w");
        h.addInput(w, wv, "w");
        h.output(poplin::convolution(h.graph, dy, w, bwd, true, h.prog, "bwd"), "dx");
        CHECK(h.run().at("dx") == convtest::inputGradient(p, volume(inShape(p)), dyv, wv));
    }
}

TEST_CASE("calculateWeightDeltas equals the host reference") {
    for (unsigned tiles : {1u, 8u}) {
        for (const auto& [name, p] : cases()) {
            INFO(name << " on " << tiles << " tiles: " << p);
            Harness h(tiles);
            std::vector<std::size_t> outShape = {p.batchSize, p.getNumOutputChans()};
            for (auto s : p.getOutputFieldShape())
                outShape.push_back(s);
            const auto xv = integers(volume(inShape(p)), -3, 3, 7);
            const auto dyv = integers(volume(outShape), -2, 2, 8);
            auto x = h.input(FLOAT, inShape(p), xv, "x");
            auto dy = h.input(FLOAT, outShape, dyv, "dy");
            auto dw = poplin::calculateWeightDeltas(h.graph, dy, x, p, h.prog, "wu");
            CHECK(dw.shape() == wShape(p));
            h.output(dw, "dw");
            CHECK(h.run().at("dw") == convtest::weightDeltas(p, volume(wShape(p)), dyv, xv));
        }
    }
}

TEST_CASE("convolutionWeightUpdate, convolutionBiasUpdate and addBias") {
    auto p = params(2, {5, 5}, {3, 3}, 2, 3);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    Harness h(4);
    const std::vector<std::size_t> outShape = {2, 3, 5, 5};
    const auto xv = integers(volume(inShape(p)), -3, 3, 9);
    const auto dyv = integers(volume(outShape), -2, 2, 10);
    const auto wv = integers(volume(wShape(p)), -4, 4, 11);
    const auto bv = integers(3, -4, 4, 12);
    auto x = h.input(FLOAT, inShape(p), xv, "x");
    auto dy = h.input(FLOAT, outShape, dyv, "dy");
    auto w = h.input(FLOAT, wShape(p), wv, "w");
    auto acts = h.input(FLOAT, outShape, dyv, "acts");
    auto biases = poplin::createBiases(h.graph, acts);
    CHECK(biases.shape() == std::vector<std::size_t>{3});
    h.addInput(biases, bv, "b");
    poplin::convolutionWeightUpdate(h.graph, dy, w, x, p, -0.5f, h.prog, "wu");
    poplin::addBias(h.graph, acts, biases, h.prog, "addBias");
    poplin::convolutionBiasUpdate(h.graph, dy, biases, 0.25f, {}, h.prog, "bu");
    h.output(w, "w");
    h.output(acts, "acts");
    h.output(biases, "b");
    const auto r = h.run();
    const auto dw = convtest::weightDeltas(p, wv.size(), dyv, xv);
    for (std::size_t i = 0; i < wv.size(); ++i)
        CHECK(r.at("w")[i] == wv[i] - 0.5 * dw[i]);
    for (std::size_t i = 0; i < dyv.size(); ++i)
        CHECK(r.at("acts")[i] == dyv[i] + bv[(i / 25) % 3]);
    for (std::size_t c = 0; c < 3; ++c) {
        double sum = 0;
        for (std::size_t i = 0; i < dyv.size(); ++i)
            if ((i / 25) % 3 == c)
                sum += dyv[i];
        CHECK(r.at("b")[c] == bv[c] + 0.25 * sum);
    }
}

TEST_CASE("the planner picks the vertex PopLibs' estimators rate cheaper and splits over tiles") {
    poplar::IPUModel model("ipu2");
    model.tilesPerIPU = 64;
    const auto device = model.createDevice();
    const auto& target = device.getTarget();
    namespace pl = tilescope::poplibs;
    const auto plan = [&](const ConvParams& p) {
        return pl::planConvolution(target, pl::canonicalParams(p), FLOAT, 0.6, false);
    };
    CHECK(plan(ConvParams(HALF, 4, {16, 16}, {1, 1}, 64, 64, 1)).method == pl::ConvMethod::Amp1x1);
    CHECK(plan(ConvParams(HALF, 4, {16, 16}, {3, 3}, 64, 64, 1)).method == pl::ConvMethod::AmpNx1);
    // One channel and one output element per row: the AMP vertex's per-pass supervisor work
    // (weight loads, worker hand-over) outweighs the MAC's per-element cost (1196 against 1050
    // tile cycles, by PopLibs' estimators).
    CHECK(plan(ConvParams(FLOAT, 6, {3}, {3}, 1, 1, 1)).method == pl::ConvMethod::HorizontalMac);
    const auto big = plan(ConvParams(HALF, 8, {32, 32}, {3, 3}, 64, 64, 1));
    CHECK(big.splitB * big.splitG * big.splitO * big.splitF * big.splitI > 32);
    CHECK(big.splitF > 1); // the rows of a 2-D field are split, not only channels
    CHECK(big.method == pl::ConvMethod::AmpNx1);
    // Little memory forces input channels to be split (partial sums reduced afterwards).
    const auto deep = pl::planConvolution(
        target, pl::canonicalParams(ConvParams(FLOAT, 1, {2, 2}, {1, 1}, 2048, 8, 1)), FLOAT, 0.6,
        false);
    CHECK(deep.splitI > 1);
    std::ostringstream report;
    Harness h(16);
    poplin::reportPlanInfo(report, h.graph, ConvParams(FLOAT, 1, {8, 8}, {3, 3}, 4, 4, 1));
    CHECK(report.str().find("plan: split B/G/Co/F/Ci") != std::string::npos);
    CHECK(poplin::reportPlanEstimatedCosts(h.graph, ConvParams(FLOAT, 1, {8, 8}, {3, 3}, 4, 4, 1))
              .cycles > 0);
}

TEST_CASE("output-channel blocks are innermost in the tile order, as linearizeConvIndices") {
    tilescope::poplibs::ConvPlan plan;
    plan.splitB = 2, plan.splitG = 3, plan.splitO = 4, plan.splitF = 5, plan.splitI = 6;
    plan.numTiles = 720;
    // Groups, input channels, batch, rows, output channels (PopLibs' order, no kernel split).
    CHECK(plan.tileOf(0, 0, 1, 0, 0) == 1);
    CHECK(plan.tileOf(0, 0, 0, 1, 0) == 4);
    CHECK(plan.tileOf(1, 0, 0, 0, 0) == 20);
    CHECK(plan.tileOf(0, 0, 0, 0, 1) == 40);
    CHECK(plan.tileOf(0, 1, 0, 0, 0) == 240);
    CHECK(plan.tileOf(1, 2, 3, 4, 5) == 719);
}

TEST_CASE("the two tiles of a super tile receive a convolution's shared input at twice the rate") {
    namespace pl = tilescope::poplibs;
    // A 1x1 FLOAT convolution whose plan splits the output channels evenly and the rows in two,
    // on part of a 32-tile IPU. The tiles of one row block read the same input block, which sits
    // on tiles the plan leaves free (as a previous layer's output would); with the output
    // channels innermost in the tile order, the two tiles of each super tile read the same one.
    const ConvParams p(FLOAT, 1, {2, 40}, {1, 1}, 16, 8, 1);
    Harness h(32);
    const auto& target = h.graph.getTarget();
    const auto plan = pl::planConvolution(target, pl::canonicalParams(p), FLOAT, 0.6, false);
    INFO(plan.describe());
    REQUIRE(plan.splitO % target.getTilesPerSharedExchangeBus() == 0);
    REQUIRE(plan.splitF == 2); // another split, so that the tile order matters
    REQUIRE(plan.splitB * plan.splitG * plan.splitI == 1);
    const unsigned planTiles = static_cast<unsigned>(plan.splitO * plan.splitF);
    const unsigned senders = 8;
    REQUIRE(planTiles + senders <= 32);

    const auto xv = integers(volume(inShape(p)), -3, 3, 21);
    const auto wv = integers(volume(wShape(p)), -2, 2, 22);
    // The input: whole channels (both rows) on each sender.
    auto x = h.graph.addVariable(FLOAT, inShape(p), "x");
    const std::size_t channelsPerSender = p.inputChannels / senders;
    REQUIRE(channelsPerSender * senders == p.inputChannels);
    for (unsigned s = 0; s < senders; ++s)
        h.graph.setTileMapping(x[0].slice(s * channelsPerSender, (s + 1) * channelsPerSender),
                               32 - senders + s);
    // Each block of weights on the tile of its first row block; the second row block's tile
    // receives it from there.
    auto w = h.graph.addVariable(FLOAT, wShape(p), "w");
    REQUIRE(plan.blockO * plan.splitO == p.outputChannels);
    for (std::size_t o = 0; o < plan.splitO; ++o)
        h.graph.setTileMapping(w[0].slice(o * plan.blockO, (o + 1) * plan.blockO),
                               plan.tileOf(0, 0, o, 0, 0));
    h.addInput(x, xv, "x");
    h.addInput(w, wv, "w");
    h.output(poplin::convolution(h.graph, x, w, p, false, h.prog, "conv"), "y");
    CHECK(h.run().at("y") == convtest::forward(p, xv, wv));

    const poplar::Engine engine(h.graph, h.prog);
    const tilescope::capture::StepRecord* exchange = nullptr;
    for (const auto& s : engine.compileRecords().steps)
        if (s.kind == tilescope::capture::StepKind::DoExchange &&
            s.name.find("Convolve") != std::string::npos)
            exchange = &s;
    REQUIRE(exchange != nullptr);
    // Every tile of the plan receives its row block of the input from each sender; those of the
    // first row block send their weights to those of the second (bytes are sent plus received).
    const std::uint64_t blockBytes = volume(inShape(p)) * 4 / plan.splitF;
    const std::uint64_t weightBytes = plan.blockO * p.inputChannels * 4;
    for (std::size_t f = 0; f < plan.splitF; ++f)
        for (std::size_t o = 0; o < plan.splitO; ++o)
            CHECK(exchange->exchangeBytesPerTile[plan.tileOf(0, 0, o, f, 0)] ==
                  blockBytes + weightBytes);
    // The rule: a message both tiles of a super tile receive from the same sender streams at
    // twice the exchange rate, any message takes at least the message minimum; the busiest
    // tiles (second row block: input and weights) set the exchange's duration, which every tile
    // taking part books.
    const tilescope::sim::CostModel costs;
    const std::uint64_t rate = target.getExchangeBytesPerCycle();
    const std::uint64_t message = blockBytes / senders;
    REQUIRE(message / 2 > costs.minCyclesPerReceivedMessage * rate); // the rate, not the minimum
    const auto perMessage = [&](std::uint64_t bytes) {
        return std::max(costs.minCyclesPerReceivedMessage, (bytes + rate - 1) / rate);
    };
    const std::uint64_t instructions =
        (senders + 1) * costs.receiveInstructionsPerSourceTile * costs.exchangeInstructionCycles;
    const auto duration = [&](std::uint64_t inputMessageBytes) {
        return costs.exchangeOverheadCycles + senders * perMessage(inputMessageBytes) +
               perMessage(weightBytes) + instructions;
    };
    for (unsigned t = 0; t < 32; ++t)
        if (exchange->exchangeBytesPerTile[t])
            CHECK(exchange->estimatedCyclesPerTile[t] == duration(message / 2));
    CHECK(duration(message / 2) < duration(message));
}

TEST_CASE("the planner's exchange and reduction are PopLibs' ConvPlan terms as worked by hand") {
    namespace pl = tilescope::poplibs;
    // The ResNet-style layer of simcore/README.md: HALF, batch 4, 56x56, 64 -> 64 channels, 3x3
    // padded, on a 1472-tile Mk2. Its plan: batch 4, output channels 4, rows 16, input channels
    // 4 ways; each tile 16 output channels x 4 rows x 56, 16 input channels.
    poplar::IPUModel model("ipu2");
    const auto device = model.createDevice();
    const auto& target = device.getTarget();
    ConvParams p(HALF, 4, {56, 56}, {3, 3}, 64, 64, 1);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    const auto plan = pl::planConvolution(target, pl::canonicalParams(p), FLOAT, 0.6, false);
    INFO(plan.describe());
    REQUIRE(plan.splitB == 4);
    REQUIRE(plan.splitO == 4);
    REQUIRE(plan.splitF == 16);
    REQUIRE(plan.splitI == 4);
    REQUIRE(target.getExchangeBytesPerCycle() == 4);
    // addExchangeCycleEstimate (lib/poplin/ConvPlan.cpp). Input: 16 channels x 6 rows (4 at
    // stride 1 and the 3-row kernel) x 56 = 5,376 HALF elements, less the quarter already on the
    // tile (4 output-channel blocks read it): 4,032 x 2 B at 4 B/cycle, twice that rate as the
    // output-channel split is even (super tiles): 1,008 cycles. Weights: 16 x 16 x 9 = 2,304,
    // less the 64th on the tile (batch 4 x rows 16 read them): 2,268 x 2 B / 4 = 1,134. The
    // tile's shares sent (1,344 + 36 elements: 690 cycles) are fewer. Partials: every tile's
    // 16 x 4 x 56 = 3,584 FLOAT partials, 3,584 cycles, in one stage (4 deep).
    CHECK(plan.exchangeCycles == 1008 + 1134 + 3584);
    // addReduceCycleEstimate: each tile sums 3,584 / 4 = 896 outputs of 4 FLOAT partials,
    // getReduceCycleEstimate: 224 loops of 4, 37 per worker and 2 left (one more each),
    // (32 + 38 x (3 x 4 + 7)) x 6 workers = 4,524.
    CHECK(plan.reductionCycles == 4524);
    CHECK(plan.estimatedCycles == plan.exchangeCycles + plan.vertexCycles + plan.reductionCycles);
    const std::size_t out[3] = {4, 1, 56}, kernel[3] = {3, 1, 3};
    CHECK(plan.vertexCycles ==
          pl::convVertexCycles(target, HALF, plan.method, 1, 1, 16, 16, out, kernel));
}

TEST_CASE("deep convolutions split input channels and reduce partials exactly") {
    auto p = params(1, {3, 3}, {1, 1}, 600, 4);
    Harness h(32);
    const auto xv = integers(volume(inShape(p)), -2, 2, 13);
    const auto wv = integers(volume(wShape(p)), -2, 2, 14);
    auto x = h.input(FLOAT, inShape(p), xv, "x");
    auto w = h.input(FLOAT, wShape(p), wv, "w");
    h.output(poplin::convolution(h.graph, x, w, p, false, h.prog, "conv",
                                 {{"availableMemoryProportion", "0.01"}}),
             "y");
    CHECK(h.run().at("y") == convtest::forward(p, xv, wv));
    // The compiled profile: partials are a not-always-live temporary summed by a reduction after
    // the convolution's compute set; the operation records its plan and FLOPs; the worklists are
    // constants on the tiles.
    const poplar::Engine engine(h.graph, h.prog);
    const auto& records = engine.compileRecords();
    bool partials = false, worklist = false;
    for (const auto& v : records.variables) {
        if (v.name == "conv/partials") {
            partials = true;
            CHECK_FALSE(v.alwaysLive);
        }
        worklist = worklist || v.name == "conv/worklist";
    }
    CHECK(partials);
    CHECK(worklist);
    std::vector<std::string> computeSteps;
    for (const auto& s : records.steps)
        if (s.kind == tilescope::capture::StepKind::OnTileExecute)
            computeSteps.push_back(s.name);
    REQUIRE(computeSteps.size() >= 2);
    CHECK(computeSteps[0] == "conv/Convolve");
    bool op = false;
    for (const auto& o : records.operations)
        if (o.debugPath == "conv" && o.layer == "PopLibs") {
            op = true;
            CHECK(o.flops == std::uint64_t(2 * 600 * 4 * 9));
            CHECK(o.debugJson.find("\"plan\"") != std::string::npos);
        }
    CHECK(op);
}

TEST_CASE("convolution refuses bad shapes, parameters and options with clear errors") {
    Harness h(4);
    auto p = params(1, {5, 5}, {3, 3}, 2, 2);
    auto x = h.input(FLOAT, {1, 2, 5, 5}, std::vector<double>(50), "x");
    auto w = h.input(FLOAT, {1, 2, 3, 3, 3}, std::vector<double>(54), "w");
    CHECK_THROWS_WITH(poplin::convolution(h.graph, x, w, p, false, h.prog),
                      Catch::Contains("weights") && Catch::Contains("{1,2,2,3,3}"));
    auto w2 = h.input(FLOAT, {1, 2, 2, 3, 3}, std::vector<double>(36), "w2");
    CHECK_THROWS_AS(poplin::convolution(h.graph, x, w2, p, false, h.prog, "", {{"bogus", "1"}}),
                    poplar::invalid_option);
    CHECK_THROWS_AS(
        poplin::convolution(h.graph, x, w2, p, false, h.prog, "", {{"pass", "SIDEWAYS"}}),
        poplar::invalid_option);
    auto tooBig = params(1, {2, 2}, {3, 3}, 2, 2);
    CHECK_THROWS_WITH(tooBig.validate(), Catch::Contains("larger than the transformed input"));
    auto noStride = p;
    noStride.outputTransform.stride = {0, 1};
    CHECK_THROWS_AS(noStride.validate(), poputil::poplibs_error);
    auto fourD = params(1, {2, 2, 2, 2}, {1, 1, 1, 1}, 1, 1);
    CHECK_THROWS_WITH(fourD.validate(), Catch::Contains("1 to 3 spatial dimensions"));
}
