#pragma once
// Host-side conversion between float/double buffers and device HALF buffers.

#include "poplar/Half.hpp"
#include "poplar/Target.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace poplar {

/// Converts `numElements` floats to IEEE binary16 (round to nearest even) at `dst`.
inline void copyFloatToDeviceHalf(const Target&, const float* src, void* dst,
                                  std::size_t numElements) {
    auto* out = static_cast<std::uint16_t*>(dst);
    for (std::size_t i = 0; i < numElements; ++i)
        out[i] = half::fromFloat(src[i]);
}

inline void copyDeviceHalfToFloat(const Target&, const void* src, float* dst,
                                  std::size_t numElements) {
    const auto* in = static_cast<const std::uint16_t*>(src);
    for (std::size_t i = 0; i < numElements; ++i)
        dst[i] = half::toFloat(in[i]);
}

/// Doubles go through float first, as on Poplar.
inline void copyDoubleToDeviceHalf(const Target&, const double* src, void* dst,
                                   std::size_t numElements) {
    auto* out = static_cast<std::uint16_t*>(dst);
    for (std::size_t i = 0; i < numElements; ++i)
        out[i] = half::fromFloat(static_cast<float>(src[i]));
}

inline void copyDeviceHalfToDouble(const Target&, const void* src, double* dst,
                                   std::size_t numElements) {
    const auto* in = static_cast<const std::uint16_t*>(src);
    for (std::size_t i = 0; i < numElements; ++i)
        dst[i] = half::toFloat(in[i]);
}

} // namespace poplar
