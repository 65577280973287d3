#pragma once
// What a codelet compile is asked for: the options of popc and of Graph::addCodelets' compile
// flags, parsed and checked once so both accept exactly the same set.

#include <string>
#include <vector>

namespace tilescope::sim {

/// Options of one codelet build. `includeDirs` are absolute (relative ones resolve against the
/// process's working directory when parsed, as the SDK does); `defines` are "NAME" or
/// "NAME=VALUE"; `targets` are IPU architecture names ("ipu1", "ipu2", "ipu21"), the first one
/// being what a source build defines `__IPU_ARCH_VERSION__` for.
struct CodeletBuildOptions {
    std::string optimisation = "-O2";
    bool debug = false;
    std::vector<std::string> includeDirs;
    std::vector<std::string> defines;
    std::vector<std::string> undefines;
    std::vector<std::string> warnings; // -Wall, -Werror, -Wno-..., -w: passed through
    std::vector<std::string> targets;

    /// The compiler arguments these options stand for (without sources and output).
    std::vector<std::string> compilerArguments(const std::string& target) const;
};

/// Parses compile flags such as "-O3 -I codelets -DN=4 -g" into `options`. Throws
/// poplar::graph_program_compilation_error naming the first flag that is not supported.
void parseCodeletCompileFlags(const std::string& flags, CodeletBuildOptions& options);

/// `__IPU_ARCH_VERSION__` of an architecture name: 1, 2 or 21; throws
/// poplar::graph_program_compilation_error for other names.
unsigned ipuArchVersion(const std::string& architecture);

/// "ipu1,ipu2" -> {"ipu1", "ipu2"}, each checked with ipuArchVersion.
std::vector<std::string> parseTargetList(const std::string& list);

} // namespace tilescope::sim
