#include "RemoteOpenDialog.hpp"

#include "RemoteDirectoryModel.hpp"
#include "SshConfigHosts.hpp"
#include "tilescope/report/RemoteStorage.hpp"

#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QStringListModel>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace tilescope::gui {
namespace {

const char* const kRecentRemoteKey = "recentRemoteReports";
constexpr int kMaxRecent = 10;
constexpr int kTypingPauseMs = 350;

// `[user@]host[:port]` of an ssh:// URL.
QString authorityOf(const QString& url) {
    const int slash = url.indexOf(QLatin1Char('/'), 6);
    return url.mid(6, slash < 0 ? -1 : slash - 6);
}

// The folder part of a path as typed: up to and including its last '/'.
QString folderPart(const QString& path) {
    return path.left(path.lastIndexOf(QLatin1Char('/')) + 1);
}

} // namespace

RemoteOpenDialog::RemoteOpenDialog(QWidget* parent)
    : QDialog(parent), model_(new RemoteDirectoryModel(this)) {
    setWindowTitle(tr("Open Remote Report"));
    resize(760, 560);

    host_ = new QComboBox;
    host_->setObjectName(QStringLiteral("host"));
    host_->setEditable(true);
    host_->setInsertPolicy(QComboBox::NoInsert);
    host_->lineEdit()->setPlaceholderText(tr("[user@]host[:port] or a Host alias"));
    QStringList hosts;
    for (const auto& alias : sshConfigHostAliases(report::defaultSshOptions().configFile))
        hosts << QString::fromStdString(alias);
    for (const QString& url : recentReports())
        if (!hosts.contains(authorityOf(url)))
            hosts << authorityOf(url);
    host_->addItems(hosts);
    host_->setCurrentIndex(-1);
    auto* list = new QPushButton(tr("&List"));

    path_ = new QLineEdit;
    path_->setObjectName(QStringLiteral("path"));
    path_->setPlaceholderText(tr("/path/to/profile.pop, or a folder ending in / (empty: home)"));
    completions_ = new QStringListModel(this);
    completer_ = new QCompleter(completions_, this);
    completer_->setCaseSensitivity(Qt::CaseSensitive);
    completer_->setCompletionMode(QCompleter::PopupCompletion);
    path_->setCompleter(completer_);
    up_ = new QPushButton(tr("&Up"));

    listing_ = new QTreeView;
    listing_->setObjectName(QStringLiteral("listing"));
    listing_->setModel(model_);
    listing_->setRootIsDecorated(false);
    listing_->setUniformRowHeights(true);
    listing_->setSelectionMode(QAbstractItemView::SingleSelection);
    listing_->header()->setStretchLastSection(false);
    listing_->header()->setSectionResizeMode(RemoteDirectoryModel::Name, QHeaderView::Stretch);
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    recent_ = new QListWidget;
    recent_->setObjectName(QStringLiteral("recent"));
    recent_->addItems(recentReports());
    recent_->setMaximumHeight(110);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
    open_ = buttons->button(QDialogButtonBox::Open);

    auto* hostRow = new QHBoxLayout;
    hostRow->addWidget(host_, 1);
    hostRow->addWidget(list);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(up_);
    auto* form = new QFormLayout;
    form->addRow(tr("&Host:"), hostRow);
    form->addRow(tr("&Path:"), pathRow);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(listing_, 1);
    layout->addWidget(status_);
    layout->addWidget(new QLabel(tr("Recent remote reports:")));
    layout->addWidget(recent_);
    layout->addWidget(buttons);

    typingPause_ = new QTimer(this);
    typingPause_->setSingleShot(true);
    typingPause_->setInterval(kTypingPauseMs);

    connect(host_, &QComboBox::editTextChanged, this, [this](const QString& text) {
        model_->setHost(text);
        showStatus({}, false);
    });
    connect(host_, &QComboBox::activated, this, [this] { navigate(QString()); });
    connect(host_->lineEdit(), &QLineEdit::returnPressed, this, &RemoteOpenDialog::browse);
    connect(list, &QPushButton::clicked, this, &RemoteOpenDialog::browse);
    connect(up_, &QPushButton::clicked, this, [this] {
        QString folder = model_->folder();
        if (folder.isEmpty() || folder == QLatin1String("/"))
            return;
        folder = folder.left(folder.lastIndexOf(QLatin1Char('/')));
        navigate(folder.isEmpty() ? QStringLiteral("/") : folder);
    });
    connect(path_, &QLineEdit::textEdited, this, &RemoteOpenDialog::onPathEdited);
    connect(path_, &QLineEdit::textChanged, this, &RemoteOpenDialog::updateOpenButton);
    connect(typingPause_, &QTimer::timeout, this, [this] {
        const QString folder = folderPart(path_->text());
        if (!folder.isEmpty())
            model_->list(folder);
    });
    connect(listing_, &QTreeView::activated, this, &RemoteOpenDialog::activateEntry);
    connect(listing_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid() &&
                    !model_->data(current, RemoteDirectoryModel::IsDirectoryRole).toBool())
                    path_->setText(model_->pathOf(current.row()));
            });
    connect(recent_, &QListWidget::currentTextChanged, this, [this](const QString& url) {
        if (url.isEmpty())
            return;
        host_->setEditText(authorityOf(url));
        try {
            const std::string path = report::SshUrl::parse(url.toStdString()).path;
            path_->setText((path.starts_with('/') ? "" : "~/") + QString::fromStdString(path));
        } catch (const std::exception& e) {
            showStatus(QString::fromStdString(e.what()), true);
        }
    });
    connect(recent_, &QListWidget::itemActivated, this, [this] { accept(); });
    connect(model_, &RemoteDirectoryModel::listed, this, &RemoteOpenDialog::onListed);
    connect(model_, &RemoteDirectoryModel::failed, this, [this](const QString& message) {
        navigating_ = false;
        showStatus(message, true);
    });
    connect(model_, &RemoteDirectoryModel::busyChanged, this, [this](bool busy) {
        if (busy)
            showStatus(tr("Listing %1 …").arg(model_->host()), false);
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &RemoteOpenDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RemoteOpenDialog::reject);
    updateOpenButton();
}

