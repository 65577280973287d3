#pragma once

#include "tilescope/report/RemoteDirectory.hpp"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>
#include <memory>

namespace tilescope::gui {

/// One folder of a remote host for the Open Remote dialog: name, size and modification time of
/// each entry, folders first, report files (profile.pop, *.pop, *.pvti) highlighted (bold, tinted,
/// `IsReportRole`). Listing runs on the thread pool through one RemoteFolderBrowser kept per
/// host, so browsing logs in once and the UI thread never waits on the network; the login's
/// questions reach the person through the SshInteraction of the default SshOptions. A newer
/// listing supersedes an older one (its result is dropped); a lost connection is reopened by the
/// next listing. `listed` or `failed` tells the outcome.
class RemoteDirectoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Size, Modified, ColumnCount };
    enum Role { IsReportRole = Qt::UserRole + 1, IsDirectoryRole, PathRole };

    explicit RemoteDirectoryModel(QObject* parent = nullptr);
    ~RemoteDirectoryModel() override;

    /// The host to browse, `[user@]host[:port]` (a Host alias of the SSH configuration works).
    /// A different host drops the connection and empties the model.
    void setHost(const QString& host);
    QString host() const { return host_; }
    /// Lists `folder`: an absolute path, or relative to the remote home folder (empty: home).
    void list(const QString& folder);
    bool isBusy() const { return busy_; }

    /// The folder shown, as the server resolved it (absolute); empty before the first listing.
    QString folder() const { return folder_; }
    bool truncated() const { return listing_.truncated; }
    const report::RemoteEntry& entry(int row) const { return listing_.entries.at(row); }
    /// Absolute path of the entry in `row`.
    QString pathOf(int row) const;
    /// The ssh:// URL of a path on the host (relative paths are relative to the home folder).
    QString urlFor(const QString& path) const;
    /// Completions for a path field: the full path of every entry, folders ending in '/'.
    QStringList completions() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

signals:
    void listed();
    void failed(const QString& message);
    void busyChanged(bool busy);

private:
    struct HostConnection;
    void setBusy(bool busy);

    QString host_;
    std::shared_ptr<HostConnection> connection_;
    QString folder_;
    report::RemoteListing listing_;
    int generation_ = 0;
    bool busy_ = false;
};

} // namespace tilescope::gui
