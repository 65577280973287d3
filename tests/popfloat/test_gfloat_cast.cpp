// GfloatCast on the simulator: the format configuration's type choices (PopLibs' rules), and
// quantising, packing and unpacking tensors compared with the host arithmetic of GfloatFormat.

#include "PoplibsHarness.hpp"
#include "popfloat/GfloatFormat.hpp"

#include <catch2/catch.hpp>
#include <popfloat/experimental/CastToGfloat.hpp>
#include <popfloat/experimental/codelets.hpp>

using namespace poplibstest;
using popfloat::experimental::FormatType;
using popfloat::experimental::GfloatCast;
using popfloat::experimental::RoundType;
using popfloat::experimental::SpecType;

namespace {

std::vector<double> inputs() {
    std::vector<double> v = values(64, -300.0, 300.0, 7);
    v.push_back(0.0);
    v.push_back(1.125);
    v.push_back(1e-6);
    v.push_back(60000.0);
    return v;
}

std::vector<double> reference(const std::vector<double>& in, const GfloatCast::FormatConfig& f,
                              RoundType mode, bool nanoo) {
    tilescope::popfloat::GfloatSpec s;
    s.mantissaBits = f.getNumMantissaBits();
    s.exponentBits = f.getNumExponentBits();
    s.bias = f.getExponentBias();
    s.denorms = f.isDenormEnabled();
    s.infsAndNans = f.infAndNansEnabled();
    std::vector<double> out;
    for (double x : in)
        out.push_back(tilescope::popfloat::quantise(static_cast<float>(x), s, mode, nanoo));
    return out;
}

void checkEqual(const std::vector<double>& actual, const std::vector<double>& expected) {
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        INFO("element " << i);
        if (std::isnan(expected[i]))
            CHECK(std::isnan(actual[i]));
        else
            CHECK(actual[i] == expected[i]);
    }
}

} // namespace

TEST_CASE("FormatConfig chooses types and format types as PopLibs does") {
    const GfloatCast::FormatConfig bf16(7, 8, 127, false, true);
    CHECK(bf16.getFormatType() == FormatType::BFLOAT16);
    CHECK(bf16.getCalculationType() == poplar::FLOAT);
    CHECK(bf16.getStorageType() == poplar::SHORT);
    CHECK(bf16.getPackedFloatBits() == 16);

    const GfloatCast::FormatConfig f152(2, 5, 15, true, true);
    CHECK(f152.getFormatType() == FormatType::ONE_FIVE_TWO_GF8);
    CHECK(f152.getCalculationType() == poplar::HALF);
    CHECK(f152.getStorageType() == poplar::CHAR);

    const GfloatCast::FormatConfig f143(3, 4, 7, true, false);
    CHECK(f143.getFormatType() == FormatType::MIN_NORM_ALIGN_GF8);

    const GfloatCast::FormatConfig ieeeHalf(10, 5, 15, true, true);
    CHECK(ieeeHalf.getFormatType() == FormatType::IEEE_FP16);
    CHECK(ieeeHalf.getCalculationType() == poplar::FLOAT);
    CHECK(ieeeHalf.getStorageType() == poplar::HALF);

    const GfloatCast::FormatConfig wide(12, 8, 127, true, true);
    CHECK(wide.getFormatType() == FormatType::QUANTISED_FP32);
    CHECK(wide.getStorageType() == poplar::FLOAT);

    const GfloatCast::FormatConfig forcedFloat(2, 5, 15, true, true, SpecType::FP32);
    CHECK(forcedFloat.getCalculationType() == poplar::FLOAT);
    CHECK(forcedFloat.getStorageType() == poplar::CHAR);

    CHECK_THROWS_AS(GfloatCast::FormatConfig(30, 8, 127, true, true), poplar::poplar_error);
}

TEST_CASE("castNativeToGfloat quantises FLOAT to bfloat16 held in FLOAT, every rounding mode") {
    const GfloatCast::FormatConfig format(7, 8, 127, true, true);
    for (RoundType mode :
         {RoundType::RZ, RoundType::RN, RoundType::RA, RoundType::RU, RoundType::RD}) {
        INFO("mode " << popfloat::experimental::roundTypeToString(mode));
        Harness h(4);
        popfloat::experimental::addCodelets(h.graph);
        const auto in = inputs();
        poplar::Tensor x = h.input(poplar::FLOAT, {in.size()}, in, "x");
        GfloatCast cast(format, GfloatCast::RoundConfig(mode, 0, poplar::FLOAT), false,
                        SpecType::FP32);
        cast.createCastOpParamsTensor(h.graph, h.prog);
        poplar::Tensor q = cast.castNativeToGfloat(h.graph, x, h.prog);
        CHECK(q.elementType() == poplar::FLOAT);
        h.output(q, "q");
        checkEqual(h.run()["q"], reference(in, format, mode, false));
    }
}

