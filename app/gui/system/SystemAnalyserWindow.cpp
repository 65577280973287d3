#include "SystemAnalyserWindow.hpp"

#include "DeviceTraceSession.hpp"
#include "HostTraceSession.hpp"
#include "SystemAnalyserView.hpp"
#include "core/Background.hpp"
#include "core/RecentEntries.hpp"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace tilescope::gui {
namespace {
struct Sessions {
    std::vector<std::shared_ptr<HostTraceSession>> hosts;
    std::vector<std::shared_ptr<DeviceTraceSession>> devices;
};
} // namespace

SystemAnalyserWindow::SystemAnalyserWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("TileScope System Analyser"));
    QMenu* file = menuBar()->addMenu(tr("&File"));
    const QString filter =
        tr("Host traces and profile reports (*.pvti *.pop);;Host traces (*.pvti);;All files (*)");
    file->addAction(tr("&Open Traces…"), QKeySequence::Open, this, [this, filter] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open"), {}, filter);
        if (!files.isEmpty())
            openTraces(files);
    });
    file->addAction(tr("&Add Trace…"), this, [this, filter] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Add"), {}, filter);
        if (!f.isEmpty())
            openTraces(paths_ + QStringList{f});
    });
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    connect(recentMenu_, &QMenu::aboutToShow, this, &SystemAnalyserWindow::refreshRecent);
    reloadAction_ = file->addAction(tr("&Reload"), this, &SystemAnalyserWindow::reload);
    reloadAction_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(QStringLiteral("Ctrl+R"))});
    reloadAction_->setEnabled(false);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    refreshRecent();
    resize(1400, 900);
}

void SystemAnalyserWindow::reload() {
    if (!paths_.isEmpty())
        openTraces(paths_);
}

void SystemAnalyserWindow::refreshRecent() {
    recentMenu_->clear();
    const auto entries = recent::entries(RecentEntry::Traces);
    for (const RecentEntry& e : entries)
        recentMenu_->addAction(e.label(), this, [this, paths = e.paths] { openTraces(paths); });
    recentMenu_->setEnabled(!entries.empty());
}

void SystemAnalyserWindow::openTraces(const QStringList& paths) {
    std::vector<std::string> list;
    for (const QString& p : paths)
        list.push_back(p.toStdString());
    statusBar()->showMessage(tr("Opening %1…").arg(paths.join(QStringLiteral(", "))));
    runInBackground<Sessions>(
        this,
        [list] {
            // Anything but a host trace is a profile report (or a report folder) whose device
            // steps join the timeline.
            Sessions s;
            for (const auto& p : list)
                if (p.size() >= 5 && p.compare(p.size() - 5, 5, ".pvti") == 0)
                    s.hosts.push_back(HostTraceSession::open(p));
                else
                    s.devices.push_back(DeviceTraceSession::open(p));
            return s;
        },
        [this, paths](Sessions sessions) {
            statusBar()->clearMessage();
            paths_ = paths;
            auto* view =
                new SystemAnalyserView(std::move(sessions.hosts), std::move(sessions.devices));
            connect(view, &SystemAnalyserView::failed, this, [this](const QString& m) {
                if (interactive_)
                    QMessageBox::warning(this, tr("Cannot read the trace"), m);
                emit openFailed(m);
            });
            setCentralWidget(view); // deletes the previous view
            view_ = view;
            setWindowTitle(
                tr("%1 — TileScope System Analyser").arg(paths.join(QStringLiteral(", "))));
            reloadAction_->setEnabled(true);
            if (interactive_) {
                QStringList absolute;
                for (const QString& p : paths)
                    absolute << (p.contains(QLatin1String("://"))
                                     ? p
                                     : QFileInfo(p).absoluteFilePath());
                recent::add({RecentEntry::Traces, absolute});
                refreshRecent();
            }
            emit opened();
        },
        [this](const QString& message) {
            statusBar()->clearMessage();
            if (interactive_)
                QMessageBox::warning(this, tr("Cannot open"), message);
            emit openFailed(message);
        });
}

} // namespace tilescope::gui
