#include "WindowCapture.hpp"

#include "RailView.hpp"

#include <QImage>
#include <QImageWriter>
#include <QPixmap>
#include <QWidget>

namespace tilescope::gui {
namespace {
constexpr int kSettleMs = 100; // lets the last queued paints (canvas frames) run before grabbing
} // namespace

WindowCapture::WindowCapture(QWidget& window, QString output, QSize size, int timeoutMs,
                             QObject* parent)
    : QObject(parent), window_(window), output_(std::move(output)), size_(size),
      timeoutMs_(timeoutMs) {
    timeout_.setSingleShot(true);
}

void WindowCapture::begin(const QString& waitingFor) {
    window_.resize(size_);
    window_.show();
    connect(&timeout_, &QTimer::timeout, this, [this, waitingFor] {
        fail(tr("timed out after %1 s waiting for %2").arg(timeoutMs_ / 1000).arg(waitingFor));
    });
    timeout_.start(timeoutMs_);
}

void WindowCapture::captureWhenReady(RailView* view) {
    connect(view, &RailView::failed, this, &WindowCapture::fail);
    if (view->isReady())
        captureSoon();
    else
        connect(view, &RailView::ready, this, &WindowCapture::captureSoon);
}

void WindowCapture::captureSoon() {
    QTimer::singleShot(kSettleMs, this, &WindowCapture::capture);
}

void WindowCapture::capture() {
    if (done_)
        return;
    if (const QString problem = problemBeforeCapture(); !problem.isEmpty())
        return fail(problem);
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

void WindowCapture::fail(const QString& message) {
    if (done_)
        return;
    done_ = true;
    timeout_.stop();
    emit finished(1, message.simplified());
}

} // namespace tilescope::gui
