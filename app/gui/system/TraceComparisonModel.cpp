#include "TraceComparisonModel.hpp"

#include "HostTraceSession.hpp"
#include "core/Background.hpp"
#include "core/Format.hpp"

#include <cmath>

namespace tilescope::gui {
namespace {

QString durationCell(const QVariant& v) {
    return formatDuration(v.toDouble());
}

QString signedDurationCell(const QVariant& v) {
    const double ns = v.toDouble();
    return (ns > 0 ? QStringLiteral("+") : QString()) + formatDuration(ns);
}

QString signedCountCell(const QVariant& v) {
    const auto n = v.toLongLong();
    return (n > 0 ? QStringLiteral("+") : QString()) + formatCount(n);
}

/// A change in percent of A (a cell without value, where A is 0 and no ratio exists, is empty).
QString changePercentCell(const QVariant& v) {
    return QStringLiteral("%1%2%")
        .arg(v.toDouble() > 0 ? QStringLiteral("+") : QString())
        .arg(v.toDouble(), 0, 'f', 1);
}

QVariant percentOf(double a, double b) {
    if (a == 0)
        return {};
    return (b - a) / a * 100.0;
}

std::vector<RecordTableModel::Column> columns() {
    return {{QObject::tr("Name"), {}, false},
            {QObject::tr("Status"), {}, false},
            {QObject::tr("Count A"), RecordTableModel::countCell, true},
            {QObject::tr("Count B"), RecordTableModel::countCell, true},
            {QObject::tr("Δ Count"), signedCountCell, true},
            {QObject::tr("Δ Count %"), changePercentCell, true},
            {QObject::tr("Total A"), durationCell, true},
            {QObject::tr("Total B"), durationCell, true},
            {QObject::tr("Δ Total"), signedDurationCell, true},
            {QObject::tr("Δ Total %"), changePercentCell, true},
            {QObject::tr("Mean A"), durationCell, true},
            {QObject::tr("Mean B"), durationCell, true},
            {QObject::tr("Δ Mean"), signedDurationCell, true},
            {QObject::tr("Δ Mean %"), changePercentCell, true}};
}

} // namespace

TraceComparisonModel::TraceComparisonModel(std::shared_ptr<HostTraceSession> a,
                                           std::shared_ptr<HostTraceSession> b, QObject* parent)
    : RecordTableModel(columns(), parent), a_(std::move(a)), b_(std::move(b)) {}

std::vector<RecordTableModel::Row>
TraceComparisonModel::rowsOf(const report::HostTraceComparison& comparison) {
    std::vector<Row> rows;
    rows.reserve(comparison.events.size());
    for (const auto& e : comparison.events) {
        const auto countA = double(e.count.source), countB = double(e.count.target);
        const auto totalA = double(e.totalNs.source), totalB = double(e.totalNs.target);
        Row row(ColumnCount);
        row[Name] = QString::fromStdString(e.name);
        row[Status] = QString::fromLatin1(report::matchStatusName(e.status));
        row[CountA] = u64(e.count.source);
        row[CountB] = u64(e.count.target);
        row[CountChange] = qlonglong(e.count.difference());
        row[CountPercent] = percentOf(countA, countB);
        row[TotalA] = totalA;
        row[TotalB] = totalB;
        row[TotalChange] = totalB - totalA;
        row[TotalPercent] = percentOf(totalA, totalB);
        row[MeanA] = e.sourceMeanNs;
        row[MeanB] = e.targetMeanNs;
        row[MeanChange] = e.targetMeanNs - e.sourceMeanNs;
        // A mean exists only where its trace has timed events of the name.
        row[MeanPercent] = e.timedCount.source > 0 && e.timedCount.target > 0
                               ? percentOf(e.sourceMeanNs, e.targetMeanNs)
                               : QVariant();
        rows.push_back(std::move(row));
    }
    return rows;
}

void TraceComparisonModel::compute() {
    computing_ = true;
    runInBackground<report::HostTraceComparison>(
        this,
        [a = a_, b = b_] {
            return a->readLong([&](const report::HostTraceReader& ra) {
                return b->readLong([&](const report::HostTraceReader& rb) {
                    return report::compareHostTraces(ra, rb);
                });
            });
        },
        [this](report::HostTraceComparison comparison) {
            comparison_ = std::move(comparison);
            setRows(rowsOf(comparison_));
            computing_ = false;
            loaded_ = true;
            emit loaded();
        },
        [this](const QString& message) {
            computing_ = false;
            emit failed(message);
        });
}

} // namespace tilescope::gui
