#pragma once

#include "StructureTableModel.hpp"

namespace tilescope::gui {

/// The compare Program Tree table: every program of both reports, matched by name path and debug
/// path (rows in the source tree's pre-order, indented by depth, then the programs only the
/// target has), with status (matched, added, removed: text and row colour) and Source / Target /
/// Diff / Diff % for code bytes, estimated cycles and executed cycles of the first run.
class ProgramCompareModel : public StructureTableModel {
    Q_OBJECT
public:
    enum ColumnIndex { Path, Kind, DebugPath, Status, Code = 4, Estimated = 8, Executed = 12 };

    explicit ProgramCompareModel(std::shared_ptr<CompareSession> session,
                                 QObject* parent = nullptr);
};

} // namespace tilescope::gui
