#pragma once

#include "core/LoadingStatus.hpp"

#include <QMainWindow>
#include <QString>
#include <memory>

class QLabel;
class QListWidget;
class QMenu;
class QStackedWidget;

namespace tilescope::gui {

class ReadFailureBar;
class RemoteOpenDialog;
class ReportLoader;
class ReportPane;
class ReportSession;
struct RecentEntry;

/// The application window: File menu (Open, Open Remote, Compare Two Reports (a CompareWindow),
/// Open Recent, Reload (F5 or Ctrl+R), Close, New Window, Quit; Help › Open Demo Report/Trace), a
/// welcome page listing the recent reports, trace sets and comparisons (the list every window
/// shares, core/RecentEntries), and the ReportPane of the open report. Opening runs in a
/// ReportLoader with a progress bar and a Cancel button in the status bar; failures show one dialog
/// with the reader's message (only the `openFailed` signal when not interactive, as in screenshot
/// mode). Reports can also be dropped onto the window. `FILE` may be an ssh:// URL. A view that
/// fails to read (a dropped connection) shows a ReadFailureBar with Reload.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openReport(const QString& fileOrFolder);
    /// File > Open Remote: shows the dialog (window-modal, not blocking) and opens the report it
    /// is accepted with. The dialog deletes itself when closed.
    RemoteOpenDialog* showOpenRemoteDialog();
    ReadFailureBar* readFailureBar() const { return failureBar_; }
    void reload();
    void closeReport();
    /// Off in screenshot mode and tests: errors are only signalled (no dialogs) and opened
    /// reports are not added to the user's recent files.
    void setInteractive(bool interactive) { interactive_ = interactive; }
    ReportPane* pane() const { return pane_; }
    bool isLoading() const;

    /// The recent single reports (the shared list holds traces and comparisons too).
    static QStringList recentFiles();
    /// Opens a recent entry: a report here, traces in a system analyser window, a comparison in
    /// a compare window.
    void openRecent(const RecentEntry& entry);
    /// Help › Open Demo Report / Trace: a small generated report (and its host trace, opened in a
    /// system analyser window with the report), made once in the cache folder.
    void openDemo(bool trace);
    /// Restores the size and position the last interactive window closed with.
    void restoreSavedGeometry();

signals:
    void reportOpened();
    void openFailed(const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    /// Remembers the window geometry for the next start (interactive windows only).
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void buildWelcome();
    void onLoaded(std::shared_ptr<ReportSession> session);
    void onFailed(const QString& message);
    void addRecent(const QString& path);
    void refreshRecent();
    void updateActions();

    ReportLoader* loader_;
    QStackedWidget* pages_;
    ReadFailureBar* failureBar_;
    QWidget* welcome_ = nullptr;
    QListWidget* recentList_ = nullptr;
    ReportPane* pane_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QAction* reloadAction_ = nullptr;
    QAction* closeAction_ = nullptr;
    LoadingStatus loading_;
    QString loadingPath_;
    QString openPath_;
    bool interactive_ = true;
};

} // namespace tilescope::gui
