#pragma once

#include "ReportView.hpp"

class QComboBox;
class QLabel;

namespace tilescope::gui {

class ExecutionCanvas;
class ExecutionModel;

/// The Execution Trace view: a run selector and the run's totals (cycles, time at the target's
/// clock, share of compute, exchange, sync and stream copies) above the ExecutionCanvas. Clicking
/// a step makes it the selected program step (the Liveness view shows it).
class ExecutionView : public ReportView {
    Q_OBJECT
public:
    explicit ExecutionView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    ExecutionModel& model() const { return *model_; }
    ExecutionCanvas& canvas() const { return *canvas_; }

private:
    void showTotals();

    ExecutionModel* model_;
    ExecutionCanvas* canvas_;
    QComboBox* runs_;
    QLabel* totals_;
};

} // namespace tilescope::gui
