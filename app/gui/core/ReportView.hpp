#pragma once

#include <QString>
#include <QWidget>
#include <memory>

namespace tilescope::gui {

class ReportSession;

/// Base of the views on the navigation rail. A view shows one aspect of an open report through
/// its models; it is "ready" once those models have loaded what the first paint needs (used by
/// the screenshot mode and by tests, which must not capture a "Loading…" frame), and it reports
/// loading failures through `failed` so the window can show them.
class ReportView : public QWidget {
    Q_OBJECT
public:
    ReportView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    bool isReady() const { return ready_; }
    ReportSession& session() const { return *session_; }

signals:
    void ready();
    void failed(const QString& message);

protected:
    /// Marks the view ready (once) and emits `ready`.
    void markReady();
    std::shared_ptr<ReportSession> sharedSession() const { return session_; }

private:
    std::shared_ptr<ReportSession> session_;
    bool ready_ = false;
};

} // namespace tilescope::gui
