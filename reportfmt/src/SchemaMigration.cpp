#include "SchemaMigration.hpp"

namespace tilescope::report::migration {

std::span<const SchemaObject> schemaOf(FileKind kind, int /*version*/) {
    return kind == FileKind::Profile ? Schema::profile() : Schema::hostTrace();
}

void upgradeInTemp(sql::Database& /*db*/, FileKind /*kind*/, int /*version*/) {}

} // namespace tilescope::report::migration
