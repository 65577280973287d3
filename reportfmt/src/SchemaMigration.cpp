#include "SchemaMigration.hpp"

#include "LivenessPyramid.hpp"

#include <string>

namespace tilescope::report::migration {

std::vector<SchemaObject> schemaOf(FileKind kind, int version) {
    std::vector<SchemaObject> out;
    for (const SchemaObject& o :
         kind == FileKind::Profile ? Schema::profile() : Schema::hostTrace())
        if (o.sinceVersion <= version)
            out.push_back(o);
    return out;
}

void upgradeInTemp(sql::Database& db, FileKind kind, int version) {
    if (kind != FileKind::Profile)
        return;
    // v1 -> v2: liveness_lod did not exist; the same routine the writer uses computes it.
    if (version < 2) {
        for (const SchemaObject& o : Schema::profile()) {
            if (o.name == "liveness_lod") {
                std::string ddl(o.sql);
                ddl.replace(0, std::string("CREATE TABLE ").size(), "CREATE TEMP TABLE ");
                db.exec(ddl);
            }
        }
        detail::buildLivenessPyramid(db, "temp");
    }
}

} // namespace tilescope::report::migration
