#include "RemoteDirectoryModel.hpp"

#include "core/Background.hpp"
#include "core/Format.hpp"

#include <QApplication>
#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QStyle>
#include <mutex>

namespace tilescope::gui {

/// The browser of one host, shared with the listing jobs in flight (which may outlive the model).
struct RemoteDirectoryModel::HostConnection {
    std::string urlBase; // ssh://[user@]host[:port]
    std::mutex mutex;
    std::unique_ptr<report::RemoteFolderBrowser> browser;
};

RemoteDirectoryModel::RemoteDirectoryModel(QObject* parent) : QAbstractTableModel(parent) {}

RemoteDirectoryModel::~RemoteDirectoryModel() = default;

void RemoteDirectoryModel::setHost(const QString& host) {
    const QString trimmed = host.trimmed();
    if (trimmed == host_)
        return;
    beginResetModel();
    host_ = trimmed;
    connection_.reset();
    folder_.clear();
    listing_ = {};
    ++generation_; // a listing of the previous host no longer matters
    endResetModel();
    setBusy(false);
}

void RemoteDirectoryModel::setBusy(bool busy) {
    if (busy == busy_)
        return;
    busy_ = busy;
    emit busyChanged(busy);
}

QString RemoteDirectoryModel::urlFor(const QString& path) const {
    QString encoded = path;
    encoded.replace(QLatin1Char('%'), QLatin1String("%25")); // SshUrl decodes %XX
    if (encoded.startsWith(QLatin1String("~/")))
        encoded.remove(0, 2);
    if (!encoded.startsWith(QLatin1Char('/')))
        encoded.prepend(QLatin1String("/~/"));
    return QStringLiteral("ssh://") + host_ + encoded;
}

void RemoteDirectoryModel::list(const QString& folder) {
    const int generation = ++generation_;
    if (host_.isEmpty()) {
        emit failed(tr("Enter a host: [user@]host[:port] or a Host alias of the SSH "
                       "configuration"));
        return;
    }
    if (!connection_) {
        try { // the host part must parse before anything connects
            report::SshUrl::parse("ssh://" + host_.toStdString() + "/.");
        } catch (const std::exception& e) {
            emit failed(QString::fromStdString(e.what()));
            return;
        }
        connection_ = std::make_shared<HostConnection>();
        connection_->urlBase = "ssh://" + host_.toStdString();
    }
    setBusy(true);
    auto connection = connection_;
    const std::string path = folder.toStdString();
    const report::SshOptions options = report::defaultSshOptions();
    runInBackground<report::RemoteListing>(
        this,
        [connection, path, options] {
            std::lock_guard lock(connection->mutex);
            if (!connection->browser || !connection->browser->connected()) {
                connection->browser.reset();
                connection->browser =
                    std::make_unique<report::RemoteFolderBrowser>(connection->urlBase, options);
            }
            return connection->browser->list(path);
        },
        [this, generation](report::RemoteListing listing) {
            if (generation != generation_)
                return;
            beginResetModel();
            listing_ = std::move(listing);
            folder_ = QString::fromStdString(listing_.folder);
            endResetModel();
            setBusy(false);
            emit listed();
        },
        [this, generation](const QString& message) {
            if (generation != generation_)
                return;
            setBusy(false);
            emit failed(message);
        });
}

QString RemoteDirectoryModel::pathOf(int row) const {
    const QString name = QString::fromStdString(entry(row).name);
    return folder_.endsWith(QLatin1Char('/')) ? folder_ + name : folder_ + '/' + name;
}

QStringList RemoteDirectoryModel::completions() const {
    QStringList paths;
    paths.reserve(rowCount());
    for (int row = 0; row < rowCount(); ++row)
        paths << (entry(row).isDirectory ? pathOf(row) + '/' : pathOf(row));
    return paths;
}

int RemoteDirectoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(listing_.entries.size());
}

int RemoteDirectoryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RemoteDirectoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const report::RemoteEntry& e = entry(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return QString::fromStdString(e.name) + (e.isDirectory ? "/" : "");
        case Size:
            return e.isDirectory ? QVariant() : formatBytes(static_cast<double>(e.size));
        case Modified:
            return e.modified > 0 ? QDateTime::fromSecsSinceEpoch(e.modified)
                                        .toString(QStringLiteral("yyyy-MM-dd hh:mm"))
                                  : QVariant();
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() != Name)
            return {};
        return QApplication::style()->standardIcon(e.isDirectory ? QStyle::SP_DirIcon
                                                                 : QStyle::SP_FileIcon);
    case Qt::FontRole:
        if (e.isReport) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::BackgroundRole:
        return e.isReport ? QVariant(QColor(255, 236, 179)) : QVariant();
    case Qt::ToolTipRole:
        return e.isReport ? tr("A TileScope report: double-click to open it") : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == Size ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case IsReportRole:
        return e.isReport;
    case IsDirectoryRole:
        return e.isDirectory;
    case PathRole:
        return pathOf(index.row());
    }
    return {};
}

QVariant RemoteDirectoryModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Size:
        return tr("Size");
    case Modified:
        return tr("Modified");
    }
    return {};
}

} // namespace tilescope::gui
