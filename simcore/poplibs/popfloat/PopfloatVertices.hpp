#pragma once
// Names and state of popfloat's vertices (registered by popfloat::experimental::addCodelets).

#include "popfloat/GfloatFormat.hpp"

#include <poplar/Graph.hpp>
#include <poplar/Type.hpp>
#include <string>

namespace tilescope::popfloat {

/// Quantise `in` (FLOAT or HALF) into `out` (FLOAT or HALF).
std::string castToGfloatVertex(const poplar::Type& in, const poplar::Type& out);
/// Quantise `inOut` (FLOAT or HALF) in place.
std::string castToGfloatInPlaceVertex(const poplar::Type& type);
/// Pack quantised `in` (FLOAT or HALF) into the bits of `out` (CHAR or SHORT).
std::string packGfloatVertex(const poplar::Type& in, const poplar::Type& out);
/// Unpack the bits of `in` (CHAR or SHORT) into `out` (FLOAT or HALF).
std::string unpackGfloatVertex(const poplar::Type& in, const poplar::Type& out);

/// Sets the format fields every popfloat vertex has (mantissaBits, exponentBits, bias, denorms,
/// infsAndNans).
void setFormatFields(poplar::Graph& graph, poplar::VertexRef v, const GfloatSpec& spec);

} // namespace tilescope::popfloat
