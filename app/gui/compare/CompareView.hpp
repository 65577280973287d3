#pragma once

#include "core/RailView.hpp"

#include <memory>

namespace tilescope::gui {

class CompareSession;

/// Base of the views on the compare pane's rail: a RailView over a CompareSession, the
/// counterpart of ReportView for two reports.
class CompareView : public RailView {
    Q_OBJECT
public:
    explicit CompareView(std::shared_ptr<CompareSession> session, QWidget* parent = nullptr)
        : RailView(parent), session_(std::move(session)) {}

    const CompareSession& session() const { return *session_; }

protected:
    std::shared_ptr<CompareSession> sharedSession() const { return session_; }

private:
    std::shared_ptr<CompareSession> session_;
};

} // namespace tilescope::gui
