#pragma once

#include "core/WindowCapture.hpp"

namespace tilescope::gui {

class CompareWindow;

/// Drives `tilescope --compare A B --view NAME --screenshot out.png [--size WxH]`: opens the
/// comparison in a non-interactive CompareWindow of that size, shows the compare view and
/// captures it as a WindowCapture (exit 0, or 1 with a one-line reason).
class CompareScreenshotRunner : public WindowCapture {
    Q_OBJECT
public:
    CompareScreenshotRunner(CompareWindow& window, QString view, QString output, QSize size,
                            QObject* parent = nullptr);
    void start(const QString& source, const QString& target);

private:
    void onOpened();

    CompareWindow& window_;
    QString view_;
};

} // namespace tilescope::gui
