#include "ProgramCompareModel.hpp"

#include "tilescope/report/StructureComparison.hpp"

namespace tilescope::gui {
namespace {

std::vector<RecordTableModel::Column> columns() {
    std::vector<RecordTableModel::Column> c{
        ComparisonTableModel::textColumn(QObject::tr("Program")),
        ComparisonTableModel::textColumn(QObject::tr("Kind")),
        ComparisonTableModel::textColumn(QObject::tr("Debug path")),
        ComparisonTableModel::textColumn(QObject::tr("Status"))};
    for (const auto& [prefix, format] :
         {std::pair{QObject::tr("Code "), &RecordTableModel::bytesCell},
          std::pair{QObject::tr("Est. cycles "), &RecordTableModel::countCell},
          std::pair{QObject::tr("Run cycles "), &RecordTableModel::countCell}})
        for (auto& v : ComparisonTableModel::valueColumns(prefix, format))
            c.push_back(std::move(v));
    return c;
}

} // namespace

ProgramCompareModel::ProgramCompareModel(std::shared_ptr<CompareSession> session, QObject* parent)
    : StructureTableModel(columns(), Status, {Code + 2, Estimated + 2, Executed + 2}, parent) {
    load(std::move(session), [](report::StructureComparison& s) {
        const report::ProgramComparison& p = s.programs();
        Result r;
        r.rows.reserve(p.rows.size());
        for (const report::ProgramDelta& d : p.rows) {
            Row row{QString(int(d.depth) * 2, QLatin1Char(' ')) + QString::fromStdString(d.name),
                    QString::fromStdString(d.kind), QString::fromStdString(d.debugPath),
                    statusText(d.status)};
            appendValue(row, d.codeBytes);
            appendValue(row, d.estimatedCycles);
            appendValue(row, d.executedCycles);
            r.rows.push_back(std::move(row));
        }
        r.summary = tr("%1 programs matched by name path and debug path, %2 added, %3 removed")
                        .arg(p.matched)
                        .arg(p.added)
                        .arg(p.removed);
        return r;
    });
}

} // namespace tilescope::gui
