#pragma once

#include "StructureTableModel.hpp"

namespace tilescope::gui {

/// The compare Operations table: every operation (PopLibs call, layer) of both reports matched by
/// name and debug path, with status (matched, added, removed: text and row colour) and Source /
/// Target / Diff / Diff % for estimated and executed cycles, code, variable bytes and FLOPs.
/// Rows: the source's operations in id order, then those only the target has.
class OperationCompareModel : public StructureTableModel {
    Q_OBJECT
public:
    enum ColumnIndex {
        Name,
        Layer,
        DebugPath,
        Status,
        Estimated = 4,
        Executed = 8,
        Code = 12,
        Variables = 16,
        Flops = 20
    };

    explicit OperationCompareModel(std::shared_ptr<CompareSession> session,
                                   QObject* parent = nullptr);
};

} // namespace tilescope::gui
