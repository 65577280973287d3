#include "SchemaMigration.hpp"

#include "lod/LivenessPyramid.hpp"

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

namespace {

// Creates a table of the current schema in the temp database.
void createInTemp(sql::Database& db, std::string_view table, FileKind kind = FileKind::Profile) {
    for (const SchemaObject& o :
         kind == FileKind::Profile ? Schema::profile() : Schema::hostTrace()) {
        if (o.name == table) {
            std::string ddl(o.sql);
            ddl.replace(0, std::string("CREATE TABLE ").size(), "CREATE TEMP TABLE ");
            db.exec(ddl);
        }
    }
}

} // namespace

void upgradeInTemp(sql::Database& db, FileKind kind, int version) {
    if (kind == FileKind::HostTrace) {
        // v1 -> v2: no async tracks or flows were recorded (empty tables).
        if (version < 2)
            for (const char* table : {"async_track", "async_slice", "flow"})
                createInTemp(db, table, FileKind::HostTrace);
        // v2 -> v3: no heatmaps were recorded (empty tables).
        if (version < 3)
            for (const char* table : {"heatmap", "heatmap_sample"})
                createInTemp(db, table, FileKind::HostTrace);
        return;
    }
    // v1 -> v2: liveness_lod did not exist; the same routine the writer uses computes it.
    if (version < 2) {
        createInTemp(db, "liveness_lod");
        detail::buildLivenessPyramid(db, "temp");
    }
    // v2 -> v3: run_ipu_lod did not exist. It is computed from run_step.per_ipu by the writer's
    // pyramid, but a run at a time when ProfileReader::runIpuLod first needs it: it scans every
    // executed step, which at open would make opening (remote files above all) grow with the run.
    if (version < 3)
        createInTemp(db, "run_ipu_lod");
    // v3 -> v4: tile_placement did not exist; those files record no placement (an empty table).
    if (version < 4)
        createInTemp(db, "tile_placement");
    // v4 -> v5: block and operation_debug did not exist; those files record no blocks and no
    // debug information (empty tables).
    if (version < 5) {
        createInTemp(db, "block");
        createInTemp(db, "operation_debug");
    }
}

} // namespace tilescope::report::migration
