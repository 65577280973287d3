#include "SweepScreenshotRunner.hpp"

#include "SweepWindow.hpp"

namespace tilescope::gui {
namespace {
constexpr int kTimeoutMs = 120000; // a sweep of thousands of variants reads every report
} // namespace

SweepScreenshotRunner::SweepScreenshotRunner(SweepWindow& window, QString output, QSize size,
                                             QObject* parent)
    : WindowCapture(window, std::move(output), size, kTimeoutMs, parent), window_(window) {}

void SweepScreenshotRunner::start(const QString& directory) {
    connect(&window_, &SweepWindow::openFailed, this, &SweepScreenshotRunner::fail);
    connect(&window_, &SweepWindow::sweepOpened, this, &SweepScreenshotRunner::captureSoon);
    begin(tr("the sweep view"));
    window_.openSweep(directory);
}

} // namespace tilescope::gui
