#pragma once
// Conversion between host values and device element bytes.

#include "poplar/Half.hpp"
#include "tilescope/sim/ElementType.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tilescope::sim {

/// Stores `value` converted to element type `t` at `dst` (C++ conversion rules; HALF rounds to
/// nearest even).
template <typename T> void storeElement(ElementType t, std::byte* dst, T value) {
    auto put = [dst](auto v) { std::memcpy(dst, &v, sizeof v); };
    switch (t) {
    case ElementType::Float:
        put(static_cast<float>(value));
        break;
    case ElementType::Half:
        put(poplar::half(static_cast<float>(value)).bits());
        break;
    case ElementType::Int:
        put(static_cast<std::int32_t>(value));
        break;
    case ElementType::UnsignedInt:
        put(static_cast<std::uint32_t>(value));
        break;
    case ElementType::Short:
        put(static_cast<std::int16_t>(value));
        break;
    case ElementType::UnsignedShort:
        put(static_cast<std::uint16_t>(value));
        break;
    case ElementType::Char:
        put(static_cast<char>(value));
        break;
    case ElementType::UnsignedChar:
        put(static_cast<unsigned char>(value));
        break;
    case ElementType::SignedChar:
        put(static_cast<signed char>(value));
        break;
    case ElementType::Bool:
        put(static_cast<unsigned char>(static_cast<bool>(value)));
        break;
    case ElementType::LongLong:
        put(static_cast<long long>(value));
        break;
    case ElementType::UnsignedLongLong:
        put(static_cast<unsigned long long>(value));
        break;
    }
}

/// The element at `src` as a double (exact for every type but 64-bit integers beyond 2^53).
double loadElementAsDouble(ElementType t, const std::byte* src);
/// The element at `src` as a 64-bit integer (floating-point values truncate).
std::int64_t loadElementAsInteger(ElementType t, const std::byte* src);

} // namespace tilescope::sim
