#include "ViewportNavigation.hpp"

#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace tilescope::gui::navigation {

bool wheel(HorizontalViewport& viewport, const QWheelEvent& event, double plotLeft,
           double plotWidth) {
    const double notches = event.angleDelta().y() / 120.0;
    if (notches == 0 || plotWidth <= 0)
        return false;
    const double x = std::clamp(event.position().x() - plotLeft, 0.0, plotWidth);
    viewport.zoom(std::pow(kZoomStep, notches), viewport.toDomain(x, plotWidth));
    return true;
}

bool key(HorizontalViewport& viewport, int key) {
    const double centre = viewport.begin() + viewport.span() / 2;
    switch (key) {
    case Qt::Key_W:
    case Qt::Key_Up:
        viewport.zoom(kZoomStep, centre);
        return true;
    case Qt::Key_S:
    case Qt::Key_Down:
        viewport.zoom(1 / kZoomStep, centre);
        return true;
    case Qt::Key_A:
    case Qt::Key_Left:
        viewport.pan(-kPanStep);
        return true;
    case Qt::Key_D:
    case Qt::Key_Right:
        viewport.pan(kPanStep);
        return true;
    case Qt::Key_Home:
    case Qt::Key_0:
        viewport.reset();
        return true;
    default:
        return false;
    }
}

} // namespace tilescope::gui::navigation
