#include "ReportTableModel.hpp"

#include "VariableRows.hpp"
#include "core/Background.hpp"
#include "core/ReportSession.hpp"

namespace tilescope::gui {

ReportTableModel::ReportTableModel(std::shared_ptr<ReportSession> session,
                                   std::vector<Column> columns, Query query, int limit,
                                   QObject* parent)
    : RecordTableModel(std::move(columns), parent), session_(std::move(session)),
      query_(std::move(query)), limit_(limit) {}

void ReportTableModel::load() {
    if (requested_)
        return;
    requested_ = true;
    auto session = session_;
    auto query = query_;
    runInBackground<std::vector<Row>>(
        this, [session, query] { return session->read(query); },
        [this](std::vector<Row> rows) {
            setRows(std::move(rows));
            loaded_ = true;
            emit loadedChanged();
        },
        [this](const QString& message) { emit failed(message); });
}

std::vector<RecordTableModel::Column> exchangeStepColumns() {
    return {{ReportTableModel::tr("Program"), {}, false},
            {ReportTableModel::tr("Kind"), {}, false},
            {ReportTableModel::tr("Bytes"), RecordTableModel::bytesCell, true},
            {ReportTableModel::tr("Cycles"), RecordTableModel::countCell, true},
            {ReportTableModel::tr("Step"), RecordTableModel::countCell, true}};
}

std::vector<RecordTableModel::Row> largestExchangeRows(const report::ProfileReader& reader,
                                                       int limit) {
    std::vector<RecordTableModel::Row> rows;
    for (const report::NamedStep& n : reader.largestExchangeSteps(limit))
        rows.push_back({QString::fromStdString(n.program), QString::fromStdString(n.step.kind),
                        RecordTableModel::u64(n.step.exchangeBytes),
                        RecordTableModel::u64(n.step.estimatedCycles),
                        QVariant::fromValue<qlonglong>(n.step.id)});
    return rows;
}

ReportTableModel* newVariablesModel(std::shared_ptr<ReportSession> session, int limit,
                                    QObject* parent) {
    return new ReportTableModel(
        std::move(session), variableColumns(),
        [limit](const report::ProfileReader& reader) {
            const auto labels = categoryLabels(reader.memoryCategories());
            std::vector<RecordTableModel::Row> rows;
            for (const report::VariableRecord& v : reader.largestVariables(limit))
                rows.push_back(variableRow(v, labels));
            return rows;
        },
        limit, parent);
}

} // namespace tilescope::gui
