// Gfloat arithmetic on the host: rounding modes, denormals, overflow, packing, and the half
// conversions of CastToHalf.hpp, each against values worked out by hand.

#include "popfloat/GfloatFormat.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <popfloat/experimental/CastToHalf.hpp>
#include <poplar/exceptions.hpp>

using popfloat::experimental::RoundType;
using tilescope::popfloat::GfloatSpec;

namespace {

GfloatSpec format(unsigned exponentBits, unsigned mantissaBits, int bias, bool denorms = true,
                  bool infs = true) {
    GfloatSpec s;
    s.exponentBits = exponentBits;
    s.mantissaBits = mantissaBits;
    s.bias = bias;
    s.denorms = denorms;
    s.infsAndNans = infs;
    return s;
}

double q(double x, const GfloatSpec& s, RoundType mode, bool nanoo = false) {
    return tilescope::popfloat::quantise(x, s, mode, nanoo);
}

} // namespace

TEST_CASE("quantise rounds to the format's precision in each deterministic mode") {
    const auto f152 = format(5, 2, 15);          // values 1, 1.25, 1.5, 1.75, 2, 2.5, ...
    CHECK(q(1.125, f152, RoundType::RN) == 1.0); // tie: even mantissa
    CHECK(q(1.375, f152, RoundType::RN) == 1.5); // tie: even mantissa
    CHECK(q(1.126, f152, RoundType::RN) == 1.25);
    CHECK(q(1.125, f152, RoundType::RA) == 1.25); // tie: away from zero
    CHECK(q(-1.125, f152, RoundType::RA) == -1.25);
    CHECK(q(1.2, f152, RoundType::RZ) == 1.0);
    CHECK(q(-1.2, f152, RoundType::RZ) == -1.0);
    CHECK(q(1.2, f152, RoundType::RU) == 1.25);
    CHECK(q(-1.2, f152, RoundType::RU) == -1.0);
    CHECK(q(1.2, f152, RoundType::RD) == 1.0);
    CHECK(q(-1.2, f152, RoundType::RD) == -1.25);
    CHECK(q(1.9, f152, RoundType::RN) == 2.0); // carries into the next binade
    CHECK(q(3.0, f152, RoundType::RN) == 3.0);
    CHECK(std::signbit(q(-0.0, f152, RoundType::RN)));
}

TEST_CASE("quantise handles denormals, their absence, overflow, infinities and NaN") {
    const auto f152 = format(5, 2, 15);
    // Denormals step by 2^-16 below 2^-14.
    CHECK(q(std::ldexp(3.0, -18), f152, RoundType::RN) == std::ldexp(1.0, -16));
    CHECK(q(std::ldexp(1.0, -18), f152, RoundType::RN) == 0.0);
    const auto noDenorms = format(5, 2, 15, false);
    CHECK(q(std::ldexp(1.0, -15), noDenorms, RoundType::RN) == 0.0); // tie between 0 and 2^-14
    CHECK(q(std::ldexp(1.5, -15), noDenorms, RoundType::RN) == std::ldexp(1.0, -14));
    CHECK(q(std::ldexp(1.0, -20), noDenorms, RoundType::RU) == std::ldexp(1.0, -14));
    // Largest value 1.75 * 2^15 with infinities (exponent field 30), 1.75 * 2^16 without.
    CHECK(f152.maxValue() == 57344.0);
    CHECK(format(5, 2, 15, true, false).maxValue() == 114688.0);
    CHECK(q(70000.0, f152, RoundType::RN) == 57344.0);
    CHECK(q(-70000.0, f152, RoundType::RN) == -57344.0);
    CHECK(std::isnan(q(70000.0, f152, RoundType::RN, true)));
    CHECK(std::isinf(q(INFINITY, f152, RoundType::RN)));
    CHECK(std::isnan(q(NAN, f152, RoundType::RN)));
}

