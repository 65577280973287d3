#pragma once
// Compiles codelet source files with the host C++ compiler and loads their vertex types.

#include "tilescope/sim/CodeletBuildOptions.hpp"
#include "tilescope/sim/VertexType.hpp"

#include <string>
#include <vector>

namespace tilescope::sim {

/// What a file given to addCodelets is: decided by its content and extension (Auto), or by the
/// caller's poplar::CodeletFileType.
enum class CodeletFileKind { Auto, Source, Object };

/// Turns unchanged Poplar codelet files into loaded vertex types. A source file is scanned for
/// vertex classes, compiled together with a generated registration unit into a shared object
/// cached by the hash of everything that affects the result, and loaded with dlopen. Codelets
/// see `__POPC__`, `__IPU__` and `__IPU_ARCH_VERSION__` (1, 2 or 21 for the graph's target) and
/// the codelet-side headers (print.h, ipudef.h, ipu_intrinsics, ipu_vector_math). An object
/// file (OUT.gp, written by popc through buildObject) holds libraries built ahead of time.
///
/// Environment: TILESCOPE_CODELET_CXX picks the compiler (default `c++`);
/// TILESCOPE_CODELET_CACHE the cache directory (default $XDG_CACHE_HOME/tilescope/codelets or
/// ~/.cache/tilescope/codelets); TILESCOPE_POPLAR_INCLUDE_DIR overrides where poplar/Vertex.hpp is
/// looked up (otherwise next to the installed library, then the source tree it was built from).
class CodeletCompiler {
public:
    /// Compiles (or reuses) and loads `path` for an IPU of `architecture` ("ipu2"), with compile
    /// flags as Graph::addCodelets takes them ("-O3 -I dir -DN=4"). Throws
    /// poplar::graph_program_compilation_error with the compiler's output when compilation fails
    /// or a flag is not supported, poplar::poplar_error for unreadable files or a file without
    /// vertex classes.
    static std::vector<VertexType> load(const std::string& path, CodeletFileKind kind,
                                        const std::string& flags, const std::string& architecture);
    static std::vector<VertexType> load(const std::string& path,
                                        const std::string& extraFlags = {}) {
        return load(path, CodeletFileKind::Auto, extraFlags, "ipu2");
    }

    /// Builds `sources` ahead of time into a codelet object file at `output`, one library per
    /// target in `options.targets` (default ipu2). Returns the compiler's messages (warnings);
    /// throws poplar::graph_program_compilation_error with them when a compile fails.
    static std::string buildObject(const std::vector<std::string>& sources,
                                   const CodeletBuildOptions& options, const std::string& output);

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
