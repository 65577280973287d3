#pragma once
// How the executable format stores vertex types: built-in ones by name, runtime codelets as the
// bytes of their shared object (so loading needs no compiler and no original source files).

#include "ByteStream.hpp"
#include "tilescope/sim/GraphModel.hpp"

namespace tilescope::sim {

void writeVertexTypes(ByteWriter& w, const VertexTypeRegistry& types);
/// Reads the types and adds them to `model.vertexTypes` in their original order (vertex type
/// indices stay valid).
void readVertexTypes(ByteReader& r, GraphModel& model);

} // namespace tilescope::sim
