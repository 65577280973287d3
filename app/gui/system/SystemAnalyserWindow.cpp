#include "SystemAnalyserWindow.hpp"

#include "DeviceTraceSession.hpp"
#include "HostTraceSession.hpp"
#include "SystemAnalyserView.hpp"
#include "TraceCompareView.hpp"
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
    file->addAction(tr("&Compare Traces…"), this, [this] {
        const QString traces = tr("Host traces (*.pvti);;All files (*)");
        const QString a =
            QFileDialog::getOpenFileName(this, tr("Compare: trace A (the baseline)"), {}, traces);
        if (a.isEmpty())
            return;
        const QString b = QFileDialog::getOpenFileName(this, tr("Compare: trace B"), {}, traces);
        if (!b.isEmpty())
            compareTraces(a, b);
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
    if (compared_.size() == 2)
        compareTraces(compared_[0], compared_[1]);
    else if (!paths_.isEmpty())
        openTraces(paths_);
}

void SystemAnalyserWindow::refreshRecent() {
    recentMenu_->clear();
    int shown = 0;
    for (const RecentEntry& e : recent::entries()) {
        if (e.kind == RecentEntry::Traces)
            recentMenu_->addAction(e.label(), this, [this, paths = e.paths] { openTraces(paths); });
        else if (e.kind == RecentEntry::TraceComparison)
            recentMenu_->addAction(e.label(), this, [this, paths = e.paths] {
                compareTraces(paths.value(0), paths.value(1));
            });
        else
            continue;
        ++shown;
    }
    recentMenu_->setEnabled(shown > 0);
}

void SystemAnalyserWindow::showContent(QWidget* widget, const QString& title) {
    setCentralWidget(widget); // deletes the previous view
    view_ = qobject_cast<SystemAnalyserView*>(widget);
    compareView_ = qobject_cast<TraceCompareView*>(widget);
    setWindowTitle(tr("%1 — TileScope System Analyser").arg(title));
    reloadAction_->setEnabled(true);
}

void SystemAnalyserWindow::remember(RecentEntry::Kind kind, const QStringList& paths) {
    if (!interactive_)
        return;
    QStringList absolute;
    for (const QString& p : paths)
        absolute << (p.contains(QLatin1String("://")) ? p : QFileInfo(p).absoluteFilePath());
    recent::add({kind, absolute});
    refreshRecent();
}

void SystemAnalyserWindow::fail(const QString& title, const QString& message) {
    if (interactive_)
        QMessageBox::warning(this, title, message);
    emit openFailed(message);
}

void SystemAnalyserWindow::compareTraces(const QString& a, const QString& b) {
    for (const QString& p : {a, b})
        if (!p.endsWith(QLatin1String(".pvti"))) {
            const QString message =
                tr("Compare Traces compares two host traces (*.pvti); '%1' is not one").arg(p);
            fail(tr("Cannot compare"), message);
            return;
        }
    statusBar()->showMessage(tr("Opening %1 and %2…").arg(a, b));
    using Pair = std::pair<std::shared_ptr<HostTraceSession>, std::shared_ptr<HostTraceSession>>;
    runInBackground<Pair>(
        this,
        [pa = a.toStdString(), pb = b.toStdString()] {
            return Pair{HostTraceSession::open(pa), HostTraceSession::open(pb)};
        },
        [this, a, b](Pair traces) {
            statusBar()->clearMessage();
            paths_.clear();
            compared_ = {a, b};
            auto* view = new TraceCompareView(std::move(traces.first), std::move(traces.second));
            connect(view, &TraceCompareView::failed, this,
                    [this](const QString& m) { fail(tr("Cannot read the trace"), m); });
            showContent(view, tr("compare %1 ↔ %2").arg(a, b));
            remember(RecentEntry::TraceComparison, {a, b});
            emit opened();
        },
        [this](const QString& message) {
            statusBar()->clearMessage();
            fail(tr("Cannot open"), message);
        });
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
            compared_.clear();
            auto* view =
                new SystemAnalyserView(std::move(sessions.hosts), std::move(sessions.devices));
            connect(view, &SystemAnalyserView::failed, this,
                    [this](const QString& m) { fail(tr("Cannot read the trace"), m); });
            showContent(view, paths.join(QStringLiteral(", ")));
            remember(RecentEntry::Traces, paths);
            emit opened();
        },
        [this](const QString& message) {
            statusBar()->clearMessage();
            fail(tr("Cannot open"), message);
        });
}

} // namespace tilescope::gui
