#include "BenchmarkProbes.hpp"

#include "canvas/ImGuiCanvas.hpp"
#include "shell/MainWindow.hpp"
#include "shell/ReportPane.hpp"
#include "system/SystemAnalyserView.hpp"
#include "system/SystemAnalyserWindow.hpp"
#include "system/TimelineCanvas.hpp"
#include "system/TimelineModel.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace tilescope::gui {

double renderFrame(ImGuiCanvas& canvas) {
    const auto before = canvas.framesRendered();
    canvas.grabFramebuffer();
    if (canvas.framesRendered() != before + 1)
        throw std::runtime_error("the canvas did not render a frame");
    return canvas.lastFramePrepMs();
}

std::pair<double, double> residentMemoryMb() {
    QFile status(QStringLiteral("/proc/self/status"));
    double rss = 0, peak = 0;
    if (!status.open(QIODevice::ReadOnly))
        return {rss, peak};
    for (const QByteArray& line : status.readAll().split('\n')) {
        // "VmRSS:    123456 kB"
        const double mb = line.simplified().split(' ').value(1).toDouble() / 1024.0;
        if (line.startsWith("VmRSS:"))
            rss = mb;
        else if (line.startsWith("VmHWM:"))
            peak = mb;
    }
    return {rss, peak};
}

void waitUntil(const std::function<bool()>& done, const char* what, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            throw std::runtime_error(std::string("timed out waiting for ") + what);
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
}

void waitForOpen(const QSignalSpy& opened, const QSignalSpy& failed, const char* what) {
    waitUntil([&] { return !opened.isEmpty() || !failed.isEmpty(); }, what);
    if (!failed.isEmpty())
        throw std::runtime_error(failed.front().front().toString().toStdString());
}

double openReportToFirstPaint(MainWindow& window, const std::filesystem::path& report) {
    window.closeReport();
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);
    QElapsedTimer timer;
    timer.start();
    window.openReport(QString::fromStdString(report.string()));
    waitForOpen(opened, failed, "the report to open");
    window.pane()->showView(QStringLiteral("summary"));
    window.repaint(); // synchronous for widgets: returns once the Summary is painted
    return double(timer.nsecsElapsed()) / 1e6;
}

SystemAnalyserView& openTraceTimeline(SystemAnalyserWindow& window,
                                      const std::filesystem::path& trace) {
    QSignalSpy opened(&window, &SystemAnalyserWindow::opened);
    QSignalSpy failed(&window, &SystemAnalyserWindow::openFailed);
    window.openTraces({QString::fromStdString(trace.string())});
    waitForOpen(opened, failed, "the trace to open");
    SystemAnalyserView& view = *window.view();
    view.showView(QStringLiteral("timeline"));
    waitUntil([&] { return view.isReady(); }, "the first window");
    renderFrame(view.canvas()); // the frame that shows it
    return view;
}

TimelineSweep sweepTimelineZoom(SystemAnalyserView& view,
                                const std::function<void(double widthNs)>& fetched) {
    TimelineCanvas& canvas = view.canvas();
    TimelineModel& model = view.timelineModel();
    const double span = double(model.endNs() - model.beginNs());
    TimelineSweep sweep;
    for (double width = span; width >= 2000; width /= 8) {
        for (double at : {0.0, 0.5, 1.0}) {
            const auto from = model.beginNs() + std::int64_t((span - width) * at);
            canvas.showRange(from, from + std::int64_t(width));
            renderFrame(canvas); // asks for the window
            const auto f = canvas.visibleFromNs(), t = canvas.visibleToNs();
            waitUntil(
                [&] {
                    return model.isIdle() && model.window().fromNs == f &&
                           model.window().toNs == std::max(t, f + 1);
                },
                "a timeline window");
            const double queryMs = model.window().fetchMs;
            if (fetched)
                fetched(width);
            const double draw = renderFrame(canvas);
            sweep.worstDrawMs = std::max(sweep.worstDrawMs, draw);
            sweep.worstQueryMs = std::max(sweep.worstQueryMs, queryMs);
            sweep.worstFramePrepMs = std::max(sweep.worstFramePrepMs, queryMs + draw);
        }
    }
    return sweep;
}

} // namespace tilescope::gui
