#pragma once
// Names of popfloat's enumerators, and the poplar::Type of a SpecType.

#include <popfloat/experimental/GfloatExpr.hpp>
#include <poplar/Type.hpp>
#include <string>

namespace popfloat {
namespace experimental {

/// The enumerator's name, e.g. "RN".
std::string roundTypeToString(RoundType rmode);
/// The enumerator's name, e.g. "BFLOAT16".
std::string formatTypeToString(FormatType fmt);
/// The enumerator's name, e.g. "UNIFORM".
std::string srDensityTypeToString(SRDensityType dist);
/// FLOAT, HALF, CHAR, SHORT or INT; throws poplar::poplar_error for AUTO, which names no type.
poplar::Type specTypeToPoplarType(SpecType specType);

} // namespace experimental
} // namespace popfloat
