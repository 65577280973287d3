#pragma once
// The TileScope executable format: a graph model, its programs and the options it was compiled
// with, in a versioned binary file another process can load and run (simcore/README.md,
// "Executable format"). poplar::Executable and Graph::serialize(Binary) write it.

#include "tilescope/sim/GraphModel.hpp"

#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::sim {

using OptionList = std::vector<std::pair<std::string, std::string>>;

/// First bytes of every executable file.
inline constexpr char kExecutableMagic[8] = {'\x89', 'T', 'S', 'E', 'X', 'E', 'C', '\n'};
/// Bumped whenever the layout changes; older or newer files are refused with a clear error.
/// 1: initial. 2: the target's device type, remote buffers, remote copies (buffer, offsets),
/// cycleCount/cycleStamp counters, and each vertex type's supervisor flag. 3: whether IPU code
/// was compiled (IPUModel::compileIPUCode), Block programs and the profiler options, and operation
/// values as JSON text (serialized poplar::ProfileValue), not raw strings. 4: the target's sync
/// model (IPUModel::minIPUSyncDelay, relativeSyncDelay). 5: the layout is unchanged, but
/// poplin::MatMulBlock reads B transposed (the convolution's input, K innermost) and poplin
/// products end in poplin::ReduceAdd vertices, so a version 4 file would compute wrong products.
inline constexpr std::uint32_t kExecutableFormatVersion = 5;

/// The reserved entry of the stored option list that carries a replicated graph (written only
/// when the graph has more than one replica, so other files are unchanged): "replicas=R;
/// broadcastStreams=i,j...;replicationIndexVariables=k,...". It is no engine option: a reader
/// that does not know it refuses the file as holding an unknown option rather than running one
/// replica. Cross-replica programs are a program kind older readers refuse by number.
inline constexpr const char* kReplicationOption = "tilescope.replication";

/// What an executable file holds once read back: a fresh model (vertex types loaded, operations
/// re-registered in this process), the programs, and the compile options.
struct SerializedGraph {
    std::shared_ptr<GraphModel> model;
    std::vector<ProgramNodePtr> programs;
    OptionList options;
};

/// Writes the model, programs and options. Runtime codelets are stored as the bytes of their
/// compiled shared object; built-in (PopLibs) vertex types by name; registered perf estimators
/// are evaluated now and stored as per-vertex estimates. Throws poplar::poplar_error when a
/// codelet library can no longer be read.
void writeSerializedGraph(std::ostream& out, const GraphModel& model,
                          const std::vector<ProgramNodePtr>& programs, const OptionList& options);

/// Reads a file written by writeSerializedGraph. `what` prefixes error messages. Truncated,
/// corrupt or foreign input throws poplar::poplar_error saying what is wrong.
SerializedGraph readSerializedGraph(std::istream& in, const std::string& what);

} // namespace tilescope::sim
