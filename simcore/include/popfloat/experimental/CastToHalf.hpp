#pragma once
// Host-side conversions between single precision and the bits of IEEE half precision.

#include <cstdint>

namespace popfloat {
namespace experimental {

/// The bits of `value` rounded to the nearest half (ties to even). Values beyond the half range
/// become infinity, or NaN when `enNanoo` (NaN on overflow) is set.
std::uint16_t singleToHalf(float value, bool enNanoo = false);

/// The single-precision value of the half whose bits are `ihalf` (exact).
float halfToSingle(std::uint16_t ihalf);

} // namespace experimental
} // namespace popfloat
