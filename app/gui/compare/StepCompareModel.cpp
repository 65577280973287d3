#include "StepCompareModel.hpp"

#include "core/Format.hpp"
#include "tilescope/report/StructureComparison.hpp"

#include <unordered_map>

namespace tilescope::gui {
namespace {

std::vector<RecordTableModel::Column> columns(StepCompareModel::Kind kind) {
    const bool bytes = kind == StepCompareModel::Kind::Liveness;
    std::vector<RecordTableModel::Column> c{
        {QObject::tr("Rank"), RecordTableModel::countCell, true},
        ComparisonTableModel::textColumn(QObject::tr("Step (program | compute set | kind)")),
        ComparisonTableModel::textColumn(QObject::tr("Status")),
        {bytes ? QObject::tr("Source step") : QObject::tr("Source #"), RecordTableModel::countCell,
         true},
        {bytes ? QObject::tr("Target step") : QObject::tr("Target #"), RecordTableModel::countCell,
         true}};
    for (auto& v : ComparisonTableModel::valueColumns(
             bytes ? QObject::tr("Not-always-live ") : QObject::tr("Cycles "),
             bytes ? &RecordTableModel::bytesCell : &RecordTableModel::countCell))
        c.push_back(std::move(v));
    return c;
}

/// The step identities of an alignment as text, shared by the table and the canvas tooltips.
struct StepLabels {
    std::vector<std::int32_t> keyOfPoint;
    std::unordered_map<std::int32_t, QString> text;
};

QVariant position(const std::optional<std::int64_t>& p) {
    return p ? QVariant::fromValue<qlonglong>(*p) : QVariant();
}

} // namespace

StepCompareModel::StepCompareModel(std::shared_ptr<CompareSession> session, Kind kind,
                                   QObject* parent)
    : StructureTableModel(columns(kind), Status, {Value + 2}, parent), kind_(kind) {
    load(std::move(session), [kind](report::StructureComparison& s) {
        const bool liveness = kind == Kind::Liveness;
        const report::StepAlignment& a =
            liveness ? s.liveness().alignment : s.execution().alignment;
        Result r;
        auto series = std::make_shared<CompareSeries>();
        auto labels = std::make_shared<StepLabels>();
        series->source.resize(a.steps.size());
        series->target.resize(a.steps.size());
        series->presence.resize(a.steps.size());
        labels->keyOfPoint.resize(a.steps.size());
        for (std::size_t i = 0; i < a.steps.size(); ++i) {
            const report::AlignedStep& step = a.steps[i];
            series->source[i] = double(step.sourceValue);
            series->target[i] = double(step.targetValue);
            series->presence[i] = std::uint8_t((step.source ? 1 : 0) | (step.target ? 2 : 0));
            labels->keyOfPoint[i] = step.key;
            if (!labels->text.count(step.key))
                labels->text.emplace(step.key, QString::fromStdString(s.keyLabel(step.key)));
        }
        const std::size_t rows = std::min(kRows, a.byRegression.size());
        r.rows.reserve(rows);
        for (std::size_t rank = 0; rank < rows; ++rank) {
            const report::AlignedStep& step = a.steps[a.byRegression[rank]];
            Row row{QVariant::fromValue<qulonglong>(rank + 1), labels->text.at(step.key),
                    statusText(step.status()), position(step.source), position(step.target)};
            report::ComparedValue v;
            v.source = step.sourceValue;
            v.target = step.targetValue;
            v.inSource = bool(step.source);
            v.inTarget = bool(step.target);
            appendValue(row, v);
            r.rows.push_back(std::move(row));
        }
        r.summary = tr("%1 steps matched by program identity, %2 added, %3 removed.")
                        .arg(a.matched)
                        .arg(a.added)
                        .arg(a.removed);
        if (liveness) {
            // Memory live at each step is a level, not an amount: a sum over steps means
            // nothing, the peak and the mean per step do.
            const auto& peak = s.liveness().peakNotAlwaysLiveBytes;
            std::size_t sourceSteps = 0, targetSteps = 0;
            for (const report::AlignedStep& step : a.steps) {
                sourceSteps += step.source ? 1 : 0;
                targetSteps += step.target ? 1 : 0;
            }
            const auto mean = [](std::uint64_t total, std::size_t steps) {
                return steps ? formatBytes(double(total) / double(steps)) : tr("no steps");
            };
            r.summary +=
                tr(" Not-always-live memory at the peak step: %1 → %2; mean per step: %3 → %4.")
                    .arg(formatBytes(double(peak.source)), formatBytes(double(peak.target)),
                         mean(a.total.source, sourceSteps), mean(a.total.target, targetSteps));
        } else {
            r.summary += tr(" Total cycles: %1 → %2.")
                             .arg(formatCount(std::int64_t(a.total.source)),
                                  formatCount(std::int64_t(a.total.target)));
            const auto& e = s.execution();
            if (!e.sourceRun || !e.targetRun)
                r.summary += tr(" %1 has no run: its side is empty.")
                                 .arg(!e.sourceRun ? tr("The source") : tr("The target"));
        }
        r.series = std::move(series);
        r.pointLabel = [labels](std::size_t i) {
            return i < labels->keyOfPoint.size() ? labels->text.at(labels->keyOfPoint[i])
                                                 : QString();
        };
        return r;
    });
}

} // namespace tilescope::gui
