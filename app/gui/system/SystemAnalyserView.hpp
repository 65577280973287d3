#pragma once

#include "TimelineCanvas.hpp"
#include "TimelineModel.hpp"

#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTabWidget;
class QTableView;
class QTreeView;

namespace tilescope::gui {

class CallTreeModel;
class DeviceTraceSession;
class EventSearchModel;
class HostTraceSession;
class TimelineCanvas;
class TimelineModel;

/// The system analyser for one or more open host traces: a Timeline tab (toolbar with name
/// search, previous/next, absolute or relative time, collapse/expand all; the TimelineCanvas; the
/// search results list) and a Call Tree tab (the call tree and the per-name statistics table of
/// the whole trace or of the range selected on the timeline, sortable, filterable and exportable
/// as CSV). Selecting a range shows its event count and total duration and recomputes the call
/// tree for it. Clicking an event shows it in the event pane beside the search results: name,
/// thread, start, duration and its tracepoint metadata (JSON pretty-printed).
class SystemAnalyserView : public QWidget {
    Q_OBJECT
public:
    /// `devices`: profile reports of the same run, shown on the timeline under the host traces.
    explicit SystemAnalyserView(std::vector<std::shared_ptr<HostTraceSession>> files,
                                std::vector<std::shared_ptr<DeviceTraceSession>> devices = {},
                                QWidget* parent = nullptr);
    ~SystemAnalyserView() override;

    /// Command-line names of the tabs: timeline, calltree.
    static QStringList viewNames();
    bool showView(const QString& name);
    /// Shows the timeline window [fromNs, toNs] after the start of the traces.
    void showRelativeRange(std::int64_t fromNs, std::int64_t toNs);
    /// The shown tab has everything its first paint needs (no "Loading" frame).
    bool isReady() const;
    /// The flame graph per thread or aggregated per process, and counter graphs as lines or
    /// stacked areas: the toolbar's switches. A choice made there is remembered per trace file
    /// (QSettings) and restored when the file opens again; these setters do not remember.
    void setFlameMode(TimelineModel::FlameMode mode);
    void setChartMode(TimelineCanvas::ChartMode mode);

    TimelineModel& timelineModel() { return *timeline_; }
    TimelineCanvas& canvas() { return *canvas_; }
    CallTreeModel& callTree() { return *callTree_; }
    /// The text of the event pane (tests).
    QString eventDetailsText() const;
    EventSearchModel& search() { return *search_; }

signals:
    void failed(const QString& message);

private:
    QWidget* buildTimelineTab();
    QWidget* buildCallTreeTab();
    QWidget* buildDetailsTab();
    /// Fills the event pane for the event selected on the timeline (its metadata read on a
    /// worker).
    void showSelectedEvent();
    void runSearch();
    void showHit(int index);
    void updateStatus();
    /// QSettings key of a remembered switch of this set of files.
    QString settingsKey(const char* name) const;

    std::vector<std::shared_ptr<HostTraceSession>> files_;
    std::unique_ptr<TimelineModel> timeline_;
    std::unique_ptr<CallTreeModel> callTree_;
    std::unique_ptr<EventSearchModel> search_;
    QTabWidget* tabs_ = nullptr;
    TimelineCanvas* canvas_ = nullptr;
    QLineEdit* searchText_ = nullptr;
    QCheckBox* regex_ = nullptr;
    QComboBox* flameMode_ = nullptr;
    QComboBox* chartMode_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* treeStatus_ = nullptr;
    QTreeView* tree_ = nullptr;
    QTableView* results_ = nullptr;
    QPlainTextEdit* eventDetails_ = nullptr;
    int eventRequest_ = 0; ///< the latest metadata read; older answers are dropped
};

} // namespace tilescope::gui
