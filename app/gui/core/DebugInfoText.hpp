#pragma once
// Debug information of an operation (its DebugInfo values as JSON) turned into what the details
// pane and tooltips show: indented key/value rows and a one-line call summary.

#include "tilescope/report/ProfileTypes.hpp"

#include <string>
#include <vector>

namespace tilescope::gui {

/// One row of the details tree: `depth` 0 for the operation's own keys ("args", "output", a
/// user value), 1 for an argument, and so on. A tensor ({"name", "shape", "type"}) is one row
/// whose value reads "float [16, 300] · mlp/x".
struct DebugInfoRow {
    int depth = 0;
    std::string key;
    std::string value; ///< empty for a row with children
};

/// The rows of an operation's debug JSON in key order ("api" left out: it is the title).
/// Malformed JSON gives one row saying so, with the text as its value.
std::vector<DebugInfoRow> debugInfoRows(const std::string& json);

/// The call in one line: "matMul(A: float [16, 300], B: float [300, 128]) → float [16, 128]";
/// the operation's name alone when it recorded no arguments or outputs.
std::string debugInfoSummary(const report::OperationRecord& operation);

/// What the report records about `operation`, for the pane to say instead of leaving the reader
/// to guess: "name, debug path, layer, FLOPs, call values (matMul)". Without call values it says
/// why: a report written before format v5 (`formatVersion`) has none for any operation, a current
/// one has none for an operation created from a name only (a model layer, a DebugContext).
std::string debugInfoRecorded(const report::OperationRecord& operation, int formatVersion);
/// The tooltip of an operation: path, layer and the call summary.
std::string debugInfoTooltip(const report::OperationRecord& operation);

} // namespace tilescope::gui
