#pragma once

#include "ReportView.hpp"

class QComboBox;
class QLabel;
class QSpinBox;

namespace tilescope::gui {

class ExecutionCanvas;
class ExecutionModel;

/// The Execution Trace view: a run selector, the chart's mode (flat phase shares, flame by
/// program, BSP per-tile bands with their tile range) and the run's summary (cycles, time at the
/// target's clock, parallel efficiency, share of each phase, tile balance, stream-copy bytes)
/// above the ExecutionCanvas. Clicking a step makes it the selected program step (the Liveness
/// view shows it).
class ExecutionView : public ReportView {
    Q_OBJECT
public:
    explicit ExecutionView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    ExecutionModel& model() const { return *model_; }
    ExecutionCanvas& canvas() const { return *canvas_; }
    /// The summary line as shown (for tests and screenshots).
    QString summaryText() const;

private:
    void showTotals();

    ExecutionModel* model_;
    ExecutionCanvas* canvas_;
    QComboBox* runs_;
    QComboBox* mode_;
    QSpinBox* firstTile_;
    QSpinBox* tileCount_;
    QLabel* totals_;
};

} // namespace tilescope::gui
