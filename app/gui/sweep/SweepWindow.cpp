#include "SweepWindow.hpp"

#include "SweepView.hpp"
#include "compare/CompareWindow.hpp"
#include "tilescope/sweep/RemoteSweep.hpp"

#include <QLabel>
#include <QStackedWidget>
#include <QtConcurrent/QtConcurrentRun>

namespace tilescope::gui {

SweepWindow::SweepWindow(QWidget* parent)
    : QMainWindow(parent), view_(new SweepView), placeholder_(new QLabel(tr("No sweep open"))) {
    placeholder_->setAlignment(Qt::AlignCenter);
    auto* stack = new QStackedWidget;
    stack->addWidget(placeholder_);
    stack->addWidget(view_);
    setCentralWidget(stack);
    setWindowTitle(tr("TileScope sweep"));
    connect(&watcher_, &QFutureWatcher<std::shared_ptr<const sweep::SweepSummary>>::finished, this,
            &SweepWindow::onLoaded);
    connect(view_, &SweepView::compareRequested, this, &SweepWindow::openComparison);
}

SweepWindow::~SweepWindow() {
    watcher_.waitForFinished();
}

void SweepWindow::openSweep(const QString& directory) {
    directory_ = directory;
    shownStored_ = false;
    setWindowTitle(tr("%1 — TileScope sweep").arg(directory));
    placeholder_->setText(tr("Reading the sweep in %1…").arg(directory));
    const std::string dir = directory.toStdString();
    if (sweep::isRemoteSweep(dir)) {
        // Over SSH the table comes from summary.json alone (opening every report over the
        // network would take minutes), read off the UI thread.
        watcher_.setFuture(
            QtConcurrent::run([this, dir]() -> std::shared_ptr<const sweep::SweepSummary> {
                try {
                    return std::make_shared<const sweep::SweepSummary>(
                        sweep::readRemoteSweep(dir, report::defaultSshOptions()));
                } catch (const std::exception& e) {
                    error_ = QString::fromUtf8(e.what());
                    return nullptr;
                }
            }));
        return;
    }
    // A finished sweep's summary.json is shown at once (a fraction of a second for thousands of
    // variants); the reports are then read off the UI thread and the table refreshed from them
    // (a variant may have been rerun since). An error becomes the placeholder's text.
    if (auto stored = sweep::readSummaryJson(dir)) {
        view_->setSummary(std::make_shared<const sweep::SweepSummary>(std::move(*stored)));
        static_cast<QStackedWidget*>(centralWidget())->setCurrentWidget(view_);
        shownStored_ = true;
        emit sweepOpened();
    }
    watcher_.setFuture(
        QtConcurrent::run([this, dir]() -> std::shared_ptr<const sweep::SweepSummary> {
            try {
                return std::make_shared<const sweep::SweepSummary>(
                    sweep::summarizeSweep(dir, std::nullopt, {}));
            } catch (const std::exception& e) {
                error_ = QString::fromUtf8(e.what());
                return nullptr;
            }
        }));
}

void SweepWindow::onLoaded() {
    const auto summary = watcher_.result();
    auto* stack = static_cast<QStackedWidget*>(centralWidget());
    if (!summary && shownStored_)
        return; // keep what summary.json said
    if (!summary) {
        placeholder_->setText(tr("Cannot open the sweep: %1").arg(error_));
        stack->setCurrentWidget(placeholder_);
        emit openFailed(error_);
        return;
    }
    view_->setSummary(summary);
    stack->setCurrentWidget(view_);
    if (!shownStored_)
        emit sweepOpened();
    emit summaryRead();
}

void SweepWindow::openComparison(const QString& source, const QString& target) {
    auto* window = new CompareWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->resize(size());
    window->show();
    window->openComparison(source, target);
}

} // namespace tilescope::gui
