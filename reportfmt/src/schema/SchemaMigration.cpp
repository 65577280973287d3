#include "SchemaMigration.hpp"

#include "EventBlockRows.hpp"
#include "lod/LivenessPyramid.hpp"
#include "tilescope/report/ReportError.hpp"

#include <fmt/format.h>
#include <string>

namespace tilescope::report::migration {

std::vector<SchemaObject> schemaOf(FileKind kind, int version) {
    std::vector<SchemaObject> out;
    for (const SchemaObject& o :
         kind == FileKind::Profile ? Schema::profile() : Schema::hostTrace())
        if (o.inVersion(version))
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
            if (o.type == "table")
                ddl.replace(0, std::string("CREATE TABLE ").size(), "CREATE TEMP TABLE ");
            // An index on a temp table is created in the temp schema with it.
            db.exec(ddl);
        }
    }
}

// v1-v3 -> v4: the event rows, packed into temp event_block rows by the writer's encoder, track
// by track in start order. Their ids were given in call order, interleaved across tracks, so the
// blocks store them explicitly (HostEvent::id stays what the old reader returned).
void packEventRows(sql::Database& db) {
    createInTemp(db, "event_block", FileKind::HostTrace);
    auto rows = db.prepare("SELECT id, thread_id, depth, channel_id, name_id, kind, start_ns, "
                           "end_ns FROM main.event ORDER BY thread_id, depth, start_ns, id");
    detail::EventBlockInserter blocks(db, "temp.event_block");
    detail::EventBlockEncoder block(/*explicitIds=*/true);
    std::int64_t thread = 0, depth = 0, firstId = 0;
    auto store = [&] { blocks.store(thread, depth, firstId, block); };
    while (rows.step()) {
        const std::int64_t t = rows.int64(1), d = rows.int64(2);
        if (block.full() || (!block.empty() && (t != thread || d != depth)))
            store();
        if (block.empty()) {
            thread = t;
            depth = d;
            firstId = rows.int64(0);
        }
        const std::int64_t id = rows.int64(0), kind = rows.int64(5), start = rows.int64(6);
        const bool complete = kind == static_cast<std::int64_t>(EventKind::Complete);
        if (kind < 0 || kind > static_cast<std::int64_t>(EventKind::Unfinished) ||
            (complete && (rows.isNull(7) || rows.int64(7) < start)))
            throw ReportError(db.path(), fmt::format("file is damaged (event {} has kind {} and "
                                                     "ends before it starts or never)",
                                                     id, kind));
        block.add(rows.int64(3), rows.int64(4), static_cast<EventKind>(kind), start,
                  complete ? rows.int64(7) : start, id);
    }
    store();
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
        // v3 -> v4: events move from one row each to packed blocks.
        if (version < 4)
            packEventRows(db);
        // v4 -> v5: no tracepoint metadata was recorded (an empty table).
        if (version < 5)
            createInTemp(db, "event_metadata", FileKind::HostTrace);
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
    // v5 -> v6: tile_allocation did not exist; those files record no memory map (an empty table).
    if (version < 6)
        createInTemp(db, "tile_allocation");
}

} // namespace tilescope::report::migration
