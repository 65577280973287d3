#include "popfloat/GfloatFormat.hpp"

#include <cmath>
#include <limits>
#include <popfloat/experimental/GfloatExprUtil.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

namespace tilescope::popfloat {

using ::popfloat::experimental::RoundType;

int GfloatSpec::maxExponent() const {
    const int maxField = (1 << exponentBits) - 1 - (infsAndNans ? 1 : 0);
    return maxField - bias;
}

int GfloatSpec::minExponent() const {
    return denorms ? minNormalExponent() - static_cast<int>(mantissaBits) : minNormalExponent();
}

double GfloatSpec::maxValue() const {
    return std::ldexp(2.0 - std::ldexp(1.0, -static_cast<int>(mantissaBits)), maxExponent());
}

std::string GfloatSpec::describe() const {
    return "1/" + std::to_string(exponentBits) + "/" + std::to_string(mantissaBits) + " bias " +
           std::to_string(bias) + (denorms ? ", denormals" : ", no denormals") +
           (infsAndNans ? ", infs and nans" : ", no infs or nans");
}

void checkSupported(const GfloatSpec& spec) {
    if (spec.exponentBits == 0)
        throw poputil::poplibs_error("popfloat: gfloat format " + spec.describe() +
                                     " has no exponent bits; block-float and integer formats are "
                                     "not supported by TileScope");
    if (spec.exponentBits > 8 || spec.mantissaBits > 23)
        throw poputil::poplibs_error("popfloat: gfloat format " + spec.describe() +
                                     " is wider than FLOAT (at most 8 exponent and 23 mantissa "
                                     "bits)");
    if (spec.maxExponent() < spec.minNormalExponent())
        throw poputil::poplibs_error("popfloat: gfloat format " + spec.describe() +
                                     " has no finite normal values (a 1-bit exponent with infs "
                                     "and nans is a block-float format); not supported by "
                                     "TileScope");
}

namespace {

double roundToInteger(double v, RoundType mode) {
    switch (mode) {
    case RoundType::RZ:
        return std::trunc(v);
    case RoundType::RN: {
        // Ties to even; v is a scaled FLOAT, so v - floor(v) is exact.
        const double lower = std::floor(v);
        const double fraction = v - lower;
        if (fraction > 0.5)
            return lower + 1;
        if (fraction < 0.5)
            return lower;
        return std::fmod(lower, 2.0) == 0 ? lower : lower + 1;
    }
    case RoundType::RA:
        return std::round(v);
    case RoundType::RU:
        return std::ceil(v);
    case RoundType::RD:
        return std::floor(v);
    default:
        throw poputil::poplibs_error("popfloat: rounding mode " +
                                     ::popfloat::experimental::roundTypeToString(mode) +
                                     " is not supported by TileScope (RZ, RN, RA, RU and RD are)");
    }
}

} // namespace

double quantise(double x, const GfloatSpec& spec, RoundType mode, bool nanoo) {
    if (std::isnan(x) || std::isinf(x) || x == 0)
        return x;
    const int exponent = std::ilogb(x);
    // The spacing of the format's values around x: 2^(e - mantissaBits) for normal values; for
    // values below the smallest normal, the denormal spacing, or without denormals the smallest
    // normal itself (so they round to zero or to it).
    int quantum;
    if (exponent >= spec.minNormalExponent())
        quantum = exponent - static_cast<int>(spec.mantissaBits);
    else
        quantum = spec.minExponent();
    const double rounded = std::ldexp(roundToInteger(std::ldexp(x, -quantum), mode), quantum);
    if (std::fabs(rounded) > spec.maxValue()) {
        if (nanoo)
            return std::numeric_limits<double>::quiet_NaN();
        return std::copysign(spec.maxValue(), x);
    }
    return rounded == 0 ? std::copysign(0.0, x) : rounded;
}

std::uint32_t pack(double quantised, const GfloatSpec& spec) {
    const std::uint32_t sign = std::signbit(quantised) ? 1u << (spec.bits() - 1) : 0u;
    const std::uint32_t allOnesExponent = (1u << spec.exponentBits) - 1;
    const std::uint32_t mantissaMask = (1u << spec.mantissaBits) - 1;
    const double a = std::fabs(quantised);
    if (std::isnan(a))
        return sign | (allOnesExponent << spec.mantissaBits) | mantissaMask;
    if (std::isinf(a))
        return sign | (allOnesExponent << spec.mantissaBits);
    if (a == 0)
        return sign;
    const int exponent = std::ilogb(a);
    if (exponent < spec.minNormalExponent()) {
        const auto mantissa = static_cast<std::uint32_t>(
            std::ldexp(a, static_cast<int>(spec.mantissaBits) - spec.minNormalExponent()));
        return sign | mantissa;
    }
    const auto field = static_cast<std::uint32_t>(exponent + spec.bias);
    const auto mantissa =
        static_cast<std::uint32_t>(std::ldexp(a, static_cast<int>(spec.mantissaBits) - exponent) -
                                   std::ldexp(1.0, static_cast<int>(spec.mantissaBits)));
    return sign | (field << spec.mantissaBits) | mantissa;
}

double unpack(std::uint32_t bits, const GfloatSpec& spec) {
    const bool negative = (bits >> (spec.bits() - 1)) & 1u;
    const std::uint32_t allOnesExponent = (1u << spec.exponentBits) - 1;
    const std::uint32_t field = (bits >> spec.mantissaBits) & allOnesExponent;
    const std::uint32_t mantissa = bits & ((1u << spec.mantissaBits) - 1);
    double value;
    if (field == allOnesExponent && spec.infsAndNans)
        value = mantissa == 0 ? std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
    else if (field == 0)
        value = std::ldexp(static_cast<double>(mantissa),
                           spec.minNormalExponent() - static_cast<int>(spec.mantissaBits));
    else
        value =
            std::ldexp(static_cast<double>(mantissa + (1u << spec.mantissaBits)),
                       static_cast<int>(field) - spec.bias - static_cast<int>(spec.mantissaBits));
    return negative ? -value : value;
}

} // namespace tilescope::popfloat
