#pragma once

#include "core/RailPane.hpp"

#include <QString>
#include <QStringList>
#include <memory>

namespace tilescope::gui {

class CompareSession;
class CompareView;

/// Everything shown for two compared reports: a navigation rail of compare views on the left and
/// the views on the right. As in ReportPane, a view is created the first time it is shown, so
/// opening a comparison only pays for the Summary.
class ComparePane : public RailPane {
    Q_OBJECT
public:
    explicit ComparePane(std::shared_ptr<CompareSession> session, QWidget* parent = nullptr);

    /// Command-line names of the compare views, in rail order: summary, memory, liveness,
    /// programs, operations, execution.
    static QStringList viewNames();
    /// Titles of the views for the rail and the View menu, in the same order.
    static QStringList viewTitles();
    /// Shows the named view (creating it if needed); nullptr for an unknown name.
    CompareView* showView(const QString& name);
    CompareView* currentView() const;
    std::shared_ptr<CompareSession> session() const { return session_; }

protected:
    RailView* createView(const QString& name) override;

private:
    std::shared_ptr<CompareSession> session_;
};

} // namespace tilescope::gui
