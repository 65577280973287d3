#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

class QComboBox;
class QCompleter;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QStringListModel;
class QTimer;
class QTreeView;

namespace tilescope::gui {

class RemoteDirectoryModel;

/// File > Open Remote: picks a report on another machine and gives its ssh:// URL. The host
/// field offers the Host aliases of the SSH configuration and the hosts of recent remote
/// reports; the folder listing (RemoteDirectoryModel, listed off the UI thread) highlights report
/// files; the path field completes from the listing and lists the folder being typed; recent
/// remote reports (URLs only, in QSettings) open with a double-click. Errors of listing (host
/// unknown, refused host key, no such folder) show in the dialog, which stays open.
class RemoteOpenDialog : public QDialog {
    Q_OBJECT
public:
    explicit RemoteOpenDialog(QWidget* parent = nullptr);
    ~RemoteOpenDialog() override;

    /// The report chosen, as ssh://[user@]host[:port]/path (valid once accepted).
    QString url() const { return url_; }

    QComboBox* hostField() const { return host_; }
    QLineEdit* pathField() const { return path_; }
    RemoteDirectoryModel& model() const { return *model_; }
    QListWidget* recentList() const { return recent_; }
    /// The message under the listing (counts, progress or the last error).
    QString statusText() const;

    /// Lists the folder the path field names (itself when it ends in '/' or is empty, else the
    /// folder it is in) and, once listed, shows that folder in the path field.
    void browse();
    /// Accepts the path field's file (or the selected recent report); refuses a folder.
    void accept() override;

    /// Recent remote reports, newest first (URLs only, never secrets).
    static QStringList recentReports();
    /// Adds an opened report to the recent remote reports (URL without any password).
    static void rememberReport(const QString& url);
    /// `url` without a password (`ssh://user:secret@host/...` gives `ssh://user@host/...`).
    static QString withoutPassword(const QString& url);

private:
    void navigate(const QString& folder);
    void onListed();
    void onPathEdited(const QString& text);
    void activateEntry(const QModelIndex& index);
    void updateOpenButton();
    void showStatus(const QString& text, bool error);

    RemoteDirectoryModel* model_;
    QComboBox* host_;
    QLineEdit* path_;
    QCompleter* completer_;
    QStringListModel* completions_;
    QTreeView* listing_;
    QLabel* status_;
    QListWidget* recent_;
    QPushButton* open_;
    QPushButton* up_;
    QTimer* typingPause_;
    QString url_;
    bool navigating_ = false;
};

} // namespace tilescope::gui
