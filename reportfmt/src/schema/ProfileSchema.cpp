// Schema of profile.pop, version 1. Units: bytes, cycles, nanoseconds since the Unix epoch (host
// times). Per-tile columns are TileSeries blobs indexed by global tile (ipu * tiles_per_ipu +
// tile). Every statement here is compared verbatim with sqlite_schema when a file is opened: change
// a statement only together with a version bump and a migration (see SchemaMigration.cpp).

#include "tilescope/report/Schema.hpp"

namespace tilescope::report {
namespace {

constexpr SchemaObject kProfile[] = {
    {"table", "metadata",
     "CREATE TABLE metadata(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID",
     false},
    {"table", "engine_option",
     "CREATE TABLE engine_option(name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL, "
     "source TEXT NOT NULL, applies INTEGER NOT NULL) WITHOUT ROWID",
     false},
    {"table", "name", "CREATE TABLE name(id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)",
     false},
    {"table", "target",
     "CREATE TABLE target(id INTEGER PRIMARY KEY CHECK(id = 1), type TEXT NOT NULL, "
     "ipu_version TEXT NOT NULL, num_ipus INTEGER NOT NULL, tiles_per_ipu INTEGER NOT NULL, "
     "bytes_per_tile INTEGER NOT NULL, clock_hz REAL NOT NULL, replicas INTEGER NOT NULL, "
     "worker_contexts INTEGER NOT NULL, exchange_bytes_per_cycle INTEGER NOT NULL)",
     false},
    {"table", "memory_region",
     "CREATE TABLE memory_region(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
     "interleaved INTEGER NOT NULL, start_offset INTEGER NOT NULL, size_bytes INTEGER NOT NULL)",
     false},
    {"table", "memory_category",
     "CREATE TABLE memory_category(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
     "label TEXT NOT NULL, grp TEXT NOT NULL, liveness TEXT NOT NULL)",
     false},
    {"table", "tile_memory",
     "CREATE TABLE tile_memory(category_id INTEGER NOT NULL, region_id INTEGER NOT NULL, "
     "total_bytes INTEGER NOT NULL, max_tile_bytes INTEGER NOT NULL, per_tile BLOB NOT NULL, "
     "PRIMARY KEY(category_id, region_id)) WITHOUT ROWID",
     false},
    {"table", "program",
     "CREATE TABLE program(id INTEGER PRIMARY KEY, parent_id INTEGER, position INTEGER NOT NULL, "
     "kind TEXT NOT NULL, name_id INTEGER NOT NULL, debug_id INTEGER, compute_set_id INTEGER, "
     "repeat_count INTEGER, callee_id INTEGER, code_bytes INTEGER NOT NULL, code_per_tile BLOB)",
     false},
    {"index", "program_by_parent", "CREATE INDEX program_by_parent ON program(parent_id, position)",
     false},
    {"table", "control_program",
     "CREATE TABLE control_program(idx INTEGER PRIMARY KEY, program_id INTEGER NOT NULL, "
     "is_function INTEGER NOT NULL, name_id INTEGER NOT NULL)",
     false},
    {"table", "step",
     "CREATE TABLE step(id INTEGER PRIMARY KEY, program_id INTEGER NOT NULL, kind TEXT NOT NULL, "
     "phase TEXT NOT NULL, compute_set_id INTEGER, exchange_bytes INTEGER NOT NULL, "
     "estimated_cycles INTEGER NOT NULL, estimated_per_tile BLOB, "
     "not_always_live_bytes INTEGER NOT NULL, max_tile_not_always_live_bytes INTEGER NOT NULL)",
     false},
    {"index", "step_by_program", "CREATE INDEX step_by_program ON step(program_id)", false},
    {"table", "compute_set",
     "CREATE TABLE compute_set(id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL, "
     "debug_id INTEGER, num_vertices INTEGER NOT NULL)",
     false},
    {"table", "vertex_type",
     "CREATE TABLE vertex_type(id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL UNIQUE, "
     "state_bytes INTEGER NOT NULL, code_bytes INTEGER NOT NULL)",
     false},
    {"table", "vertex_instances",
     "CREATE TABLE vertex_instances(compute_set_id INTEGER NOT NULL, "
     "vertex_type_id INTEGER NOT NULL, count INTEGER NOT NULL, per_tile BLOB NOT NULL, "
     "PRIMARY KEY(compute_set_id, vertex_type_id)) WITHOUT ROWID",
     false},
    {"table", "variable",
     "CREATE TABLE variable(id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL, debug_id INTEGER, "
     "element_type TEXT NOT NULL, num_elements INTEGER NOT NULL, bytes INTEGER NOT NULL, "
     "category_id INTEGER NOT NULL, region_id INTEGER NOT NULL, always_live INTEGER NOT NULL, "
     "first_step INTEGER, last_step INTEGER, per_tile BLOB NOT NULL)",
     false},
    {"index", "variable_live_range",
     "CREATE INDEX variable_live_range ON variable(first_step, last_step)", false},
    {"table", "operation",
     "CREATE TABLE operation(id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL, "
     "debug_path_id INTEGER, layer TEXT NOT NULL, flops INTEGER)",
     false},
    {"table", "operation_program",
     "CREATE TABLE operation_program(operation_id INTEGER NOT NULL, program_id INTEGER NOT NULL, "
     "PRIMARY KEY(operation_id, program_id)) WITHOUT ROWID",
     false},
    {"table", "operation_variable",
     "CREATE TABLE operation_variable(operation_id INTEGER NOT NULL, "
     "variable_id INTEGER NOT NULL, PRIMARY KEY(operation_id, variable_id)) WITHOUT ROWID",
     false},
    {"table", "run",
     "CREATE TABLE run(id INTEGER PRIMARY KEY, program_index INTEGER NOT NULL, "
     "host_start_ns INTEGER NOT NULL, host_end_ns INTEGER, first_row INTEGER NOT NULL, "
     "num_steps INTEGER NOT NULL, total_cycles INTEGER NOT NULL)",
     false},
    {"table", "run_step",
     "CREATE TABLE run_step(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, "
     "step_id INTEGER NOT NULL, start_cycle INTEGER NOT NULL, cycles INTEGER NOT NULL, "
     "active_tiles INTEGER NOT NULL, tile_balance REAL NOT NULL, per_ipu BLOB, per_tile BLOB)",
     false},
    {"table", "run_lod",
     "CREATE TABLE run_lod(run_id INTEGER NOT NULL, level INTEGER NOT NULL, "
     "bucket INTEGER NOT NULL, first_row INTEGER NOT NULL, steps INTEGER NOT NULL, "
     "compute_cycles INTEGER NOT NULL, exchange_cycles INTEGER NOT NULL, "
     "sync_cycles INTEGER NOT NULL, stream_cycles INTEGER NOT NULL, "
     "max_step_cycles INTEGER NOT NULL, PRIMARY KEY(run_id, level, bucket)) WITHOUT ROWID",
     false},
    {"table", "liveness_lod",
     "CREATE TABLE liveness_lod(level INTEGER NOT NULL, bucket INTEGER NOT NULL, "
     "first_step INTEGER NOT NULL, last_step INTEGER NOT NULL, "
     "min_not_always_live_bytes INTEGER NOT NULL, max_not_always_live_bytes INTEGER NOT NULL, "
     "max_tile_not_always_live_bytes INTEGER NOT NULL, PRIMARY KEY(level, bucket)) WITHOUT ROWID",
     false, 2},
    // Beside run_lod (same levels and buckets): each IPU's busy cycles, little-endian uint64s.
    {"table", "run_ipu_lod",
     "CREATE TABLE run_ipu_lod(run_id INTEGER NOT NULL, level INTEGER NOT NULL, "
     "bucket INTEGER NOT NULL, busy BLOB NOT NULL, PRIMARY KEY(run_id, level, bucket)) "
     "WITHOUT ROWID",
     false, 3},
    // Each tile's cell on its IPU's die (TilePlacement): TileSeries blobs indexed by global tile.
    {"table", "tile_placement",
     "CREATE TABLE tile_placement(id INTEGER PRIMARY KEY CHECK(id = 1), "
     "die_columns INTEGER NOT NULL, die_rows INTEGER NOT NULL, die_x BLOB NOT NULL, "
     "die_y BLOB NOT NULL)",
     false, 4},
    // Lightweight profiling (ProfileBlocks.hpp): kind is BlockKind's number; cycles count from
    // the engine's load; run_index is the 0-based Engine::run call (runs need not be stored),
    // run_start the cycle it started at (cycles_from - run_start is run-relative, like steps).
    {"table", "block",
     "CREATE TABLE block(id INTEGER PRIMARY KEY, run_index INTEGER NOT NULL, "
     "run_start INTEGER NOT NULL, tile INTEGER NOT NULL, kind INTEGER NOT NULL, "
     "program_id INTEGER, step_id INTEGER, "
     "cycles_from INTEGER NOT NULL, cycles_to INTEGER NOT NULL, dropped INTEGER NOT NULL)",
     false, 5},
    {"index", "block_by_tile", "CREATE INDEX block_by_tile ON block(tile, cycles_from)", true, 5},
    // v5: an operation's debug information, the JSON object of its DebugInfo values (PopLibs:
    // "api", "args", "outputs"; users: their own setValue keys). No row: none recorded.
    {"table", "operation_debug",
     "CREATE TABLE operation_debug(operation_id INTEGER PRIMARY KEY, info TEXT NOT NULL)", false,
     5},
    // v6: the tile memory map. A tile's allocations in address order, packed as
    // TileAllocationCodec.hpp describes. No row: the tile holds nothing, or (no row at all) the
    // writer recorded no map.
    {"table", "tile_allocation",
     "CREATE TABLE tile_allocation(tile INTEGER PRIMARY KEY, allocations BLOB NOT NULL)", false, 6},
};

constexpr SchemaObject kHostTrace[] = {
    {"table", "metadata",
     "CREATE TABLE metadata(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID",
     false},
    {"table", "name", "CREATE TABLE name(id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)",
     false},
    {"table", "process",
     "CREATE TABLE process(id INTEGER PRIMARY KEY, pid INTEGER NOT NULL, name_id INTEGER NOT NULL, "
     "start_ns INTEGER NOT NULL)",
     false},
    {"table", "thread",
     "CREATE TABLE thread(id INTEGER PRIMARY KEY, process_id INTEGER NOT NULL, "
     "tid INTEGER NOT NULL, name_id INTEGER NOT NULL)",
     false},
    {"table", "channel",
     "CREATE TABLE channel(id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL UNIQUE)", false},
    // v1-v3: one row per event; v4 files hold event_block instead (upgraded at open).
    {"table", "event",
     "CREATE TABLE event(id INTEGER PRIMARY KEY, thread_id INTEGER NOT NULL, "
     "channel_id INTEGER NOT NULL, name_id INTEGER NOT NULL, kind INTEGER NOT NULL, "
     "start_ns INTEGER NOT NULL, end_ns INTEGER, depth INTEGER NOT NULL)",
     false, 1, 3},
    {"index", "event_by_track", "CREATE INDEX event_by_track ON event(thread_id, depth, start_ns)",
     true, 1, 3},
    // v4: a track's events (thread, depth) in packed blocks of up to 4096 (EventBlockCodec.hpp);
    // start_ns is the block's earliest start, end_ns its latest end (instants and unfinished
    // events count with their start); event i of a block has id first_event_id + i, unless the
    // blob stores ids (blocks upgraded from v1-v3 files). Indexed as blocks arrive (they are few),
    // so a killed writer's file has the index too.
    {"table", "event_block",
     "CREATE TABLE event_block(id INTEGER PRIMARY KEY, thread_id INTEGER NOT NULL, "
     "depth INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, "
     "first_event_id INTEGER NOT NULL, events INTEGER NOT NULL, data BLOB NOT NULL)",
     false, 4},
    {"index", "event_block_by_track",
     "CREATE INDEX event_block_by_track ON event_block(thread_id, depth, start_ns)", false, 4},
    {"table", "event_lod",
     "CREATE TABLE event_lod(thread_id INTEGER NOT NULL, depth INTEGER NOT NULL, "
     "level INTEGER NOT NULL, bucket INTEGER NOT NULL, events INTEGER NOT NULL, "
     "busy_ns INTEGER NOT NULL, longest_ns INTEGER NOT NULL, longest_name_id INTEGER NOT NULL, "
     "PRIMARY KEY(thread_id, depth, level, bucket)) WITHOUT ROWID",
     false},
    {"table", "graph",
     "CREATE TABLE graph(id INTEGER PRIMARY KEY, process_id INTEGER NOT NULL, "
     "name_id INTEGER NOT NULL, unit TEXT NOT NULL)",
     false},
    {"table", "series",
     "CREATE TABLE series(id INTEGER PRIMARY KEY, graph_id INTEGER NOT NULL, "
     "name_id INTEGER NOT NULL)",
     false},
    {"table", "sample",
     "CREATE TABLE sample(id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL, "
     "t_ns INTEGER NOT NULL, value REAL NOT NULL)",
     false},
    {"index", "sample_by_series", "CREATE INDEX sample_by_series ON sample(series_id, t_ns)", true},
    {"table", "sample_lod",
     "CREATE TABLE sample_lod(series_id INTEGER NOT NULL, level INTEGER NOT NULL, "
     "bucket INTEGER NOT NULL, samples INTEGER NOT NULL, min_value REAL NOT NULL, "
     "max_value REAL NOT NULL, sum_value REAL NOT NULL, "
     "PRIMARY KEY(series_id, level, bucket)) WITHOUT ROWID",
     false},
    // v2: async tracks (Chrome b/e/n and S/T/F events) and flow arrows (s/t/f) between threads.
    {"table", "async_track",
     "CREATE TABLE async_track(id INTEGER PRIMARY KEY, process_id INTEGER NOT NULL, "
     "name_id INTEGER NOT NULL, category_id INTEGER NOT NULL, async_id TEXT NOT NULL)",
     false, 2},
    {"table", "async_slice",
     "CREATE TABLE async_slice(id INTEGER PRIMARY KEY, track_id INTEGER NOT NULL, "
     "name_id INTEGER NOT NULL, kind INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER, "
     "depth INTEGER NOT NULL)",
     false, 2},
    {"index", "async_slice_by_track",
     "CREATE INDEX async_slice_by_track ON async_slice(track_id, depth, start_ns)", true, 2},
    {"table", "flow",
     "CREATE TABLE flow(id INTEGER PRIMARY KEY, name_id INTEGER NOT NULL, "
     "from_thread_id INTEGER NOT NULL, from_ns INTEGER NOT NULL, to_thread_id INTEGER NOT NULL, "
     "to_ns INTEGER NOT NULL)",
     false, 2},
    // v3: libpvti heatmaps. `edges` is the ascending bucket edges as decimal text separated by
    // spaces (exact for 64-bit integers); `integer_values` is 1 for HeatmapUInt64. A sample's
    // bucket is computed when it is recorded, with the heatmap's own value type.
    {"table", "heatmap",
     "CREATE TABLE heatmap(id INTEGER PRIMARY KEY, process_id INTEGER NOT NULL, "
     "name_id INTEGER NOT NULL, unit TEXT NOT NULL, integer_values INTEGER NOT NULL, "
     "edges TEXT NOT NULL)",
     false, 3},
    {"table", "heatmap_sample",
     "CREATE TABLE heatmap_sample(id INTEGER PRIMARY KEY, heatmap_id INTEGER NOT NULL, "
     "t_ns INTEGER NOT NULL, value REAL NOT NULL, bucket INTEGER NOT NULL)",
     false, 3},
    // Covering for binning (heatmap, time, bucket): a window is read from the index alone.
    {"index", "heatmap_sample_by_heatmap",
     "CREATE INDEX heatmap_sample_by_heatmap ON heatmap_sample(heatmap_id, t_ns, bucket)", true, 3},
    // v5: libpvti tracepoint metadata (pvti::Metadata), a typed blob attached to an event's begin
    // (point 0; an instant's only point) or end (point 1). Keyed by the event's id, so reading the
    // blocks never touches it and a tooltip finds an event's metadata with one key lookup.
    {"table", "event_metadata",
     "CREATE TABLE event_metadata(event_id INTEGER NOT NULL, point INTEGER NOT NULL, "
     "type TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY(event_id, point)) WITHOUT ROWID",
     false, 5},
};

} // namespace

std::span<const SchemaObject> Schema::profile() {
    return kProfile;
}
std::span<const SchemaObject> Schema::hostTrace() {
    return kHostTrace;
}

} // namespace tilescope::report
