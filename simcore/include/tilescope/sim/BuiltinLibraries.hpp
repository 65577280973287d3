#pragma once
// The PopLibs libraries loaded in the process, by name, with the function that adds their
// built-in vertex types to a graph. A deserialised executable refers to built-in vertex types by
// name only; this is how it finds them again in another process.

#include <string>
#include <vector>

namespace poplar {
class Graph;
}

namespace tilescope::sim {

using AddCodeletsFunction = void (*)(poplar::Graph& graph);

/// Called by each PopLibs library while it loads (a static registrar next to its addCodelets).
/// Registering the same name twice keeps the first.
void registerBuiltinLibrary(const char* name, AddCodeletsFunction addCodelets);

/// Adds the vertex types of every registered library to `graph`; when `names` are not all found,
/// first loads the PopLibs libraries not yet in the process (from libpoplar's directory, then
/// the library search path). Returns the names still missing.
std::vector<std::string> addBuiltinVertexTypes(poplar::Graph& graph,
                                               const std::vector<std::string>& names);

} // namespace tilescope::sim

/// Registers a PopLibs library's addCodelets at load time (one use per library, at namespace
/// scope in the file defining addCodelets).
#define TILESCOPE_REGISTER_BUILTIN_LIBRARY(name, function)                                         \
    namespace {                                                                                    \
    [[maybe_unused]] const bool tilescopeBuiltinLibraryRegistered =                                \
        (::tilescope::sim::registerBuiltinLibrary(name, function), true);                          \
    }
