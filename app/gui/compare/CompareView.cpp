#include "CompareView.hpp"

namespace tilescope::gui {

CompareView::CompareView(std::shared_ptr<CompareSession> session, QWidget* parent)
    : QWidget(parent), session_(std::move(session)) {}

void CompareView::markReady() {
    if (ready_)
        return;
    ready_ = true;
    emit ready();
}

} // namespace tilescope::gui
