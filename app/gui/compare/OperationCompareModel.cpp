#include "OperationCompareModel.hpp"

#include "tilescope/report/StructureComparison.hpp"

namespace tilescope::gui {
namespace {

std::vector<RecordTableModel::Column> columns() {
    std::vector<RecordTableModel::Column> c{
        ComparisonTableModel::textColumn(QObject::tr("Operation")),
        ComparisonTableModel::textColumn(QObject::tr("Layer")),
        ComparisonTableModel::textColumn(QObject::tr("Debug path")),
        ComparisonTableModel::textColumn(QObject::tr("Status"))};
    for (const auto& [prefix, format] :
         {std::pair{QObject::tr("Est. cycles "), &RecordTableModel::countCell},
          std::pair{QObject::tr("Run cycles "), &RecordTableModel::countCell},
          std::pair{QObject::tr("Code "), &RecordTableModel::bytesCell},
          std::pair{QObject::tr("Variables "), &RecordTableModel::bytesCell},
          std::pair{QObject::tr("FLOPs "), &RecordTableModel::countCell}})
        for (auto& v : ComparisonTableModel::valueColumns(prefix, format))
            c.push_back(std::move(v));
    return c;
}

} // namespace

OperationCompareModel::OperationCompareModel(std::shared_ptr<CompareSession> session,
                                             QObject* parent)
    : StructureTableModel(columns(), Status,
                          {Estimated + 2, Executed + 2, Code + 2, Variables + 2, Flops + 2},
                          parent) {
    load(std::move(session), [](report::StructureComparison& s) {
        const report::OperationComparison& o = s.operations();
        Result r;
        r.rows.reserve(o.rows.size());
        for (const report::OperationDelta& d : o.rows) {
            Row row{QString::fromStdString(d.name), QString::fromStdString(d.layer),
                    QString::fromStdString(d.debugPath), statusText(d.status)};
            appendValue(row, d.estimatedCycles);
            appendValue(row, d.executedCycles);
            appendValue(row, d.codeBytes);
            appendValue(row, d.variableBytes);
            appendValue(row, d.flops);
            r.rows.push_back(std::move(row));
        }
        r.summary = tr("%1 operations matched by name and debug path, %2 added, %3 removed")
                        .arg(o.matched)
                        .arg(o.added)
                        .arg(o.removed);
        return r;
    });
}

} // namespace tilescope::gui
