#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <map>
#include <span>

class QListWidget;
class QStackedWidget;

namespace tilescope::gui {

class RailView;

/// A navigation rail of views on the left and the views on the right, shared by ReportPane (one
/// report) and ComparePane (two). Views are created the first time they are shown (so opening
/// only pays for the first view) and then kept, with their models, while the user switches
/// between them. Derived panes say which views exist (`createView`) and what showing one means
/// for their session (`viewShown`).
class RailPane : public QWidget {
    Q_OBJECT
public:
    /// A view of a rail: its command-line name and its rail title (source text for tr()).
    struct Entry {
        const char* name;
        const char* title;
    };
    /// The names of `entries`, in rail order.
    static QStringList entryNames(std::span<const Entry> entries);
    /// The titles of `entries` translated in the pane class `context` (as its tr() does).
    static QStringList entryTitles(std::span<const Entry> entries, const char* context);

    /// `names` are the views' command-line names, `titles` their rail entries, in rail order.
    RailPane(const QStringList& names, const QStringList& titles, QWidget* parent = nullptr);

    /// Shows the named view (creating it if needed); nullptr for an unknown name.
    RailView* showView(const QString& name);
    RailView* currentView() const;

signals:
    void viewFailed(const QString& message);

protected:
    /// A new view for `name`, or nullptr for a name the pane does not know.
    virtual RailView* createView(const QString& name) = 0;
    /// Called each time a view has been made current.
    virtual void viewShown(const QString& /*name*/) {}

private:
    QStringList names_;
    QListWidget* rail_;
    QStackedWidget* stack_;
    std::map<QString, RailView*> views_;
};

} // namespace tilescope::gui
