#pragma once
// IEEE 754 binary16, the IPU's HALF type, for host code and runtime-compiled codelets.

#include <cstdint>
#include <cstring>

namespace poplar {

/// A 16-bit IEEE floating-point value. Conversions from float round to nearest, ties to even
/// (as the IPU does); arithmetic is carried out in float and rounded back, so results match a
/// device that computes in single precision and stores half.
class half {
public:
    half() = default;
    half(float f) : bits_(fromFloat(f)) {}
    half(double d) : half(static_cast<float>(d)) {}
    half(int i) : half(static_cast<float>(i)) {}
    half(unsigned i) : half(static_cast<float>(i)) {}
#if defined(__FLT16_MANT_DIG__)
    // The compiler's binary16 type: the elements of the codelet vector types half2 and half4.
    half(_Float16 h) : half(static_cast<float>(h)) {}
#endif

    operator float() const { return toFloat(bits_); }

    /// The raw binary16 pattern.
    std::uint16_t bits() const { return bits_; }
    static half fromBits(std::uint16_t b) {
        half h;
        h.bits_ = b;
        return h;
    }

    half& operator+=(float x) { return *this = half(float(*this) + x); }
    half& operator-=(float x) { return *this = half(float(*this) - x); }
    half& operator*=(float x) { return *this = half(float(*this) * x); }
    half& operator/=(float x) { return *this = half(float(*this) / x); }

    static std::uint16_t fromFloat(float f) {
        std::uint32_t x;
        std::memcpy(&x, &f, sizeof x);
        const std::uint32_t sign = (x >> 16) & 0x8000u;
        const std::uint32_t exp = (x >> 23) & 0xffu;
        std::uint32_t mant = x & 0x7fffffu;
        if (exp == 0xff) // inf or NaN; keep NaNs quiet and non-zero
            return static_cast<std::uint16_t>(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0));
        const int e = static_cast<int>(exp) - 127 + 15;
        if (e >= 31)
            return static_cast<std::uint16_t>(sign | 0x7c00u);
        if (e <= 0) {
            // Subnormal result (or zero): shift the full significand into place, then round.
            if (e < -10)
                return static_cast<std::uint16_t>(sign);
            mant |= 0x800000u;
            const unsigned shift = static_cast<unsigned>(14 - e);
            std::uint32_t h = mant >> shift;
            const std::uint32_t rem = mant & ((1u << shift) - 1);
            const std::uint32_t halfway = 1u << (shift - 1);
            if (rem > halfway || (rem == halfway && (h & 1u)))
                ++h;
            return static_cast<std::uint16_t>(sign | h);
        }
        std::uint32_t h = (static_cast<std::uint32_t>(e) << 10) | (mant >> 13);
        const std::uint32_t rem = mant & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
            ++h; // may carry into the exponent, which correctly yields the next binade or inf
        return static_cast<std::uint16_t>(sign | h);
    }

    static float toFloat(std::uint16_t h) {
        const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
        const std::uint32_t exp = (h >> 10) & 0x1fu;
        std::uint32_t mant = h & 0x3ffu;
        std::uint32_t bits;
        if (exp == 0) {
            if (mant == 0) {
                bits = sign;
            } else { // subnormal: normalise
                int e = -1;
                do {
                    ++e;
                    mant <<= 1;
                } while ((mant & 0x400u) == 0);
                bits = sign | (static_cast<std::uint32_t>(127 - 15 - e) << 23) |
                       ((mant & 0x3ffu) << 13);
            }
        } else if (exp == 31) {
            bits = sign | 0x7f800000u | (mant << 13);
        } else {
            bits = sign | ((exp - 15 + 127) << 23) | (mant << 13);
        }
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }

private:
    std::uint16_t bits_ = 0;
};

} // namespace poplar
