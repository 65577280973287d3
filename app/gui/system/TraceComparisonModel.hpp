#pragma once

#include "tables/RecordTableModel.hpp"
#include "tilescope/report/ReportComparison.hpp"

#include <memory>

namespace tilescope::gui {

class HostTraceSession;

/// The table of the system analyser's Compare view: the events of two host traces matched by
/// name (reportfmt's compareHostTraces, one grouped pass over each trace), one row per name with
/// its count, total and mean duration in trace A (the baseline) and trace B and their differences,
/// absolute and in percent of A. Computed on a worker by compute(); sortable by the raw values
/// (Qt::UserRole). A name only one trace has is "added" or "removed" and its other side is 0.
class TraceComparisonModel : public RecordTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Status,
        CountA,
        CountB,
        CountChange,
        CountPercent,
        TotalA,
        TotalB,
        TotalChange,
        TotalPercent,
        MeanA,
        MeanB,
        MeanChange,
        MeanPercent,
        ColumnCount
    };

    TraceComparisonModel(std::shared_ptr<HostTraceSession> a, std::shared_ptr<HostTraceSession> b,
                         QObject* parent = nullptr);

    void compute();
    bool isLoaded() const { return loaded_; }
    bool isComputing() const { return computing_; }
    const report::HostTraceComparison& comparison() const { return comparison_; }
    const HostTraceSession& traceA() const { return *a_; }
    const HostTraceSession& traceB() const { return *b_; }

    /// The table's rows for a comparison (public for tests).
    static std::vector<Row> rowsOf(const report::HostTraceComparison& comparison);

signals:
    void loaded();
    void failed(const QString& message);

private:
    std::shared_ptr<HostTraceSession> a_, b_;
    report::HostTraceComparison comparison_;
    bool loaded_ = false;
    bool computing_ = false;
};

} // namespace tilescope::gui
