#pragma once

#include "RecordTableModel.hpp"

#include <functional>
#include <memory>

namespace tilescope::report {
class ProfileReader;
}

namespace tilescope::gui {

class ReportSession;

/// A RecordTableModel filled once from the report by a query run on a worker thread: the
/// report-wide tables of the Memory view (largest exchange steps, largest variables). The
/// factories below define what each one reads; `limit` caps the rows kept, and limitReached()
/// says when the report has more.
class ReportTableModel : public RecordTableModel {
    Q_OBJECT
public:
    using Query = std::function<std::vector<Row>(const report::ProfileReader&)>;

    ReportTableModel(std::shared_ptr<ReportSession> session, std::vector<Column> columns,
                     Query query, int limit, QObject* parent = nullptr);

    /// Starts the query; later calls do nothing (the table is read once).
    void load();
    bool isLoaded() const { return loaded_; }
    int limit() const { return limit_; }
    bool limitReached() const { return rowCount() >= limit_; }

signals:
    void loadedChanged();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    Query query_;
    int limit_;
    bool requested_ = false;
    bool loaded_ = false;
};

/// Columns of an exchange-step table: program, kind, bytes, estimated cycles, step id.
std::vector<RecordTableModel::Column> exchangeStepColumns();
/// Rows of exchangeStepColumns() for the `limit` largest exchange steps.
std::vector<RecordTableModel::Row> largestExchangeRows(const report::ProfileReader& reader,
                                                       int limit);
/// Variables of every kind, largest first, in variableColumns().
ReportTableModel* newVariablesModel(std::shared_ptr<ReportSession> session, int limit,
                                    QObject* parent);

} // namespace tilescope::gui
