#pragma once
// Finds vertex classes and their member names in codelet source text, so a registration unit can
// be generated for an unchanged Poplar codelet file.

#include <string>
#include <string_view>
#include <vector>

namespace tilescope::sim {

/// A class deriving from Vertex, MultiVertex or SupervisorVertex, with its data members in
/// declaration order. `qualifiedName` includes enclosing namespaces ("ns::Foo"); class templates
/// are reported with `isTemplate` set, since only their instantiations can be registered.
struct ScannedVertexClass {
    std::string qualifiedName;
    std::vector<std::string> members;
    bool isTemplate = false;
};

/// Scans C++ source (comments, literals and preprocessor lines are ignored) for vertex classes.
/// It understands the declarations codelets use (fields, state members, member functions, nested
/// types, namespaces); the C++ compiler remains the judge of everything else.
std::vector<ScannedVertexClass> scanVertexClasses(std::string_view source);

} // namespace tilescope::sim
