#pragma once
// Tensor element types (FLOAT, HALF, INT, ...) and the mapping from C++ types.

#include "poplar/Half.hpp"
#include "tilescope/sim/ElementType.hpp"

#include <ostream>
#include <string>
// The SDK's headers use std::optional in their interfaces from C++17 on, so programs built with
// them use it without including <optional>; under C++11 and C++14 there is none to bring.
#if __cplusplus >= 201703L
#include <optional>
#endif

namespace poplar {

/// A device element type. Compare with ==; print with <<; the simulator's ElementType underneath
/// is available through `native()`.
class Type {
public:
    constexpr Type() = default;
    constexpr explicit Type(tilescope::sim::ElementType t) : t_(t) {}

    std::string toString() const { return std::string(tilescope::sim::elementTypeName(t_)); }
    constexpr tilescope::sim::ElementType native() const { return t_; }
    friend constexpr bool operator==(Type a, Type b) { return a.t_ == b.t_; }
    friend constexpr bool operator<(Type a, Type b) { return a.t_ < b.t_; }
    friend std::ostream& operator<<(std::ostream& os, Type t) { return os << t.toString(); }

private:
    tilescope::sim::ElementType t_ = tilescope::sim::ElementType::Float;
};

constexpr Type FLOAT{tilescope::sim::ElementType::Float};
constexpr Type HALF{tilescope::sim::ElementType::Half};
constexpr Type INT{tilescope::sim::ElementType::Int};
constexpr Type UNSIGNED_INT{tilescope::sim::ElementType::UnsignedInt};
constexpr Type SHORT{tilescope::sim::ElementType::Short};
constexpr Type UNSIGNED_SHORT{tilescope::sim::ElementType::UnsignedShort};
constexpr Type CHAR{tilescope::sim::ElementType::Char};
constexpr Type UNSIGNED_CHAR{tilescope::sim::ElementType::UnsignedChar};
constexpr Type SIGNED_CHAR{tilescope::sim::ElementType::SignedChar};
constexpr Type BOOL{tilescope::sim::ElementType::Bool};
constexpr Type LONGLONG{tilescope::sim::ElementType::LongLong};
constexpr Type UNSIGNED_LONGLONG{tilescope::sim::ElementType::UnsignedLongLong};

/// The device type of a host C++ type: equivalent_device_type<float>().value == FLOAT.
template <typename T> struct equivalent_device_type;
#define TILESCOPE_DEVICE_TYPE(cxx, poplarType)                                                     \
    template <> struct equivalent_device_type<cxx> { const Type& value = poplarType; }
TILESCOPE_DEVICE_TYPE(float, FLOAT);
TILESCOPE_DEVICE_TYPE(half, HALF);
TILESCOPE_DEVICE_TYPE(int, INT);
TILESCOPE_DEVICE_TYPE(unsigned, UNSIGNED_INT);
TILESCOPE_DEVICE_TYPE(short, SHORT);
TILESCOPE_DEVICE_TYPE(unsigned short, UNSIGNED_SHORT);
TILESCOPE_DEVICE_TYPE(char, CHAR);
TILESCOPE_DEVICE_TYPE(unsigned char, UNSIGNED_CHAR);
TILESCOPE_DEVICE_TYPE(signed char, SIGNED_CHAR);
TILESCOPE_DEVICE_TYPE(bool, BOOL);
TILESCOPE_DEVICE_TYPE(long long, LONGLONG);
TILESCOPE_DEVICE_TYPE(unsigned long long, UNSIGNED_LONGLONG);
#undef TILESCOPE_DEVICE_TYPE

} // namespace poplar