TEST_CASE("an 8-bit format packs into CHAR and unpacks to HALF with the quantised values") {
    const GfloatCast::FormatConfig format(2, 5, 15, true, true);
    Harness h(4);
    popfloat::experimental::addCodelets(h.graph);
    const auto in = inputs();
    poplar::Tensor x = h.input(poplar::HALF, {in.size()}, in, "x");
    GfloatCast cast(format, GfloatCast::RoundConfig(RoundType::RN, 0, poplar::HALF), true);
    cast.createCastOpParamsTensor(h.graph, h.prog);
    poplar::Tensor packed = cast.castNativeToGfloat(h.graph, x, h.prog);
    CHECK(packed.elementType() == poplar::CHAR);
    poplar::Tensor back = cast.castGfloatToNative(h.graph, packed, h.prog);
    CHECK(back.elementType() == poplar::HALF);
    h.output(back, "back");
    std::vector<double> halves;
    for (double v : in)
        halves.push_back(toHalf(v));
    checkEqual(h.run()["back"], reference(halves, format, RoundType::RN, true));
}

TEST_CASE("bfloat16 packs into SHORT and castNativeToGfloatInPlace quantises in place") {
    const GfloatCast::FormatConfig format(7, 8, 127, true, true);
    Harness h(4);
    popfloat::experimental::addCodelets(h.graph);
    const auto in = inputs();
    poplar::Tensor x = h.input(poplar::FLOAT, {in.size()}, in, "x");
    poplar::Tensor y = h.input(poplar::FLOAT, {in.size()}, in, "y");
    GfloatCast cast(format, GfloatCast::RoundConfig(RoundType::RU, 0, poplar::FLOAT), false);
    cast.createCastOpParamsTensor(h.graph, h.prog);
    poplar::Tensor packed = cast.castNativeToGfloat(h.graph, x, h.prog);
    CHECK(packed.elementType() == poplar::SHORT);
    poplar::Tensor back = cast.castGfloatToNative(h.graph, packed, h.prog);
    cast.castNativeToGfloatInPlace(h.graph, y, h.prog);
    h.output(back, "back");
    h.output(y, "y");
    auto out = h.run();
    const auto expected = reference(in, format, RoundType::RU, false);
    checkEqual(out["back"], expected);
    checkEqual(out["y"], expected);
}

TEST_CASE("GfloatCast refuses what TileScope does not implement, naming it") {
    Harness h(2);
    popfloat::experimental::addCodelets(h.graph);
    poplar::Tensor x = h.input(poplar::FLOAT, {4}, {1, 2, 3, 4}, "x");
    const GfloatCast::FormatConfig format(7, 8, 127, true, true);

    GfloatCast noParams(format, GfloatCast::RoundConfig(RoundType::RN, 0, poplar::FLOAT), false);
    CHECK_THROWS_WITH(noParams.castNativeToGfloat(h.graph, x, h.prog),
                      Catch::Contains("createCastOpParamsTensor"));

    GfloatCast stochastic(format, GfloatCast::RoundConfig(RoundType::SR, 8, poplar::FLOAT), false);
    stochastic.createCastOpParamsTensor(h.graph, h.prog);
    CHECK_THROWS_WITH(stochastic.castNativeToGfloat(h.graph, x, h.prog),
                      Catch::Contains("stochastic rounding"));

    const GfloatCast::FormatConfig blockFloat(7, 0, 0, true, false);
    GfloatCast block(blockFloat, GfloatCast::RoundConfig(RoundType::RN, 0, poplar::FLOAT), false);
    block.createCastOpParamsTensor(h.graph, h.prog);
    CHECK_THROWS_WITH(block.castNativeToGfloat(h.graph, x, h.prog), Catch::Contains("block-float"));

    // A FLOAT-range format cannot be held in HALF.
    GfloatCast inHalf(format, GfloatCast::RoundConfig(RoundType::RN, 0, poplar::FLOAT), false,
                      SpecType::FP16);
    inHalf.createCastOpParamsTensor(h.graph, h.prog);
    CHECK_THROWS_WITH(inHalf.castNativeToGfloat(h.graph, x, h.prog),
                      Catch::Contains("cannot hold"));
}
