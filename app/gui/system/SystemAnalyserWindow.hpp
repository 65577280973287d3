#pragma once

#include "TimelineCanvas.hpp"
#include "TimelineModel.hpp"

#include <QMainWindow>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <cstdint>
#include <optional>
#include <utility>

namespace tilescope::gui {

class SystemAnalyserView;

/// The window of the system analyser: opens one or more host traces (*.pvti) together on one
/// time axis, on a worker thread, and shows them in a SystemAnalyserView. File › Open Traces…
/// replaces what is shown, Add Trace… adds a file to the same axis. Failures show one dialog with
/// the reader's message (only `openFailed` when not interactive).
class SystemAnalyserWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit SystemAnalyserWindow(QWidget* parent = nullptr);

    void openTraces(const QStringList& paths);
    void setInteractive(bool interactive) { interactive_ = interactive; }
    SystemAnalyserView* view() const { return view_; }
    const QStringList& paths() const { return paths_; }

signals:
    void opened();
    void openFailed(const QString& message);

private:
    SystemAnalyserView* view_ = nullptr;
    QStringList paths_;
    bool interactive_ = true;
};

/// Drives `tilescope --view timeline|calltree --screenshot OUT.png FILE.pvti...`: opens the
/// traces in a non-interactive window of the given size, shows the tab, waits until it is ready
/// (never a loading frame), grabs the window with its canvas and writes the PNG.
/// `finished(code, message)`: 0, or 1 with a one-line reason.
class SystemScreenshotRunner : public QObject {
    Q_OBJECT
public:
    SystemScreenshotRunner(SystemAnalyserWindow& window, QString view, QString output, QSize size,
                           QObject* parent = nullptr);
    void start(const QStringList& paths);
    /// The timeline window to capture, nanoseconds after the start of the traces.
    void setRange(std::pair<std::int64_t, std::int64_t> range) { range_ = range; }
    /// The timeline's flame and graph types, when the command line names them.
    void setFlameMode(TimelineModel::FlameMode mode) { flameMode_ = mode; }
    void setChartMode(TimelineCanvas::ChartMode mode) { chartMode_ = mode; }

signals:
    void finished(int exitCode, const QString& message);

private:
    void poll();
    void capture();
    void fail(const QString& message);

    SystemAnalyserWindow& window_;
    QString view_, output_;
    QSize size_;
    std::optional<std::pair<std::int64_t, std::int64_t>> range_;
    std::optional<TimelineModel::FlameMode> flameMode_;
    std::optional<TimelineCanvas::ChartMode> chartMode_;
    QTimer poll_;
    QTimer timeout_;
    bool done_ = false;
};

} // namespace tilescope::gui
