#pragma once

#include "core/ReportView.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace tilescope::gui {

class DebugInfoPane;

class LiveVariablesModel;
class LivenessStepDiffModel;
class LivenessCanvas;
class LivenessModel;

/// The Liveness view: the LivenessCanvas over program steps and, below it, the step picked on
/// the chart (kind, program, cycles, bytes) with a filterable, sortable table of the
/// not-always-live variables live at that step; a grouping selector (all tiles, per IPU, the
/// tiles selected in the Memory view) and an "Include always-live" switch; below the chart, tabs
/// with the step's not-always-live variables, the always-live variables and the vertices of its
/// compute set by type (cycle estimates in the step line); shift-click picks a second step and a
/// Compare tab lists the variables that became live or stopped being live between the two.
class LivenessView : public ReportView {
    Q_OBJECT
public:
    explicit LivenessView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    LivenessModel& model() const { return *model_; }
    LiveVariablesModel& variables() const { return *variables_; }
    LivenessCanvas& canvas() const { return *canvas_; }
    LivenessStepDiffModel& comparison() const { return *compare_; }
    /// Draws the always-live band under the chart (on) or starts the axis without it (off).
    void setIncludeAlwaysLive(bool include);
    /// Compares the selected step with `step`, as a shift-click on the chart would.
    void compareWith(std::int64_t step);
    /// Selects a step as a click on the chart would.
    void selectStep(std::int64_t step);

protected:
    /// Picks up a step selected elsewhere (the Program Tree) while this view was hidden.
    void showEvent(QShowEvent* event) override;

private:
    void showStepInfo();
    void showComparison();
    void applyGrouping(int index);

    LivenessModel* model_;
    LiveVariablesModel* variables_;
    LivenessCanvas* canvas_;
    QLabel* stepLabel_;
    QLineEdit* filter_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    DebugInfoPane* debugInfo_;
    LivenessStepDiffModel* compare_;
    QComboBox* grouping_;
    QCheckBox* includeAlwaysLive_;
    QLabel* compareLabel_;
};

} // namespace tilescope::gui
