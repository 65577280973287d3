#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <map>
#include <memory>

class QListWidget;
class QStackedWidget;

namespace tilescope::gui {

class ReportSession;
class ReportView;

/// Everything shown for one open report: the navigation rail on the left and the views on the
/// right. Views are created the first time they are shown (so opening a report only pays for the
/// Summary) and then kept, with their models and the session's ViewState, while the user
/// switches between them.
class ReportPane : public QWidget {
    Q_OBJECT
public:
    explicit ReportPane(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    /// Command-line names of the views, in rail order: summary, insights, memory, liveness,
    /// programs, execution, operations.
    static QStringList viewNames();
    /// Titles of the views for the rail and the View menu, in the same order.
    static QStringList viewTitles();
    /// Shows the named view (creating it if needed); nullptr for an unknown name.
    ReportView* showView(const QString& name);
    ReportView* currentView() const;
    std::shared_ptr<ReportSession> session() const { return session_; }

signals:
    void viewFailed(const QString& message);

private:
    ReportView* createView(const QString& name);

    std::shared_ptr<ReportSession> session_;
    QListWidget* rail_;
    QStackedWidget* stack_;
    std::map<QString, ReportView*> views_;
};

} // namespace tilescope::gui
