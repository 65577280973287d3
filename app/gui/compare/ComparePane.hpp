#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <map>
#include <memory>

class QListWidget;
class QStackedWidget;

namespace tilescope::gui {

class CompareSession;
class CompareView;

/// Everything shown for two compared reports: a navigation rail of compare views on the left and
/// the views on the right. As in ReportPane, a view is created the first time it is shown, so
/// opening a comparison only pays for the Summary.
class ComparePane : public QWidget {
    Q_OBJECT
public:
    explicit ComparePane(std::shared_ptr<CompareSession> session, QWidget* parent = nullptr);

    /// Command-line names of the compare views, in rail order: summary, memory, liveness,
    /// programs, operations, execution.
    static QStringList viewNames();
    static QStringList viewTitles();
    /// Shows the named view (creating it if needed); nullptr for an unknown name.
    CompareView* showView(const QString& name);
    CompareView* currentView() const;
    std::shared_ptr<CompareSession> session() const { return session_; }

signals:
    void viewFailed(const QString& message);

private:
    CompareView* createView(const QString& name);

    std::shared_ptr<CompareSession> session_;
    QListWidget* rail_;
    QStackedWidget* stack_;
    std::map<QString, CompareView*> views_;
};

} // namespace tilescope::gui
