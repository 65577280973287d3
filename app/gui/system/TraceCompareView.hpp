#pragma once

#include <QWidget>
#include <memory>

class QLabel;
class QTableView;

namespace tilescope::gui {

class HostTraceSession;
class TimelineCanvas;
class TimelineModel;
class TraceComparisonModel;

/// The system analyser's Compare view of two host traces: the flame of trace A (the baseline)
/// above the flame of trace B (each the timeline canvas over its own trace, threads merged per
/// process), and below them the per-name comparison table (TraceComparisonModel: count, total and
/// mean in each trace and their differences, sortable, filterable by name). Each flame zooms and
/// pans on its own.
class TraceCompareView : public QWidget {
    Q_OBJECT
public:
    TraceCompareView(std::shared_ptr<HostTraceSession> a, std::shared_ptr<HostTraceSession> b,
                     QWidget* parent = nullptr);
    ~TraceCompareView() override;

    /// The table has its rows and both flames have drawn their first window.
    bool isReady() const;
    TraceComparisonModel& comparison() { return *comparison_; }
    TimelineModel& timelineA() { return *timelineA_; }
    TimelineModel& timelineB() { return *timelineB_; }
    QTableView* table() const { return table_; }

signals:
    void failed(const QString& message);

private:
    void updateSummary();

    std::unique_ptr<TimelineModel> timelineA_, timelineB_;
    std::unique_ptr<TraceComparisonModel> comparison_;
    TimelineCanvas* canvasA_ = nullptr;
    TimelineCanvas* canvasB_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* summary_ = nullptr;
};

} // namespace tilescope::gui
