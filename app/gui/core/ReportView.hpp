#pragma once

#include "RailView.hpp"

#include <memory>

namespace tilescope::gui {

class ReportSession;

/// Base of the views on a report's navigation rail (ReportPane): a RailView over one open report.
class ReportView : public RailView {
    Q_OBJECT
public:
    explicit ReportView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr)
        : RailView(parent), session_(std::move(session)) {}

    ReportSession& session() const { return *session_; }

protected:
    std::shared_ptr<ReportSession> sharedSession() const { return session_; }

private:
    std::shared_ptr<ReportSession> session_;
};

} // namespace tilescope::gui
