#include "ScreenshotRunner.hpp"

#include "MainWindow.hpp"
#include "ReportPane.hpp"
#include "core/ReportSession.hpp"
#include "core/ReportView.hpp"
#include "memory/MemoryView.hpp"
#include "memory/TileMemoryModel.hpp"

namespace tilescope::gui {
namespace {
constexpr int kTimeoutMs = 120000;
} // namespace

ScreenshotRunner::ScreenshotRunner(MainWindow& window, QString view, QString output, QSize size,
                                   QObject* parent)
    : WindowCapture(window, std::move(output), size, kTimeoutMs, parent), window_(window),
      view_(std::move(view)) {}

void ScreenshotRunner::start(const QString& report) {
    window_.setInteractive(false);
    connect(&window_, &MainWindow::openFailed, this, &ScreenshotRunner::fail);
    connect(&window_, &MainWindow::reportOpened, this, &ScreenshotRunner::onOpened);
    begin(tr("the %1 view").arg(view_));
    window_.openReport(report);
}

void ScreenshotRunner::onOpened() {
    if (tileOrder_ >= 0)
        window_.pane()->session()->state().tileOrder = tileOrder_;
    if (executionMode_ >= 0)
        window_.pane()->session()->state().executionMode = executionMode_;
    if (setup_)
        setup_(window_.pane()->session()->state());
    ReportView* view = window_.pane()->showView(view_);
    if (!view)
        return fail(tr("unknown view '%1'").arg(view_));
    captureWhenReady(view);
}

QString ScreenshotRunner::problemBeforeCapture() {
    // The view falls back to software order without a placement; a screenshot must not.
    if (auto* memory = qobject_cast<MemoryView*>(window_.pane()->currentView());
        memory && tileOrder_ >= 0 && int(memory->model().tileOrder()) != tileOrder_)
        return tr("cannot show the physical tile order. %1")
            .arg(memory->model().placementProblem());
    return {};
}

} // namespace tilescope::gui
