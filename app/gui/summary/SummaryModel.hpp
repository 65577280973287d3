#pragma once

#include "tables/RecordTableModel.hpp"

#include <QObject>
#include <memory>

namespace tilescope::gui {

class ReportSession;

/// The Summary view's tables, built from the figures ReportSession computed while opening
/// (report::summarize and the engine options): no query runs when the view is shown. Each
/// table keeps raw values (bytes, cycles) under Qt::UserRole for sorting and tests.
class SummaryModel : public QObject {
    Q_OBJECT
public:
    explicit SummaryModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);

    /// System: target type, IPU version, replicas, IPUs per replica, tiles, clock, counts.
    RecordTableModel& target() { return target_; }
    /// Versions: the TileScope that wrote the report and this one, the Poplar-compatible version
    /// the program was built against, the report format.
    RecordTableModel& versions() { return versions_; }
    /// Memory capacity per tile, per IPU, per replica and in total.
    RecordTableModel& capacity() { return capacity_; }
    /// What was recorded: instrumentation level and the options that decide it.
    RecordTableModel& instrumentation() { return instrumentation_; }
    RecordTableModel& categories() { return categories_; }
    RecordTableModel& regions() { return regions_; }
    RecordTableModel& liveness() { return liveness_; }
    RecordTableModel& runs() { return runs_; }
    RecordTableModel& engineOptions() { return options_; }
    /// Empty, or the reason the report did not fit ("Out of memory: 12 tiles exceed ...").
    QString outOfMemoryMessage() const { return oom_; }
    /// One line on where the report came from (tool version, date, completeness).
    QString headline() const { return headline_; }

private:
    RecordTableModel target_;
    RecordTableModel versions_;
    RecordTableModel capacity_;
    RecordTableModel instrumentation_;
    RecordTableModel categories_;
    RecordTableModel regions_;
    RecordTableModel liveness_;
    RecordTableModel runs_;
    RecordTableModel options_;
    QString oom_;
    QString headline_;
};

} // namespace tilescope::gui
