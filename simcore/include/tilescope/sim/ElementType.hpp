#pragma once
// The element types a tensor or vertex field can hold, shared by the simulator, the Poplar face and
// runtime-compiled codelets (so it must stay a plain header without library dependencies).

#include <cstdint>

namespace tilescope {
namespace sim {

/// A tensor element type. Values are part of the codelet ABI: append only.
enum class ElementType : std::uint8_t {
    Float,
    Half,
    Int,
    UnsignedInt,
    Short,
    UnsignedShort,
    Char,
    UnsignedChar,
    SignedChar,
    Bool,
    LongLong,
    UnsignedLongLong,
};

/// Bytes of one element on the device (BOOL is one byte, as on the IPU).
constexpr unsigned elementSize(ElementType t) {
    // One expression, as C++11 constexpr functions require (codelets may be built as C++11).
    return t == ElementType::Float || t == ElementType::Int || t == ElementType::UnsignedInt ? 4
           : t == ElementType::Half || t == ElementType::Short || t == ElementType::UnsignedShort
               ? 2
           : t == ElementType::LongLong || t == ElementType::UnsignedLongLong ? 8
                                                                              : 1;
}

/// Poplar's spelling of the type ("float", "half", "unsigned int", ...).
inline const char* elementTypeName(ElementType t) {
    switch (t) {
    case ElementType::Float:
        return "float";
    case ElementType::Half:
        return "half";
    case ElementType::Int:
        return "int";
    case ElementType::UnsignedInt:
        return "unsigned int";
    case ElementType::Short:
        return "short";
    case ElementType::UnsignedShort:
        return "unsigned short";
    case ElementType::Char:
        return "char";
    case ElementType::UnsignedChar:
        return "unsigned char";
    case ElementType::SignedChar:
        return "signed char";
    case ElementType::Bool:
        return "bool";
    case ElementType::LongLong:
        return "long long";
    case ElementType::UnsignedLongLong:
        return "unsigned long long";
    }
    return "?";
}

constexpr bool isFloatingPoint(ElementType t) {
    return t == ElementType::Float || t == ElementType::Half;
}

} // namespace sim
} // namespace tilescope
