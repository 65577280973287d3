#pragma once

#include <QObject>
#include <QSize>
#include <QString>
#include <QTimer>

namespace tilescope::gui {

class MainWindow;
class ReportView;

/// Drives `tilescope --view NAME --screenshot out.png [--size WxH] [--tile-order ORDER] FILE`:
/// opens the report in a
/// non-interactive MainWindow of the requested size, shows the view, waits until the view says
/// its models are ready (never a "Loading…" frame), grabs the window, canvases included, and
/// writes the PNG. `finished(exitCode, message)` reports the outcome: 0, or 1 with a one-line
/// reason (file cannot be opened or read, view failed, timeout, cannot write the image).
class ScreenshotRunner : public QObject {
    Q_OBJECT
public:
    ScreenshotRunner(MainWindow& window, QString view, QString output, QSize size,
                     QObject* parent = nullptr);

    /// The Memory view's tile order (TileMemoryModel::TileOrder); asking for physical order of a
    /// report that records no tile placement fails with the reason.
    void setTileOrder(int order) { tileOrder_ = order; }

    /// The Execution Trace's mode (ExecutionModel::Mode).
    void setExecutionMode(int mode) { executionMode_ = mode; }

    void start(const QString& report);

signals:
    void finished(int exitCode, const QString& message);

private:
    void onOpened();
    void capture();
    void fail(const QString& message);

    MainWindow& window_;
    QString view_;
    QString output_;
    QSize size_;
    QTimer timeout_;
    bool done_ = false;
    int tileOrder_ = -1; // -1: as the view state has it
    int executionMode_ = -1;
};

} // namespace tilescope::gui
