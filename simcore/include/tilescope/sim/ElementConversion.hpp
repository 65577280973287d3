#pragma once
// Conversion between host values and device element bytes.

#include "poplar/Half.hpp"
#include "tilescope/sim/ElementType.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tilescope {
namespace sim {

namespace detail {
template <typename V> void putElementBytes(void* dst, V v) {
    std::memcpy(dst, &v, sizeof v);
}
} // namespace detail

/// Stores `value` converted to element type `t` at `dst` (C++ conversion rules; HALF rounds to
/// nearest even). Plain C++11 (no std::byte) because poplar/Graph.hpp's templates use it.
template <typename T> void storeElement(ElementType t, void* dst, T value) {
    switch (t) {
    case ElementType::Float:
        detail::putElementBytes(dst, static_cast<float>(value));
        break;
    case ElementType::Half:
        detail::putElementBytes(dst, poplar::half(static_cast<float>(value)).bits());
        break;
    case ElementType::Int:
        detail::putElementBytes(dst, static_cast<std::int32_t>(value));
        break;
    case ElementType::UnsignedInt:
        detail::putElementBytes(dst, static_cast<std::uint32_t>(value));
        break;
    case ElementType::Short:
        detail::putElementBytes(dst, static_cast<std::int16_t>(value));
        break;
    case ElementType::UnsignedShort:
        detail::putElementBytes(dst, static_cast<std::uint16_t>(value));
        break;
    case ElementType::Char:
        detail::putElementBytes(dst, static_cast<char>(value));
        break;
    case ElementType::UnsignedChar:
        detail::putElementBytes(dst, static_cast<unsigned char>(value));
        break;
    case ElementType::SignedChar:
        detail::putElementBytes(dst, static_cast<signed char>(value));
        break;
    case ElementType::Bool:
        detail::putElementBytes(dst, static_cast<unsigned char>(static_cast<bool>(value)));
        break;
    case ElementType::LongLong:
        detail::putElementBytes(dst, static_cast<long long>(value));
        break;
    case ElementType::UnsignedLongLong:
        detail::putElementBytes(dst, static_cast<unsigned long long>(value));
        break;
    }
}

/// The element at `src` as a double (exact for every type but 64-bit integers beyond 2^53).
double loadElementAsDouble(ElementType t, const void* src);
/// The element at `src` as a 64-bit integer (floating-point values truncate).
std::int64_t loadElementAsInteger(ElementType t, const void* src);

} // namespace sim
} // namespace tilescope
