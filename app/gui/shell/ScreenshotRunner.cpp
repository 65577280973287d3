#include "ScreenshotRunner.hpp"

#include "MainWindow.hpp"
#include "ReportPane.hpp"
#include "core/ReportSession.hpp"
#include "core/ReportView.hpp"
#include "memory/MemoryView.hpp"
#include "memory/TileMemoryModel.hpp"

#include <QApplication>
#include <QImage>
#include <QImageWriter>
#include <QPixmap>

namespace tilescope::gui {
namespace {
constexpr int kTimeoutMs = 120000;
constexpr int kSettleMs = 100; // lets the last queued paints (canvas frames) run before grabbing
} // namespace

ScreenshotRunner::ScreenshotRunner(MainWindow& window, QString view, QString output, QSize size,
                                   QObject* parent)
    : QObject(parent), window_(window), view_(std::move(view)), output_(std::move(output)),
      size_(size) {
    timeout_.setSingleShot(true);
    connect(&timeout_, &QTimer::timeout, this, [this] {
        fail(tr("timed out after %1 s waiting for the %2 view").arg(kTimeoutMs / 1000).arg(view_));
    });
}

void ScreenshotRunner::start(const QString& report) {
    window_.setInteractive(false);
    window_.resize(size_);
    window_.show();
    connect(&window_, &MainWindow::openFailed, this, &ScreenshotRunner::fail);
    connect(&window_, &MainWindow::reportOpened, this, &ScreenshotRunner::onOpened);
    timeout_.start(kTimeoutMs);
    window_.openReport(report);
}

void ScreenshotRunner::onOpened() {
    if (tileOrder_ >= 0)
        window_.pane()->session()->state().tileOrder = tileOrder_;
    if (executionMode_ >= 0)
        window_.pane()->session()->state().executionMode = executionMode_;
    ReportView* view = window_.pane()->showView(view_);
    if (!view)
        return fail(tr("unknown view '%1'").arg(view_));
    connect(view, &ReportView::failed, this, &ScreenshotRunner::fail);
    if (view->isReady())
        QTimer::singleShot(kSettleMs, this, &ScreenshotRunner::capture);
    else
        connect(view, &ReportView::ready, this,
                [this] { QTimer::singleShot(kSettleMs, this, &ScreenshotRunner::capture); });
}

void ScreenshotRunner::capture() {
    if (done_)
        return;
    // The view falls back to software order without a placement; a screenshot must not.
    if (auto* memory = qobject_cast<MemoryView*>(window_.pane()->currentView());
        memory && tileOrder_ >= 0 && int(memory->model().tileOrder()) != tileOrder_)
        return fail(
            tr("cannot show the physical tile order. %1").arg(memory->model().placementProblem()));
    // grab() renders child QOpenGLWidgets from their framebuffers, so canvases are included.
    const QImage image = window_.grab().toImage();
    const QSize expected = size_ * window_.devicePixelRatio();
    if (image.size() != expected)
        return fail(tr("the window could not be sized to %1x%2 (got %3x%4)")
                        .arg(size_.width())
                        .arg(size_.height())
                        .arg(image.width() / window_.devicePixelRatio())
                        .arg(image.height() / window_.devicePixelRatio()));
    QImageWriter writer(output_, "png");
    if (!writer.write(image))
        return fail(tr("cannot write %1: %2").arg(output_, writer.errorString()));
    done_ = true;
    timeout_.stop();
    emit finished(0, {});
}

void ScreenshotRunner::fail(const QString& message) {
    if (done_)
        return;
    done_ = true;
    timeout_.stop();
    emit finished(1, message.simplified());
}

} // namespace tilescope::gui
