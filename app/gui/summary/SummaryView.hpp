#pragma once

#include "core/ReportView.hpp"

#include <vector>

namespace tilescope::gui {

class CollapsibleSection;
class SummaryModel;

/// The Summary view: an out-of-memory banner when the program did not fit, then sections for the
/// system (replicas, IPUs per replica, tiles), versions, memory capacity per tile, IPU and
/// replica, memory by category and by region (with and without gaps), instrumentation, always-live
/// versus peak not-always-live memory, cycles per run and the engine options in force. Every
/// table sorts; every section folds, and stays folded the next time (CollapsibleSection).
class SummaryView : public ReportView {
    Q_OBJECT
public:
    explicit SummaryView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    SummaryModel& model() const { return *model_; }
    /// The sections in page order (System, Memory by category, ...).
    const std::vector<CollapsibleSection*>& sections() const { return sections_; }

private:
    SummaryModel* model_;
    std::vector<CollapsibleSection*> sections_;
};

} // namespace tilescope::gui
