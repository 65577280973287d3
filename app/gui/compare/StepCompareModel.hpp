#pragma once

#include "StructureTableModel.hpp"

namespace tilescope::gui {

/// Two step sequences aligned by step identity (program path, compute set, step kind): the
/// lowered steps' not-always-live bytes (Liveness) or the executed steps' cycles of the first run
/// of each report (Execution). Holds the aligned series for the canvases (a step only one side
/// has is missing on the other) and, as table rows, the `kRows` largest increases first (rank,
/// step identity, status, positions, Source / Target / Diff / Diff %).
class StepCompareModel : public StructureTableModel {
    Q_OBJECT
public:
    enum class Kind { Liveness, Execution };
    enum ColumnIndex { Rank, Step, Status, SourcePosition, TargetPosition, Value = 5 };
    static constexpr std::size_t kRows = 1000;

    StepCompareModel(std::shared_ptr<CompareSession> session, Kind kind, QObject* parent = nullptr);
    Kind kind() const { return kind_; }

private:
    Kind kind_;
};

} // namespace tilescope::gui
