#include "MainWindow.hpp"

#include "ReadFailureBar.hpp"
#include "ReportLoader.hpp"
#include "ReportPane.hpp"
#include "compare/CompareDialog.hpp"
#include "compare/CompareWindow.hpp"
#include "core/Background.hpp"
#include "core/RecentEntries.hpp"
#include "core/ReportSession.hpp"
#include "core/ReportView.hpp"
#include "remote/RemoteOpenDialog.hpp"
#include "sweep/SweepWindow.hpp"
#include "system/SystemAnalyserWindow.hpp"
#include "tilescope/report/RemoteStorage.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QVBoxLayout>
#include <filesystem>

namespace tilescope::gui {
namespace {
const char* const kGeometryKey = "windowGeometry";

bool isRemote(const QString& location) {
    return tilescope::report::SshUrl::matches(location.toStdString());
}

// How a report is named in the title and the recent files: local paths made absolute, URLs
// as they are (without a password that may have been typed into one).
QString displayLocation(const QString& location) {
    return isRemote(location) ? RemoteOpenDialog::withoutPassword(location)
                              : QFileInfo(location).absoluteFilePath();
}
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), loader_(new ReportLoader(this)) {
    setWindowTitle(QStringLiteral("TileScope"));
    setAcceptDrops(true);
    pages_ = new QStackedWidget;
    failureBar_ = new ReadFailureBar;
    connect(failureBar_, &ReadFailureBar::reloadRequested, this, &MainWindow::reload);
    auto* central = new QWidget;
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(failureBar_);
    centralLayout->addWidget(pages_, 1);
    setCentralWidget(central);
    buildWelcome();
    buildMenus();

    loading_.install(statusBar(), loader_);

    connect(loader_, &ReportLoader::loaded, this, &MainWindow::onLoaded);
    connect(loader_, &ReportLoader::failed, this, &MainWindow::onFailed);
    connect(loader_, &ReportLoader::cancelled, this, [this] {
        loading_.setLoading(false);
        statusBar()->showMessage(tr("Opening cancelled"), 4000);
    });
    resize(1280, 800);
}

void MainWindow::restoreSavedGeometry() {
    const QByteArray geometry = QSettings().value(QLatin1String(kGeometryKey)).toByteArray();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (interactive_)
        QSettings().setValue(QLatin1String(kGeometryKey), saveGeometry());
    QMainWindow::closeEvent(event);
}

MainWindow::~MainWindow() = default;

bool MainWindow::isLoading() const {
    return loader_->isLoading();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open report"), QString(), tr("TileScope reports (*.pop);;All files (*)"));
        if (!path.isEmpty())
            openReport(path);
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &Folder…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open report folder"));
        if (!dir.isEmpty())
            openReport(dir);
    });
    file->addAction(tr("Open Re&mote…"), this, &MainWindow::showOpenRemoteDialog);
    file->addAction(tr("Com&pare Two Reports…"), this, [this] {
        CompareDialog dialog(this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        openRecent({RecentEntry::Comparison, {dialog.source(), dialog.target()}});
    });
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    reloadAction_ = file->addAction(tr("&Reload"), this, &MainWindow::reload);
    // F5 and Ctrl+R everywhere (QKeySequence::Refresh is only one of them on some platforms).
    reloadAction_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(QStringLiteral("Ctrl+R"))});
    closeAction_ = file->addAction(tr("&Close Report"), this, &MainWindow::closeReport);
    closeAction_->setShortcut(QKeySequence::Close);
    file->addSeparator();
    QAction* newWindow = file->addAction(tr("&New Window"), this, [] {
        auto* w = new MainWindow;
        w->setAttribute(Qt::WA_DeleteOnClose);
        w->show();
    });
    newWindow->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+N")));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList names = ReportPane::viewNames();
    const QStringList titles = ReportPane::viewTitles();
    for (int i = 0; i < names.size(); ++i) {
        QAction* a = view->addAction(titles[i], this, [this, name = names[i]] {
            if (pane_)
                pane_->showView(name);
        });
        a->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)));
    }
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("Open &Demo Report"), this, [this] { openDemo(false); });
    help->addAction(tr("Open Demo &Trace"), this, [this] { openDemo(true); });
    refreshRecent();
    updateActions();
}

void MainWindow::buildWelcome() {
    welcome_ = new QWidget;
    auto* layout = new QVBoxLayout(welcome_);
    auto* title =
        new QLabel(tr("<h2>TileScope</h2><p>Open a report with File › Open (%1), or drop "
                      "a <tt>profile.pop</tt> or a report folder here.</p>")
                       .arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
    title->setAlignment(Qt::AlignCenter);
    recentList_ = new QListWidget;
    recentList_->setMaximumWidth(720);
    layout->addStretch(1);
    layout->addWidget(title);
    layout->addWidget(new QLabel(tr("Recent reports, traces and comparisons:")), 0,
                      Qt::AlignHCenter);
    layout->addWidget(recentList_, 0, Qt::AlignHCenter);
    layout->addStretch(2);
    connect(recentList_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        openRecent(RecentEntry::decode(item->data(Qt::UserRole).toString()));
    });
    pages_->addWidget(welcome_);
}

