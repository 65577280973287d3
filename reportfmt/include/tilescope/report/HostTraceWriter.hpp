#pragma once

#include "tilescope/report/HostTraceTypes.hpp"

#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

namespace tilescope::report {

struct HostTraceWriterOptions {
    bool replaceExisting = true;
    std::size_t rowsPerTransaction = 1u << 18;
    /// Width of a level-0 bucket of the event and sample pyramids; level L is 4^L wider.
    std::int64_t lodBaseNs = 1000;
    /// The file is private until close(): its owner writes it under a temporary name, renames it
    /// once closed and deletes it on failure (as the Chrome trace import does). It is then written
    /// without journal or syncs (one sync at close); readers must not open it before close(), and
    /// a killed writer leaves an unusable file instead of its committed rows.
    bool scratchFile = false;
};

/// Writes one host-trace file (`*.pvti`): processes, threads, channels, nested events and counter
/// series. Events are appended as they complete (the pvti front end pairs begin/end on each thread
/// and knows the nesting depth); each track (thread, depth) must receive its events in start
/// order, as events on a track do not overlap. They are packed per track into event blocks
/// (format v4), stored when full and on every commit; event ids are 1, 2, 3... in the order blocks
/// are stored. Commits every `rowsPerTransaction` rows or events and on commit(); close() builds
/// the remaining indexes and the level-of-detail tables, so a zoomed-out timeline never reads raw
/// events. A killed writer leaves a file that opens with every committed row and block (without
/// the pyramids, which readers then do without). Throws ReportError on failure.
class HostTraceWriter {
public:
    explicit HostTraceWriter(const std::filesystem::path& path,
                             HostTraceWriterOptions options = {});
    ~HostTraceWriter();
    HostTraceWriter(const HostTraceWriter&) = delete;
    HostTraceWriter& operator=(const HostTraceWriter&) = delete;

    void setMetadata(std::string_view key, std::string_view value);
    std::int64_t intern(std::string_view name);

    std::int64_t addProcess(std::int64_t pid, std::string_view name, std::int64_t startNs);
    std::int64_t addThread(std::int64_t processId, std::int64_t tid, std::string_view name);
    std::int64_t addChannel(std::string_view name);
    /// Names learnt after the first event (Chrome trace "M" events can come late).
    void renameProcess(std::int64_t processId, std::string_view name);
    void renameThread(std::int64_t threadId, std::string_view name);

    /// Hot path: names pre-interned with intern(). `atBegin`/`atEnd`: tracepoint metadata of the
    /// event (format v5), stored in event_metadata under the event's id when its block is stored.
    void addEvent(std::int64_t threadId, std::int64_t channelId, std::int64_t nameId,
                  std::int64_t startNs, std::int64_t endNs, std::int32_t depth,
                  const EventMetadata* atBegin = nullptr, const EventMetadata* atEnd = nullptr);
    void addInstant(std::int64_t threadId, std::int64_t channelId, std::int64_t nameId,
                    std::int64_t atNs, std::int32_t depth, const EventMetadata* metadata = nullptr);
    void addUnfinished(std::int64_t threadId, std::int64_t channelId, std::int64_t nameId,
                       std::int64_t startNs, std::int32_t depth,
                       const EventMetadata* atBegin = nullptr);

    /// Async tracks (format v2): a track per asynchronous operation of a process, its slices
    /// nested by `depth`; `endNs` empty for a slice never finished.
    std::int64_t addAsyncTrack(std::int64_t processId, std::string_view name,
                               std::string_view category, std::string_view asyncId);
    void addAsyncSlice(std::int64_t trackId, std::int64_t nameId, EventKind kind,
                       std::int64_t startNs, std::optional<std::int64_t> endNs, std::int32_t depth);
    /// A flow arrow from (fromThreadId, fromNs) to (toThreadId, toNs).
    void addFlow(std::int64_t nameId, std::int64_t fromThreadId, std::int64_t fromNs,
                 std::int64_t toThreadId, std::int64_t toNs);

    std::int64_t addGraph(std::int64_t processId, std::string_view name, std::string_view unit);
    std::int64_t addSeries(std::int64_t graphId, std::string_view name);
    void addSample(std::int64_t seriesId, std::int64_t tNs, double value);

    /// A libpvti heatmap (format v3). `edges` are its ascending bucket edges as decimal text
    /// (exact for 64-bit integers); see HeatmapInfo for the buckets they define.
    std::int64_t addHeatmap(std::int64_t processId, std::string_view name, std::string_view unit,
                            bool integerValues, const std::vector<std::string>& edges);
    /// A value added to a heatmap at tNs, and the bucket (0 .. edges) it fell in.
    void addHeatmapSample(std::int64_t heatmapId, std::int64_t tNs, double value,
                          std::int32_t bucket);

    /// Events a thread's tracer dropped (the writer had fallen behind its bound), as a running
    /// total: each call replaces the thread's previous count. Stored in metadata under
    /// `dropped_events.thread.<thread row id>`, so the table layout is unchanged.
    void setDroppedEvents(std::int64_t threadId, std::int64_t events);

    void commit();
    void close();
    const std::string& path() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace tilescope::report
