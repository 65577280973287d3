#include "SystemAnalyserWindow.hpp"

#include "DeviceTraceSession.hpp"
#include "HostTraceSession.hpp"
#include "SystemAnalyserView.hpp"
#include "core/Background.hpp"

#include <QApplication>
#include <QFileDialog>
#include <QImageWriter>
#include <QMenuBar>
#include <QMessageBox>
#include <QPixmap>
#include <QStatusBar>

namespace tilescope::gui {
namespace {
constexpr int kTimeoutMs = 120000;
constexpr int kPollMs = 50;
constexpr int kSettleMs = 100;
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
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    resize(1400, 900);
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
            emit opened();
        },
        [this](const QString& message) {
            statusBar()->clearMessage();
            if (interactive_)
                QMessageBox::warning(this, tr("Cannot open"), message);
            emit openFailed(message);
        });
}

SystemScreenshotRunner::SystemScreenshotRunner(SystemAnalyserWindow& window, QString view,
                                               QString output, QSize size, QObject* parent)
    : QObject(parent), window_(window), view_(std::move(view)), output_(std::move(output)),
      size_(size) {
    timeout_.setSingleShot(true);
    connect(&timeout_, &QTimer::timeout, this, [this] {
        fail(tr("timed out after %1 s waiting for the %2 view").arg(kTimeoutMs / 1000).arg(view_));
    });
    connect(&poll_, &QTimer::timeout, this, &SystemScreenshotRunner::poll);
}

void SystemScreenshotRunner::start(const QStringList& paths) {
    window_.setInteractive(false);
    window_.resize(size_);
    window_.show();
    connect(&window_, &SystemAnalyserWindow::openFailed, this, &SystemScreenshotRunner::fail);
    connect(&window_, &SystemAnalyserWindow::opened, this, [this] {
        if (!window_.view()->showView(view_))
            return fail(tr("unknown view '%1'").arg(view_));
        // Before the first frame, so no frame of the whole trace is mistaken for the result.
        if (range_)
            window_.view()->showRelativeRange(range_->first, range_->second);
        if (flameMode_)
            window_.view()->setFlameMode(*flameMode_);
        if (chartMode_)
            window_.view()->setChartMode(*chartMode_);
        poll_.start(kPollMs);
    });
    timeout_.start(kTimeoutMs);
    window_.openTraces(paths);
}

void SystemScreenshotRunner::poll() {

    if (window_.view() && window_.view()->isReady()) {
        poll_.stop();
        QTimer::singleShot(kSettleMs, this, &SystemScreenshotRunner::capture);
    }
}

void SystemScreenshotRunner::capture() {
    if (done_)
        return;
    const QImage image = window_.grab().toImage();
    QImageWriter writer(output_, "png");
    if (!writer.write(image))
        return fail(tr("cannot write %1: %2").arg(output_, writer.errorString()));
    done_ = true;
    timeout_.stop();
    emit finished(0, {});
}

void SystemScreenshotRunner::fail(const QString& message) {
    if (done_)
        return;
    done_ = true;
    timeout_.stop();
    poll_.stop();
    emit finished(1, message.simplified());
}

} // namespace tilescope::gui
