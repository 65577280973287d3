#pragma once

#include "core/WindowCapture.hpp"

namespace tilescope::gui {

class SweepWindow;

/// Drives `tilescope --sweep DIR --screenshot out.png [--size WxH]`: opens the sweep in a window
/// of that size and captures it once the table and scatter are drawn (exit 0, or 1 with the
/// reason, such as a folder that is not a sweep).
class SweepScreenshotRunner : public WindowCapture {
    Q_OBJECT
public:
    SweepScreenshotRunner(SweepWindow& window, QString output, QSize size,
                          QObject* parent = nullptr);
    void start(const QString& directory);

private:
    SweepWindow& window_;
};

} // namespace tilescope::gui