RemoteOpenDialog::~RemoteOpenDialog() = default;

QString RemoteOpenDialog::statusText() const {
    return status_->text();
}

void RemoteOpenDialog::showStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void RemoteOpenDialog::browse() {
    const QString path = path_->text().trimmed();
    navigate(path.isEmpty() || path.endsWith(QLatin1Char('/')) ? path : folderPart(path));
}

void RemoteOpenDialog::navigate(const QString& folder) {
    typingPause_->stop();
    navigating_ = true;
    model_->list(folder);
}

void RemoteOpenDialog::onPathEdited(const QString& text) {
    // Typing into another folder lists it (after a pause) so that completion can follow.
    const QString folder = folderPart(text);
    if (!folder.isEmpty() && folder != model_->folder() + '/' && folder != model_->folder())
        typingPause_->start();
}

void RemoteOpenDialog::onListed() {
    completions_->setStringList(model_->completions());
    if (navigating_) {
        const QString folder = model_->folder();
        path_->setText(folder.endsWith(QLatin1Char('/')) ? folder : folder + '/');
        navigating_ = false;
    }
    int reports = 0;
    for (int row = 0; row < model_->rowCount(); ++row)
        reports += model_->entry(row).isReport ? 1 : 0;
    showStatus(tr("%1: %2 entries, %3 reports%4")
                   .arg(model_->folder())
                   .arg(model_->rowCount())
                   .arg(reports)
                   .arg(model_->truncated() ? tr(" (only the first ones)") : QString()),
               false);
    listing_->resizeColumnToContents(RemoteDirectoryModel::Size);
    listing_->resizeColumnToContents(RemoteDirectoryModel::Modified);
}

void RemoteOpenDialog::activateEntry(const QModelIndex& index) {
    if (!index.isValid())
        return;
    if (model_->data(index, RemoteDirectoryModel::IsDirectoryRole).toBool()) {
        navigate(model_->pathOf(index.row()));
        return;
    }
    path_->setText(model_->pathOf(index.row()));
    accept();
}

void RemoteOpenDialog::updateOpenButton() {
    const QString path = path_->text().trimmed();
    open_->setEnabled(!path.isEmpty() && !path.endsWith(QLatin1Char('/')));
}

void RemoteOpenDialog::accept() {
    const QString path = path_->text().trimmed();
    if (path.isEmpty() || path.endsWith(QLatin1Char('/'))) {
        showStatus(tr("Choose a report file (profile.pop, *.pop or *.pvti), or a sweep folder's "
                      "sweep.json, not a folder"),
                   true);
        return;
    }
    // The model builds URLs for its host: make sure it has the one in the field.
    model_->setHost(host_->currentText());
    if (model_->host().isEmpty()) {
        showStatus(tr("Enter a host: [user@]host[:port] or a Host alias of the SSH "
                      "configuration"),
                   true);
        return;
    }
    const QString url = model_->urlFor(path);
    try {
        report::SshUrl::parse(url.toStdString());
    } catch (const std::exception& e) {
        showStatus(QString::fromStdString(e.what()), true);
        return;
    }
    url_ = url;
    QDialog::accept();
}

QStringList RemoteOpenDialog::recentReports() {
    return QSettings().value(QLatin1String(kRecentRemoteKey)).toStringList();
}

QString RemoteOpenDialog::withoutPassword(const QString& url) {
    // A password typed into a URL must not reach the settings file.
    const QString authority = authorityOf(url);
    const int at = authority.lastIndexOf(QLatin1Char('@'));
    const int colon = authority.indexOf(QLatin1Char(':'));
    if (at > 0 && colon >= 0 && colon < at)
        return QStringLiteral("ssh://") + authority.left(colon) + authority.mid(at) +
               url.mid(6 + authority.size());
    return url;
}

void RemoteOpenDialog::rememberReport(const QString& url) {
    const QString clean = withoutPassword(url);
    QStringList urls = recentReports();
    urls.removeAll(clean);
    urls.prepend(clean);
    while (urls.size() > kMaxRecent)
        urls.removeLast();
    QSettings().setValue(QLatin1String(kRecentRemoteKey), urls);
}

} // namespace tilescope::gui
