// ProfileReader's queries for debug information: one operation, and the operations that created
// a program or a variable, each with its DebugInfo values (operation_debug, format v5).

#include "ProfileReaderDetail.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <string>

namespace tilescope::report {
namespace {

std::vector<OperationRecord> operationsWhere(const sql::Database& db, const std::string& where,
                                             std::int64_t id) {
    auto st = db.prepare(std::string(detail::kOperationColumns) + where + " ORDER BY o.id");
    st.bind(1, id);
    std::vector<OperationRecord> out;
    while (st.step())
        out.push_back(detail::operationColumnsFrom(st));
    return out;
}

} // namespace

OperationRecord ProfileReader::operation(std::int64_t id) const {
    auto ops = operationsWhere(file_.database(), "WHERE o.id = ?", id);
    if (ops.empty())
        throw ReportError(path(), "has no operation " + std::to_string(id));
    return std::move(ops.front());
}

std::vector<OperationRecord> ProfileReader::operationsOfProgram(std::int64_t programId) const {
    return operationsWhere(file_.database(),
                           "WHERE o.id IN (SELECT operation_id FROM operation_program "
                           "WHERE program_id = ?)",
                           programId);
}

std::vector<OperationRecord> ProfileReader::operationsOfVariable(std::int64_t variableId) const {
    return operationsWhere(file_.database(),
                           "WHERE o.id IN (SELECT operation_id FROM operation_variable "
                           "WHERE variable_id = ?)",
                           variableId);
}

} // namespace tilescope::report
