#pragma once

#include "core/RailPane.hpp"

#include <QString>
#include <QStringList>
#include <memory>

namespace tilescope::gui {

class ReportSession;
class ReportView;

/// Everything shown for one open report: the navigation rail on the left and the views on the
/// right. Views are created the first time they are shown (so opening a report only pays for the
/// Summary) and then kept, with their models and the session's ViewState, while the user
/// switches between them.
class ReportPane : public RailPane {
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

protected:
    RailView* createView(const QString& name) override;
    void viewShown(const QString& name) override;

private:
    std::shared_ptr<ReportSession> session_;
};

} // namespace tilescope::gui
