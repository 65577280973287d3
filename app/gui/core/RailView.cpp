#include "RailView.hpp"

namespace tilescope::gui {

void RailView::markReady() {
    if (ready_)
        return;
    ready_ = true;
    emit ready();
}

} // namespace tilescope::gui
