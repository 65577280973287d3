#pragma once

#include "core/WindowCapture.hpp"

#include <functional>

namespace tilescope::gui {

class MainWindow;
struct ViewState;

/// Drives `tilescope --view NAME --screenshot out.png [--size WxH] [--tile-order ORDER] FILE`:
/// opens the report in a non-interactive MainWindow of the requested size, shows the view and
/// captures it as a WindowCapture (ready, grabbed with its canvases, PNG written; exit 1 with a
/// one-line reason when the file cannot be opened or read, the view fails, time runs out or the
/// image cannot be written).
class ScreenshotRunner : public WindowCapture {
    Q_OBJECT
public:
    ScreenshotRunner(MainWindow& window, QString view, QString output, QSize size,
                     QObject* parent = nullptr);

    /// The Memory view's tile order (TileMemoryModel::TileOrder); asking for physical order of a
    /// report that records no tile placement fails with the reason.
    void setTileOrder(int order) { tileOrder_ = order; }

    /// The Execution Trace's mode (ExecutionModel::Mode).
    void setExecutionMode(int mode) { executionMode_ = mode; }

    /// Further view settings from the command line, applied to the report's ViewState before the
    /// view is created (as they would be restored).
    void setViewStateSetup(std::function<void(ViewState&)> setup) { setup_ = std::move(setup); }

    void start(const QString& report);

protected:
    QString problemBeforeCapture() override;

private:
    void onOpened();

    MainWindow& window_;
    QString view_;
    int tileOrder_ = -1; // -1: as the view state has it
    int executionMode_ = -1;
    std::function<void(ViewState&)> setup_;
};

} // namespace tilescope::gui
