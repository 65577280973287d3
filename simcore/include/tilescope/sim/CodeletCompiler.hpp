#pragma once
// Compiles a codelet source file with the host C++ compiler and loads its vertex types.

#include "tilescope/sim/VertexType.hpp"

#include <string>
#include <vector>

namespace tilescope::sim {

/// Turns an unchanged Poplar codelet file into loaded vertex types. The file is scanned for vertex
/// classes, compiled together with a generated registration unit into a shared object cached by
/// the hash of everything that affects the result, and loaded with dlopen.
///
/// Environment: TILESCOPE_CODELET_CXX picks the compiler (default `c++`);
/// TILESCOPE_CODELET_CACHE the cache directory (default $XDG_CACHE_HOME/tilescope/codelets or
/// ~/.cache/tilescope/codelets); TILESCOPE_POPLAR_INCLUDE_DIR overrides where poplar/Vertex.hpp is
/// looked up (otherwise next to the installed library, then the source tree it was built from).
class CodeletCompiler {
public:
    /// Compiles (or reuses) and loads `path`. Throws poplar::graph_program_compilation_error with
    /// the compiler's output when compilation fails, poplar::poplar_error for unreadable files or a
    /// file without vertex classes.
    static std::vector<VertexType> load(const std::string& path,
                                        const std::string& extraFlags = {});

    /// Loads an already compiled codelet library (made by load()) and returns its vertex types,
    /// recording `sourcePath` as where they came from. Throws poplar::poplar_error when the file
    /// cannot be loaded or is not a codelet library.
    static std::vector<VertexType> loadLibrary(const std::string& libraryPath,
                                               const std::string& sourcePath);

    /// The include directory codelets are compiled against.
    static std::string includeDirectory();
    static std::string cacheDirectory();
};

} // namespace tilescope::sim
