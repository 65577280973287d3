#pragma once

#include "TimelineCanvas.hpp"
#include "TimelineModel.hpp"
#include "core/RecentEntries.hpp"

#include <QMainWindow>
#include <QMenu>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <cstdint>
#include <optional>
#include <utility>

namespace tilescope::gui {

class SystemAnalyserView;
class TraceCompareView;

/// The window of the system analyser: opens one or more host traces (*.pvti) together on one
/// time axis, on a worker thread, and shows them in a SystemAnalyserView. File › Open Traces…
/// replaces what is shown, Add Trace… adds a file to the same axis, Open Recent lists the trace
/// sets and trace comparisons of the app's shared recent list (core/RecentEntries; interactive
/// windows add theirs), Compare Traces… shows two traces in the Compare view (TraceCompareView),
/// Reload (F5 or Ctrl+R) opens the same files again, as a GA window reloads its report. Failures
/// show one dialog with the reader's message (only `openFailed` when not interactive).
class SystemAnalyserWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit SystemAnalyserWindow(QWidget* parent = nullptr);

    void openTraces(const QStringList& paths);
    /// Opens two host traces side by side in the Compare view: A the baseline, B the other.
    void compareTraces(const QString& a, const QString& b);
    /// Opens the files shown again (a trace still being written shows what it holds now).
    void reload();
    void setInteractive(bool interactive) { interactive_ = interactive; }
    SystemAnalyserView* view() const { return view_; }
    /// The Compare view when two traces are compared (view() is then null), else null.
    TraceCompareView* compareView() const { return compareView_; }
    const QStringList& paths() const { return paths_; }

signals:
    void opened();
    void openFailed(const QString& message);

private:
    void refreshRecent();

    /// Shows `widget` as the window's content (deleting the previous one), titled `title`.
    void showContent(QWidget* widget, const QString& title);
    /// Reports a trace that could not be opened or read: a message box when interactive, and
    /// openFailed() always (a screenshot run exits on it).
    void fail(const QString& title, const QString& message);
    /// Adds `entry` to the shared recent list when interactive.
    void remember(RecentEntry::Kind kind, const QStringList& paths);

    SystemAnalyserView* view_ = nullptr;
    TraceCompareView* compareView_ = nullptr;
    QStringList compared_; ///< A and B while the Compare view is shown
    QMenu* recentMenu_ = nullptr;
    QAction* reloadAction_ = nullptr;
    QStringList paths_;
    bool interactive_ = true;
};

} // namespace tilescope::gui
