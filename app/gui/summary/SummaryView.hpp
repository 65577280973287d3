#pragma once

#include "core/ReportView.hpp"

namespace tilescope::gui {

class SummaryModel;

/// The Summary view: an out-of-memory banner when the program did not fit, then tables for the
/// target, memory by category and by region (with and without gaps), always-live versus peak
/// not-always-live memory, cycles per run and the engine options in force. Every table sorts.
class SummaryView : public ReportView {
    Q_OBJECT
public:
    explicit SummaryView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    SummaryModel& model() const { return *model_; }

private:
    SummaryModel* model_;
};

} // namespace tilescope::gui
