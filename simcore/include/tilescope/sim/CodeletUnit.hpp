#pragma once
// The translation unit a codelet source file is compiled as: the file's own text (under #line, so
// diagnostics name the user's file and lines) followed by generated code that registers each of
// its vertex classes and explicit template instantiations.

#include "tilescope/sim/CodeletSourceScanner.hpp"

#include <string>
#include <vector>

namespace tilescope::sim {

/// Replaces `target("supervisor")` inside attributes with `unused` padded to the same length, so
/// the host compiler accepts supervisor compute() functions; lines and columns are kept.
std::string rewriteSupervisorAttributes(std::string text);

/// Number of vertex types `classes` registers (classes plus template instantiations).
std::size_t registeredVertexCount(const std::vector<ScannedVertexClass>& classes);

/// The unit for `sourcePath` (absolute) with content `text`. It defines a hidden function
/// `void <registerFunction>(tilescope::sim::abi::CodeletSink&)` registering every vertex type;
/// private fields are reached through explicit instantiations, which skip access checks.
std::string generateCodeletUnit(const std::string& sourcePath, const std::string& text,
                                const std::vector<ScannedVertexClass>& classes,
                                const std::string& registerFunction);

/// The unit holding the library's entry point `tilescope_register_codelets`, which calls each
/// unit's register function, and `tilescope_codelet_object`, a string describing the build.
std::string generateEntryUnit(const std::vector<std::string>& registerFunctions,
                              const std::string& description);

} // namespace tilescope::sim
