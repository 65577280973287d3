#pragma once
// Older files open read-only through migrations that run in the connection's temp schema: a table
// added in a later version is created as a TEMP table computed from the old file's data, found by
// unqualified names, so reader code only knows the current schema and the file is never modified.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/Schema.hpp"

#include <vector>

namespace tilescope::report::migration {

/// The exact schema objects a file of `kind` written at `version` contains.
std::vector<SchemaObject> schemaOf(FileKind kind, int version);
/// Brings an opened file of `version` up to the current schema in the temp database.
void upgradeInTemp(sql::Database& db, FileKind kind, int version);

} // namespace tilescope::report::migration
