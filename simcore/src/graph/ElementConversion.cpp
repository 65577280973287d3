#include "tilescope/sim/ElementConversion.hpp"

namespace tilescope::sim {

namespace {
template <typename T> T get(const void* src) {
    T v;
    std::memcpy(&v, src, sizeof v);
    return v;
}
} // namespace

double loadElementAsDouble(ElementType t, const void* src) {
    switch (t) {
    case ElementType::Float:
        return get<float>(src);
    case ElementType::Half:
        return poplar::half::toFloat(get<std::uint16_t>(src));
    case ElementType::Int:
        return get<std::int32_t>(src);
    case ElementType::UnsignedInt:
        return get<std::uint32_t>(src);
    case ElementType::Short:
        return get<std::int16_t>(src);
    case ElementType::UnsignedShort:
        return get<std::uint16_t>(src);
    case ElementType::Char:
        return get<char>(src);
    case ElementType::UnsignedChar:
        return get<unsigned char>(src);
    case ElementType::SignedChar:
        return get<signed char>(src);
    case ElementType::Bool:
        return get<unsigned char>(src) != 0;
    case ElementType::LongLong:
        return static_cast<double>(get<long long>(src));
    case ElementType::UnsignedLongLong:
        return static_cast<double>(get<unsigned long long>(src));
    }
    return 0;
}

std::int64_t loadElementAsInteger(ElementType t, const void* src) {
    switch (t) {
    case ElementType::LongLong:
        return get<long long>(src);
    case ElementType::UnsignedLongLong:
        return static_cast<std::int64_t>(get<unsigned long long>(src));
    default:
        return static_cast<std::int64_t>(loadElementAsDouble(t, src));
    }
}

} // namespace tilescope::sim
