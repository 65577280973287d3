#pragma once
// Finds vertex classes and their member names in codelet source text, so a registration unit can
// be generated for an unchanged Poplar codelet file.

#include <string>
#include <string_view>
#include <vector>

namespace tilescope::sim {

/// A class deriving from Vertex, MultiVertex or SupervisorVertex, with its data members in
/// declaration order. `qualifiedName` includes enclosing namespaces ("ns::Foo"); class templates
/// are reported with `isTemplate` set and the explicit instantiations found in the file
/// (`template class Fill<float>;`) in `instantiations`, each as the registered vertex name
/// ("Fill<float>", written as poputil::templateVertex writes it).
struct ScannedVertexClass {
    /// One explicit instantiation: `name` is what the vertex is registered as (canonical:
    /// "unsigned int", "half"), `type` the C++ type as written, qualified ("ns::Fill<unsigned>").
    struct Instantiation {
        std::string name;
        std::string type;
    };
    std::string qualifiedName;
    std::vector<std::string> members;
    bool isTemplate = false;
    std::vector<Instantiation> instantiations;
    /// The class declares a default constructor and the source never defines it (the usual
    /// way to give a vertex `const` fields): the simulator must not construct it, as the IPU
    /// never constructs vertices.
    bool declaresUndefinedConstructor = false;
};

/// Scans C++ source (comments, literals and preprocessor lines are ignored) for vertex classes.
/// It understands the declarations codelets use (fields, state members, member functions, nested
/// types, namespaces); the C++ compiler remains the judge of everything else.
std::vector<ScannedVertexClass> scanVertexClasses(std::string_view source);

} // namespace tilescope::sim
