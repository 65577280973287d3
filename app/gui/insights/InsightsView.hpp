#pragma once

#include "core/ReportView.hpp"

namespace tilescope::gui {

class InsightsModel;

/// The Insights view: whether the program fits and how full the machine is, the histogram of
/// memory per tile, and tables of the fullest tiles, the vertex types with the most state, the
/// largest always-live variables and the largest exchanges.
class InsightsView : public ReportView {
    Q_OBJECT
public:
    explicit InsightsView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    InsightsModel& model() const { return *model_; }

private:
    InsightsModel* model_;
};

} // namespace tilescope::gui
