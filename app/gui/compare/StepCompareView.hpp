#pragma once

#include "CompareView.hpp"

class QLabel;
class QTableView;

namespace tilescope::gui {

class CompareSeriesCanvas;
class StepCompareModel;

/// The compare Liveness and Execution Trace views. Liveness: not-always-live bytes per program
/// step of both reports overlaid on steps aligned by identity, with the difference below.
/// Execution: the first run of each report one above the other (source on top), executed steps
/// aligned by program identity, the target's steps red where slower and green where faster,
/// the per-step cycle difference below, and the largest regressions listed first. The alignment
/// runs on a worker (seconds on 200,000-step runs) behind a busy bar; ready once it is drawn.
class StepCompareView : public CompareView {
    Q_OBJECT
public:
    StepCompareView(std::shared_ptr<CompareSession> session, bool execution,
                    QWidget* parent = nullptr);

    StepCompareModel& model() const { return *model_; }
    CompareSeriesCanvas& steps() const { return *steps_; }
    CompareSeriesCanvas& difference() const { return *difference_; }

private:
    StepCompareModel* model_;
    CompareSeriesCanvas* steps_;
    CompareSeriesCanvas* difference_;
    QLabel* caption_;
};

} // namespace tilescope::gui
