#include <cmath>
#include <cstring>
#include <popfloat/experimental/CastToHalf.hpp>

namespace popfloat::experimental {

std::uint16_t singleToHalf(float value, bool enNanoo) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
    if (std::isnan(value))
        return sign | 0x7e00u;
    const float a = std::fabs(value);
    if (std::isinf(value))
        return sign | 0x7c00u;
    // Round to half's precision in float arithmetic: the spacing of halves around a is
    // 2^(e - 10), or 2^-24 below the smallest normal half (2^-14). nearbyint rounds ties to even.
    const int e = a == 0 ? -25 : std::ilogb(a);
    const int quantum = e < -14 ? -24 : e - 10;
    const float rounded = std::ldexp(std::nearbyint(std::ldexp(a, -quantum)), quantum);
    if (rounded > 65504.0f)
        return sign | (enNanoo ? 0x7e00u : 0x7c00u);
    if (rounded < std::ldexp(1.0f, -14)) // zero or denormal: mantissa counts 2^-24 steps
        return sign | static_cast<std::uint16_t>(std::ldexp(rounded, 24));
    const int re = std::ilogb(rounded);
    const auto mantissa = static_cast<std::uint16_t>(std::ldexp(rounded, 10 - re) - 1024.0f);
    return sign | static_cast<std::uint16_t>((re + 15) << 10) | mantissa;
}

float halfToSingle(std::uint16_t ihalf) {
    const bool negative = ihalf & 0x8000u;
    const unsigned field = (ihalf >> 10) & 0x1fu;
    const unsigned mantissa = ihalf & 0x3ffu;
    float value;
    if (field == 0x1f)
        value = mantissa == 0 ? INFINITY : NAN;
    else if (field == 0)
        value = std::ldexp(static_cast<float>(mantissa), -24);
    else
        value = std::ldexp(static_cast<float>(mantissa + 1024), static_cast<int>(field) - 25);
    return negative ? -value : value;
}

} // namespace popfloat::experimental