void MainWindow::openDemo(bool trace) {
    // The demo ships as its recipe: a small generated report (1 IPU x 64 tiles, 300 steps, two
    // runs) and its host trace, written once into the cache folder and reused afterwards.
    const QString dir =
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/demo");
    statusBar()->showMessage(tr("Preparing the demo report…"));
    runInBackground<report::SyntheticOutput>(
        this,
        [dir] {
            const std::filesystem::path folder = dir.toStdString();
            report::SyntheticOutput out{folder / "profile.pop", folder / "host.pvti"};
            if (std::filesystem::exists(out.profile) && std::filesystem::exists(out.hostTrace))
                return out;
            std::filesystem::remove_all(folder);
            report::SyntheticSpec spec;
            spec.tilesPerIpu = 64;
            spec.steps = 300;
            spec.hostEvents = 2000;
            spec.hostThreads = 4;
            return report::generateSyntheticReport(folder, spec);
        },
        [this, trace](report::SyntheticOutput out) {
            statusBar()->clearMessage();
            const QString profile = QString::fromStdString(out.profile.string());
            if (!trace)
                return openReport(profile);
            openRecent(
                {RecentEntry::Traces, {QString::fromStdString(out.hostTrace.string()), profile}});
        },
        [this](const QString& message) {
            statusBar()->showMessage(tr("Cannot prepare the demo: %1").arg(message), 8000);
            if (interactive_)
                QMessageBox::warning(this, tr("Demo"),
                                     tr("Cannot prepare the demo: %1").arg(message));
        });
}

void MainWindow::openReport(const QString& fileOrFolder) {
    loadingPath_ = fileOrFolder;
    loading_.setLoading(true);
    loader_->start(fileOrFolder);
}

RemoteOpenDialog* MainWindow::showOpenRemoteDialog() {
    auto* dialog = new RemoteOpenDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        // A sweep folder is picked by its sweep.json (or summary.json): the listing shows files.
        const QString url = dialog->url();
        const QString name = url.section(QLatin1Char('/'), -1);
        if (name == QLatin1String("sweep.json") || name == QLatin1String("summary.json")) {
            auto* sweep = new SweepWindow;
            sweep->setAttribute(Qt::WA_DeleteOnClose);
            sweep->resize(size());
            sweep->show();
            sweep->openSweep(url.left(url.size() - name.size() - 1));
            return;
        }
        openReport(url);
    });
    dialog->open();
    return dialog;
}

void MainWindow::reload() {
    if (!openPath_.isEmpty())
        openReport(openPath_);
}

void MainWindow::closeReport() {
    loader_->cancel();
    if (pane_) {
        pages_->removeWidget(pane_);
        pane_->deleteLater();
        pane_ = nullptr;
    }
    failureBar_->hide();
    openPath_.clear();
    pages_->setCurrentWidget(welcome_);
    setWindowTitle(QStringLiteral("TileScope"));
    updateActions();
}

void MainWindow::onLoaded(std::shared_ptr<ReportSession> session) {
    loading_.setLoading(false);
    // Reloading the same report keeps what the user had set up.
    if (pane_ && pane_->session()->path() == session->path())
        session->state() = pane_->session()->state();
    const QString view = session->state().currentView;
    if (pane_) {
        pages_->removeWidget(pane_);
        pane_->deleteLater();
    }
    pane_ = new ReportPane(session);
    failureBar_->hide();
    connect(pane_, &ReportPane::viewFailed, this, [this](const QString& message) {
        statusBar()->showMessage(message);
        failureBar_->showFailure(message);
    });
    pages_->addWidget(pane_);
    pages_->setCurrentWidget(pane_);
    pane_->showView(view);
    openPath_ = QString::fromStdString(session->path());
    setWindowTitle(tr("%1 — TileScope").arg(displayLocation(openPath_)));
    if (interactive_) {
        addRecent(displayLocation(openPath_));
        if (isRemote(openPath_))
            RemoteOpenDialog::rememberReport(openPath_);
    }
    statusBar()->showMessage(tr("Opened %1").arg(displayLocation(openPath_)), 4000);
    updateActions();
    emit reportOpened();
}

void MainWindow::onFailed(const QString& message) {
    loading_.setLoading(false);
    statusBar()->showMessage(tr("Could not open %1").arg(loadingPath_), 8000);
    if (interactive_)
        QMessageBox::critical(this, tr("Cannot open report"), message);
    emit openFailed(message);
}

QStringList MainWindow::recentFiles() {
    QStringList files;
    for (const RecentEntry& e : recent::entries(RecentEntry::Report))
        files << e.paths.front();
    return files;
}

void MainWindow::openRecent(const RecentEntry& entry) {
    switch (entry.kind) {
    case RecentEntry::Report:
        openReport(entry.paths.value(0));
        return;
    case RecentEntry::Traces: {
        auto* window = new SystemAnalyserWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        window->openTraces(entry.paths);
        return;
    }
    case RecentEntry::TraceComparison: {
        auto* window = new SystemAnalyserWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        window->compareTraces(entry.paths.value(0), entry.paths.value(1));
        return;
    }
    case RecentEntry::Comparison: {
        auto* window = new CompareWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        window->openComparison(entry.paths.value(0), entry.paths.value(1));
        if (interactive_) {
            recent::add(entry);
            refreshRecent();
        }
        return;
    }
    }
}

void MainWindow::addRecent(const QString& path) {
    recent::add({RecentEntry::Report, {path}});
    refreshRecent();
}

void MainWindow::refreshRecent() {
    const auto entries = recent::entries();
    recentMenu_->clear();
    recentList_->clear();
    for (const RecentEntry& e : entries) {
        recentMenu_->addAction(e.label(), this, [this, e] { openRecent(e); });
        auto* item = new QListWidgetItem(e.label(), recentList_);
        item->setData(Qt::UserRole, e.encode());
    }
    recentMenu_->setEnabled(!entries.empty());
}

void MainWindow::updateActions() {
    reloadAction_->setEnabled(pane_ != nullptr);
    closeAction_->setEnabled(pane_ != nullptr);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.size() == 1 && urls.front().isLocalFile())
        openReport(urls.front().toLocalFile());
}

} // namespace tilescope::gui
