#pragma once

#include "ChartCanvas.hpp"

#include <initializer_list>

namespace tilescope::gui {

/// Makes the charts of one view zoom and pan together: a window change in any of them is shown
/// by the others (without echoing back, since an equal window is not re-applied).
inline void linkWindows(std::initializer_list<ChartCanvas*> canvases) {
    for (ChartCanvas* from : canvases)
        for (ChartCanvas* to : canvases)
            if (from != to)
                QObject::connect(
                    from, &ChartCanvas::windowChanged, to, [to](double begin, double end) {
                        if (to->viewport().begin() != begin || to->viewport().end() != end)
                            to->showWindow(begin, end);
                    });
}

} // namespace tilescope::gui
