#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tilescope::report {

/// The two file kinds of the format and their schema versions. Each file records its kind in
/// `metadata('format')` and its version in both `PRAGMA user_version` and
/// `metadata('format_version')`. A reader opens files of its version and older (older ones through
/// read-only migrations into the connection's temp schema) and refuses newer ones.
enum class FileKind { Profile, HostTrace };

struct SchemaObject {
    std::string_view type; // "table" or "index"
    std::string_view name;
    std::string_view sql; // exact CREATE statement, as SQLite stores it in sqlite_schema
    bool createdAtClose; // indexes built when the writer finishes; absent in a killed writer's file
    int sinceVersion = 1;       // first format version that has the object
    int untilVersion = 1 << 30; // last format version that has it (replaced in later versions)
    bool inVersion(int version) const { return sinceVersion <= version && version <= untilVersion; }
};

struct Schema {
    /// Version history of profile.pop: 1 initial; 2 adds liveness_lod; 3 adds run_ipu_lod; 4
    /// adds tile_placement; 5 adds block (lightweight profiling) and operation_debug; 6 adds
    /// tile_allocation (the tile memory map). Of *.pvti: 1 initial; 2 adds async_track,
    /// async_slice and flow; 3 adds heatmap and heatmap_sample (libpvti heatmaps); 4 replaces the
    /// event table (a row per event) with event_block (packed blocks of a track's events,
    /// EventBlockCodec.hpp); 5 adds event_metadata (libpvti tracepoint metadata, a side table keyed
    /// by event id, so the blocks and their codec are unchanged).
    static constexpr int kProfileVersion = 6;
    static constexpr int kHostTraceVersion = 5;
    static constexpr std::string_view kProfileFormat = "tilescope-profile";
    static constexpr std::string_view kHostTraceFormat = "tilescope-hosttrace";

    /// Steps per level-0 bucket of liveness_lod; level L buckets are 4^L times wider.
    static constexpr std::int64_t kLivenessLodBaseSteps = 16;

    static std::span<const SchemaObject> profile();
    static std::span<const SchemaObject> hostTrace();
    static int currentVersion(FileKind kind) {
        return kind == FileKind::Profile ? kProfileVersion : kHostTraceVersion;
    }
};

} // namespace tilescope::report
