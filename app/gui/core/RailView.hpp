#pragma once

#include <QString>
#include <QWidget>

namespace tilescope::gui {

/// Base of every view on a navigation rail (ReportView for one report, CompareView for two). A
/// view shows one aspect of its session through its models; it is "ready" once those models have
/// loaded what the first paint needs (used by the screenshot mode and by tests, which must not
/// capture a "Loading…" frame), and it reports loading failures through `failed` so the window
/// can show them.
class RailView : public QWidget {
    Q_OBJECT
public:
    explicit RailView(QWidget* parent = nullptr) : QWidget(parent) {}

    bool isReady() const { return ready_; }

signals:
    void ready();
    void failed(const QString& message);

protected:
    /// Marks the view ready (once) and emits `ready`.
    void markReady();

private:
    bool ready_ = false;
};

} // namespace tilescope::gui
