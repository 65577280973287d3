#pragma once

#include <QObject>
#include <QSize>
#include <QString>
#include <QTimer>

class QWidget;

namespace tilescope::gui {

class RailView;

/// What the three screenshot runners (one report, compare, system analyser) share: show a window
/// at the requested size, wait for its view to be ready (never a "Loading…" frame) under a
/// timeout, let the last queued paints run, grab the window with its QOpenGLWidget canvases and
/// write the PNG, failing once with a one-line reason. `finished(exitCode, message)` reports the
/// outcome: 0, or 1 with the reason. Each runner opens its own window and says when to capture.
class WindowCapture : public QObject {
    Q_OBJECT
public:
    WindowCapture(QWidget& window, QString output, QSize size, int timeoutMs,
                  QObject* parent = nullptr);

signals:
    void finished(int exitCode, const QString& message);

protected:
    /// Resizes and shows the window and starts the timeout, whose failure names `waitingFor`
    /// ("the memory view").
    void begin(const QString& waitingFor);
    /// Captures once `view` is ready; its failure is the runner's.
    void captureWhenReady(RailView* view);
    /// Captures after the settle delay (for windows that report readiness by polling).
    void captureSoon();
    /// A reason not to write the image after all (checked just before grabbing), or empty.
    virtual QString problemBeforeCapture() { return {}; }
    void fail(const QString& message);
    bool isDone() const { return done_; }

private:
    void capture();

    QWidget& window_;
    QString output_;
    QSize size_;
    int timeoutMs_;
    QTimer timeout_;
    bool done_ = false;
};

} // namespace tilescope::gui
