#pragma once

#include "HorizontalViewport.hpp"

class QWheelEvent;

namespace tilescope::gui {

/// Wheel and keyboard navigation of a horizontal chart, one behaviour for every canvas (the
/// report views' ChartCanvas and the system analyser's timeline): the wheel zooms by 0.8 a notch
/// around the point under the cursor; W/Up and S/Down zoom by 0.8 and 1.25 around the centre;
/// A/Left and D/Right pan a tenth of the visible span; Home or 0 shows the whole domain.
namespace navigation {

constexpr double kZoomStep = 0.8; ///< span factor per wheel notch or zoom key
constexpr double kPanStep = 0.1;  ///< fraction of the visible span per pan key

/// Zooms for a wheel event over a plot `plotWidth` pixels wide starting at x = `plotLeft`.
/// False (nothing changed) when the event has no vertical notches or the plot no width.
bool wheel(HorizontalViewport& viewport, const QWheelEvent& event, double plotLeft,
           double plotWidth);

/// Applies a navigation key (Qt::Key); false for any other key.
bool key(HorizontalViewport& viewport, int key);

} // namespace navigation
} // namespace tilescope::gui
