#include "SystemScreenshotRunner.hpp"

#include "SystemAnalyserView.hpp"
#include "SystemAnalyserWindow.hpp"
#include "TraceCompareView.hpp"

namespace tilescope::gui {
namespace {
constexpr int kTimeoutMs = 120000;
constexpr int kPollMs = 50;
} // namespace

SystemScreenshotRunner::SystemScreenshotRunner(SystemAnalyserWindow& window, QString view,
                                               QString output, QSize size, QObject* parent)
    : WindowCapture(window, std::move(output), size, kTimeoutMs, parent), window_(window),
      view_(std::move(view)) {
    connect(&poll_, &QTimer::timeout, this, &SystemScreenshotRunner::poll);
    connect(this, &WindowCapture::finished, &poll_, &QTimer::stop);
}

void SystemScreenshotRunner::start(const QStringList& paths) {
    window_.setInteractive(false);
    connect(&window_, &SystemAnalyserWindow::openFailed, this, &SystemScreenshotRunner::fail);
    connect(&window_, &SystemAnalyserWindow::opened, this, [this] {
        if (!window_.view()->showView(view_))
            return fail(tr("unknown view '%1'").arg(view_));
        // Before the first frame, so no frame of the whole trace is mistaken for the result.
        if (range_)
            window_.view()->showRelativeRange(range_->first, range_->second);
        if (flameMode_)
            window_.view()->setFlameMode(*flameMode_);
        if (chartMode_)
            window_.view()->setChartMode(*chartMode_);
        poll_.start(kPollMs);
    });
    begin(tr("the %1 view").arg(view_));
    window_.openTraces(paths);
}

void SystemScreenshotRunner::startComparison(const QString& a, const QString& b) {
    window_.setInteractive(false);
    connect(&window_, &SystemAnalyserWindow::openFailed, this, &SystemScreenshotRunner::fail);
    connect(&window_, &SystemAnalyserWindow::opened, this, [this] { poll_.start(kPollMs); });
    begin(tr("the compare view"));
    window_.compareTraces(a, b);
}

void SystemScreenshotRunner::poll() {
    if ((window_.view() && window_.view()->isReady()) ||
        (window_.compareView() && window_.compareView()->isReady())) {
        poll_.stop();
        captureSoon();
    }
}

} // namespace tilescope::gui
