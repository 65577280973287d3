#pragma once
// Vertex types compiled into a library (PopLibs) rather than compiled at run time from a codelet
// file. They are ordinary codelet classes (poplar/Vertex.hpp); the library lists their fields
// itself instead of the generated registration unit.

#include "poplar/Graph.hpp"
#include "poplar/Vertex.hpp"
#include "tilescope/sim/CodeletRegistration.hpp"
#include "tilescope/sim/GraphModel.hpp"

namespace tilescope::sim {

/// Registers codelet class V under `name` in the graph's vertex types (replacing a type of the
/// same name, so adding a library's codelets twice is harmless). `visit` reports V's fields with
/// abi::describeField, as the generated registration unit of a runtime codelet does.
template <typename V>
void registerBuiltinVertex(poplar::Graph& graph, const std::string& name,
                           void (*visit)(void*, abi::FieldVisitor&)) {
    VertexType type;
    type.name = name;
    type.info = abi::makeVertexTypeInfo<V>(nullptr, visit);
    type.fields = describeFields(type.info);
    type.sourcePath = "<builtin>";
    graph.model()->vertexTypes.add(std::move(type));
}

} // namespace tilescope::sim