TEST_CASE("quantise refuses stochastic and unset rounding modes by name") {
    const auto f = format(8, 7, 127);
    CHECK_THROWS_WITH(q(1.1, f, RoundType::SR), Catch::Contains("SR"));
    CHECK_THROWS_WITH(q(1.1, f, RoundType::SX), Catch::Contains("not supported"));
    CHECK_THROWS_AS(q(1.1, f, RoundType::INV), poplar::poplar_error);
}

TEST_CASE("unsupported formats are refused naming the format") {
    CHECK_THROWS_WITH(tilescope::popfloat::checkSupported(format(0, 7, 0)),
                      Catch::Contains("1/0/7") && Catch::Contains("block-float"));
    CHECK_THROWS_AS(tilescope::popfloat::checkSupported(format(1, 6, 0, true, true)),
                    poplar::poplar_error);
    CHECK_THROWS_AS(tilescope::popfloat::checkSupported(format(9, 6, 0)), poplar::poplar_error);
    CHECK_NOTHROW(tilescope::popfloat::checkSupported(format(8, 7, 127)));
}

TEST_CASE("pack and unpack use sign, exponent field and mantissa field from the top") {
    const auto f152 = format(5, 2, 15);
    // 1/5/2 with bias 15 is the top byte of IEEE half; 1/8/7 with bias 127 the top half of FLOAT.
    CHECK(tilescope::popfloat::pack(1.5, f152) == 0x3eu);
    CHECK(tilescope::popfloat::pack(-2.0, f152) == 0xc0u);
    CHECK(tilescope::popfloat::pack(-INFINITY, f152) == 0xfcu);
    CHECK(tilescope::popfloat::pack(std::ldexp(1.0, -16), f152) == 0x01u); // smallest denormal
    CHECK(tilescope::popfloat::pack(1.0, format(8, 7, 127)) == 0x3f80u);
    CHECK(tilescope::popfloat::unpack(0x3eu, f152) == 1.5);
    CHECK(tilescope::popfloat::unpack(0x7bu, f152) == 57344.0);
    CHECK(std::isinf(tilescope::popfloat::unpack(0x7cu, f152)));
    CHECK(std::isnan(tilescope::popfloat::unpack(0x7du, f152)));
    CHECK(tilescope::popfloat::unpack(0xc0c0u, format(8, 7, 127)) == -6.0);
    // Every value of a 1/4/3 format survives a round trip.
    const auto f143 = format(4, 3, 7, true, false);
    for (std::uint32_t bits = 0; bits < 256; ++bits) {
        const double v = tilescope::popfloat::unpack(bits, f143);
        INFO("bits " << bits << " value " << v);
        CHECK(tilescope::popfloat::pack(v, f143) == bits);
        CHECK(q(v, f143, RoundType::RN) == v);
    }
}

TEST_CASE("singleToHalf and halfToSingle convert as IEEE half") {
    using popfloat::experimental::halfToSingle;
    using popfloat::experimental::singleToHalf;
    CHECK(singleToHalf(1.0f) == 0x3c00u);
    CHECK(singleToHalf(-2.0f) == 0xc000u);
    CHECK(singleToHalf(1.0f + std::ldexp(1.0f, -11)) == 0x3c00u); // tie to even
    CHECK(singleToHalf(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02u);
    CHECK(singleToHalf(65504.0f) == 0x7bffu);
    CHECK(singleToHalf(70000.0f) == 0x7c00u);
    CHECK(singleToHalf(70000.0f, true) == 0x7e00u);
    CHECK(singleToHalf(std::ldexp(1.0f, -24)) == 0x0001u);
    CHECK(singleToHalf(0.0f) == 0x0000u);
    CHECK(halfToSingle(0x3c00u) == 1.0f);
    CHECK(halfToSingle(0x0001u) == std::ldexp(1.0f, -24));
    CHECK(halfToSingle(0xfbffu) == -65504.0f);
    CHECK(std::isinf(halfToSingle(0x7c00u)));
    CHECK(std::isnan(halfToSingle(0x7e00u)));
}
