#include "ReportView.hpp"

#include "ReportSession.hpp"

namespace tilescope::gui {

ReportView::ReportView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : QWidget(parent), session_(std::move(session)) {}

void ReportView::markReady() {
    if (ready_)
        return;
    ready_ = true;
    emit ready();
}

} // namespace tilescope::gui
