#pragma once

#include "tilescope/sweep/SweepSummary.hpp"

#include <QFutureWatcher>
#include <QMainWindow>
#include <memory>

class QLabel;

namespace tilescope::gui {

class SweepView;

/// A window over one sweep folder (`tilescope DIR` on a folder holding sweep.json, or `tilescope
/// --sweep DIR`): the table of summary.json is shown at once when there is one, then every
/// variant's status and report is read on a worker (as `tilescope-cli sweep-summary`) and the
/// SweepView shows that. Comparing two variants opens a
/// CompareWindow of their reports. Failures show the reason in place (and `openFailed`).
class SweepWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit SweepWindow(QWidget* parent = nullptr);
    ~SweepWindow() override;

    void openSweep(const QString& directory);
    SweepView* view() const { return view_; }
    bool isLoading() const { return watcher_.isRunning(); }

signals:
    /// The table is shown: from summary.json when the folder has one, else from the reports.
    void sweepOpened();
    /// The reports have been read and the table shows what they say.
    void summaryRead();
    void openFailed(const QString& message);

private:
    void onLoaded();
    void openComparison(const QString& source, const QString& target);

    SweepView* view_;
    QLabel* placeholder_;
    QFutureWatcher<std::shared_ptr<const sweep::SweepSummary>> watcher_;
    QString directory_;
    QString error_;
    bool shownStored_ = false;
};

} // namespace tilescope::gui
