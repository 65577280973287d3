#include "BenchmarkProbes.hpp"

#include "canvas/ImGuiCanvas.hpp"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
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

} // namespace tilescope::gui
