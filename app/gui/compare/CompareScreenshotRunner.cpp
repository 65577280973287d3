#include "CompareScreenshotRunner.hpp"

#include "ComparePane.hpp"
#include "CompareView.hpp"
#include "CompareWindow.hpp"

namespace tilescope::gui {
namespace {
constexpr int kTimeoutMs = 300000; // the structural views align 200k-step runs before their frame
} // namespace

CompareScreenshotRunner::CompareScreenshotRunner(CompareWindow& window, QString view,
                                                 QString output, QSize size, QObject* parent)
    : WindowCapture(window, std::move(output), size, kTimeoutMs, parent), window_(window),
      view_(std::move(view)) {}

void CompareScreenshotRunner::start(const QString& source, const QString& target) {
    window_.setInteractive(false);
    connect(&window_, &CompareWindow::openFailed, this, &CompareScreenshotRunner::fail);
    connect(&window_, &CompareWindow::comparisonOpened, this, &CompareScreenshotRunner::onOpened);
    begin(tr("the %1 compare view").arg(view_));
    window_.openComparison(source, target);
}

void CompareScreenshotRunner::onOpened() {
    CompareView* view = window_.pane()->showView(view_);
    if (!view)
        return fail(tr("unknown compare view '%1'").arg(view_));
    captureWhenReady(view);
}

} // namespace tilescope::gui
