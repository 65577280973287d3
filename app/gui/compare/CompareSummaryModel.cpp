#include "CompareSummaryModel.hpp"

#include "CompareSession.hpp"

namespace tilescope::gui {
namespace {

using Column = RecordTableModel::Column;
using report::ComparedValue;

std::vector<Column> withValues(std::vector<Column> leading, const QString& prefix,
                               std::function<QString(const QVariant&)> format) {
    for (auto& c : ComparisonTableModel::valueColumns(prefix, std::move(format)))
        leading.push_back(std::move(c));
    return leading;
}

std::vector<Column> join(std::vector<Column> a, std::vector<Column> b) {
    for (auto& c : b)
        a.push_back(std::move(c));
    return a;
}

QString headline(const QString& role, const ReportSession& session) {
    const report::ProfileSummary& s = session.summary();
    QString text = QStringLiteral("<b>%1:</b> %2")
                       .arg(role, QString::fromStdString(session.path()).toHtmlEscaped());
    if (!s.engineName.empty())
        text += QStringLiteral(" — %1").arg(QString::fromStdString(s.engineName).toHtmlEscaped());
    if (!s.createdUtc.empty())
        text += QStringLiteral(", %1").arg(QString::fromStdString(s.createdUtc));
    if (!s.complete)
        text += QObject::tr(", <i>incomplete</i>");
    if (s.outOfMemory)
        text += QObject::tr(", <b style='color:#c62828'>out of memory (%1 tiles over capacity)</b>")
                    .arg(s.tilesOverCapacity);
    return text;
}

} // namespace

CompareSummaryModel::CompareSummaryModel(std::shared_ptr<CompareSession> session, QObject* parent)
    : QObject(parent), memory_(withValues({ComparisonTableModel::textColumn(tr("Figure"))}, {},
                                          RecordTableModel::bytesCell),
                               -1, {3}),
      counts_(withValues({ComparisonTableModel::textColumn(tr("Figure"))}, {},
                         RecordTableModel::countCell),
              -1, {3}),
      categories_(join(withValues({ComparisonTableModel::textColumn(tr("Category")),
                                   ComparisonTableModel::textColumn(tr("Status"))},
                                  {}, RecordTableModel::bytesCell),
                       ComparisonTableModel::valueColumns(tr("Fullest tile "),
                                                          RecordTableModel::bytesCell)),
                  1, {4, 8}),
      regions_(join(withValues({ComparisonTableModel::textColumn(tr("Region"))}, tr("With gaps "),
                               RecordTableModel::bytesCell),
                    ComparisonTableModel::valueColumns(tr("Without gaps "),
                                                       RecordTableModel::bytesCell)),
               -1, {3, 7}),
      runs_(join(withValues({{tr("Run"), RecordTableModel::countCell, true},
                             ComparisonTableModel::textColumn(tr("Status"))},
                            tr("Cycles "), RecordTableModel::countCell),
                 ComparisonTableModel::valueColumns(tr("Steps "), RecordTableModel::countCell)),
            1, {4, 8}),
      targetDifferences_({ComparisonTableModel::textColumn(tr("Property")),
                          ComparisonTableModel::textColumn(tr("Source")),
                          ComparisonTableModel::textColumn(tr("Target"))}) {
    const report::SummaryComparison& c = session->summary();
    using Row = RecordTableModel::Row;
    auto figureRows = [](const std::vector<report::ComparedFigure>& figures, bool bytes) {
        std::vector<Row> rows;
        for (const auto& f : figures) {
            if ((f.unit == "bytes") != bytes)
                continue;
            Row r{QString::fromStdString(f.label)};
            ComparisonTableModel::appendValue(r, f.value);
            rows.push_back(std::move(r));
        }
        return rows;
    };
    memory_.setRows(figureRows(c.memory, true));
    std::vector<Row> counts = figureRows(c.memory, false);
    for (Row& r : figureRows(c.counts, false))
        counts.push_back(std::move(r));
    counts_.setRows(std::move(counts));

    auto status = [](const ComparedValue& v) {
        return ComparisonTableModel::statusText(
            v.inSource && v.inTarget
                ? report::MatchStatus::Matched
                : (v.inSource ? report::MatchStatus::Removed : report::MatchStatus::Added));
    };
    std::vector<Row> categories;
    for (const auto& cat : c.categories) {
        Row r{QString::fromStdString(cat.label.empty() ? cat.name : cat.label), status(cat.bytes)};
        ComparisonTableModel::appendValue(r, cat.bytes);
        ComparisonTableModel::appendValue(r, cat.maxTileBytes);
        categories.push_back(std::move(r));
    }
    categories_.setRows(std::move(categories));

    std::vector<Row> regions;
    for (const auto& region : c.regions) {
        Row r{QString::fromStdString(region.name)};
        ComparisonTableModel::appendValue(r, region.bytesIncludingGaps);
        ComparisonTableModel::appendValue(r, region.bytesExcludingGaps);
        regions.push_back(std::move(r));
    }
    regions_.setRows(std::move(regions));

    std::vector<Row> runs;
    for (const auto& run : c.runs) {
        Row r{QVariant::fromValue<qulonglong>(run.position + 1), status(run.cycles)};
        ComparisonTableModel::appendValue(r, run.cycles);
        ComparisonTableModel::appendValue(r, run.steps);
        runs.push_back(std::move(r));
    }
    runs_.setRows(std::move(runs));

    std::vector<Row> differences;
    for (const auto& d : c.targetDifferences)
        differences.push_back({QString::fromStdString(d.field), QString::fromStdString(d.source),
                               QString::fromStdString(d.target)});
    targetDifferences_.setRows(std::move(differences));

    sourceHeadline_ = headline(tr("Source"), session->source());
    targetHeadline_ = headline(tr("Target"), session->target());
}

} // namespace tilescope::gui
