// ProfileReader's queries for debug information: one operation, and the operations that created
// a program or a variable, each with its DebugInfo values (operation_debug, format v5).

#include "ProfileReaderDetail.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <string>

namespace tilescope::report {
namespace {

constexpr const char* kOperationColumns =
    "SELECT o.id, n.text, d.text, o.layer, o.flops, g.info FROM operation o "
    "LEFT JOIN name n ON n.id = o.name_id LEFT JOIN name d ON d.id = o.debug_path_id "
    "LEFT JOIN operation_debug g ON g.operation_id = o.id ";

std::vector<OperationRecord> operationsWhere(const sql::Database& db, const std::string& where,
                                             std::int64_t id) {
    auto st = db.prepare(std::string(kOperationColumns) + where + " ORDER BY o.id");
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
