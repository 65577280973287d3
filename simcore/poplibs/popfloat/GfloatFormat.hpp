#pragma once
// The arithmetic of gfloat formats on the host, shared by popfloat's vertices and its API:
// quantising a value to a format with a rounding mode, and packing a quantised value into the
// format's bits and back. Kept free of the graph so that it can be tested value by value.

#include <cstdint>
#include <popfloat/experimental/GfloatExpr.hpp>
#include <string>

namespace tilescope::popfloat {

/// A gfloat format: 1 sign bit, `exponentBits` (1..8) and `mantissaBits` (0..23), values
/// (1 + m / 2^mantissaBits) * 2^(e - bias) for exponent fields e >= 1, and denormals
/// m / 2^mantissaBits * 2^(1 - bias) for e == 0 when `denorms` (else that field is only zero).
/// With `infsAndNans` the all-ones exponent field holds infinities and NaNs, as in IEEE.
struct GfloatSpec {
    unsigned mantissaBits = 0;
    unsigned exponentBits = 0;
    int bias = 0;
    bool denorms = false;
    bool infsAndNans = false;

    /// 1 + exponentBits + mantissaBits.
    unsigned bits() const { return 1 + exponentBits + mantissaBits; }
    /// The exponent of the smallest normal value, 1 - bias.
    int minNormalExponent() const { return 1 - bias; }
    /// The exponent of the largest finite value.
    int maxExponent() const;
    /// The exponent of the smallest non-zero value (denormal or, without denormals, normal).
    int minExponent() const;
    /// The largest finite value, (2 - 2^-mantissaBits) * 2^maxExponent().
    double maxValue() const;
    /// "1/5/10 bias 15, denormals, infs and nans": for error messages.
    std::string describe() const;
};

/// Throws poputil::poplibs_error naming the format when TileScope cannot represent it (no exponent
/// bits, no finite normal exponent, or sizes beyond FLOAT's).
void checkSupported(const GfloatSpec& spec);

/// `x` rounded to the nearest value of `spec` in the direction `mode` (RZ, RN, RA, RU or RD).
/// NaN and infinities pass through. A finite result beyond the largest value becomes NaN when
/// `nanoo`, else the largest value of that sign.
double quantise(double x, const GfloatSpec& spec, ::popfloat::experimental::RoundType mode,
                bool nanoo);

/// The bits of `quantised` (a value of `spec`, as quantise returns) in `spec.bits()` bits: sign,
/// exponent field, mantissa field, from the top. Infinities and NaNs take the all-ones exponent
/// field (with a zero, respectively all-ones, mantissa) whether or not the format has them.
std::uint32_t pack(double quantised, const GfloatSpec& spec);

/// The value of the `spec.bits()`-bit pattern `bits` (the inverse of pack).
double unpack(std::uint32_t bits, const GfloatSpec& spec);

} // namespace tilescope::popfloat
