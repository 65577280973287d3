#pragma once
// Files some engine options ask for besides the report: the lowered-variable dump
// (debug.loweredVarDumpFile) and the graph archive (target.saveArchive). The SDK writes a Cap'n
// Proto variable list and an ar archive of tile ELF binaries; the simulator has no binaries, so
// it writes the same information it has, as JSON a user can open.

#include "tilescope/capture/ProfileRecords.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>

namespace tilescope::capture {

/// Writing one of the files failed; the message names the option and the file.
struct OutputFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The lowered variables as JSON: {"target": ..., "variables": [{"name", "elementType", "shape",
/// "category", "tile", "address", "size"}, ...]}, one entry per variable part on a tile, in tile
/// then address order.
std::string loweredVarsJson(const CompileRecords& records);
void writeLoweredVarDump(const std::filesystem::path& file, const CompileRecords& records);

/// An ar archive (`ar t` lists it, `ar x` extracts it) of JSON members: graph.json (target,
/// entry points, program tree, compute sets, vertex types, steps), memory.json (each tile's
/// bytes by memory category) and variables.json (loweredVarsJson).
void writeGraphArchive(const std::filesystem::path& file, const CompileRecords& records);

} // namespace tilescope::capture
