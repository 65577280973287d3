#pragma once
// The variable table's rows as VariableRecords, shared by the reader's files (ProfileReader.cpp,
// ProfileReaderOperations.cpp) so the column list and its decoding exist once.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileTypes.hpp"

#include <string>

namespace tilescope::report::detail {

/// SELECT of every variable column followed by `rest` (WHERE/ORDER BY/LIMIT). The per-tile blob
/// is selected only when wanted: a sort would otherwise carry every blob through SQLite's sorter.
std::string variableRowQuery(bool withPerTile, const std::string& rest);

/// One row of a variableRowQuery() statement.
VariableRecord variableRowFrom(const sql::Statement& st, bool withPerTile);

} // namespace tilescope::report::detail
