#pragma once

#include <QString>
#include <QWidget>
#include <memory>

namespace tilescope::gui {

class CompareSession;

/// Base of the views on the compare pane's rail, the counterpart of ReportView for two reports:
/// a view shows one aspect of a CompareSession, is "ready" once its models hold what the first
/// paint needs (screenshots and tests wait for it) and reports failures through `failed`.
class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(std::shared_ptr<CompareSession> session, QWidget* parent = nullptr);

    bool isReady() const { return ready_; }
    const CompareSession& session() const { return *session_; }

signals:
    void ready();
    void failed(const QString& message);

protected:
    void markReady();
    std::shared_ptr<CompareSession> sharedSession() const { return session_; }

private:
    std::shared_ptr<CompareSession> session_;
    bool ready_ = false;
};

} // namespace tilescope::gui
