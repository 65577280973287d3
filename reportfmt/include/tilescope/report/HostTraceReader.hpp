#pragma once

#include "tilescope/report/HostTraceTypes.hpp"
#include "tilescope/report/ReportFile.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::report {

/// Counts of a host trace: rowid bounds, and for events the block rows (a few per 4096 events).
struct HostTraceCounts {
    std::int64_t processes = 0;
    std::int64_t threads = 0;
    std::int64_t channels = 0;
    std::int64_t events = 0;
    std::int64_t graphs = 0;
    std::int64_t series = 0;
    std::int64_t samples = 0;
};

/// Typed, lazy reader of a host-trace file (*.pvti). Opening validates the file (see ReportFile)
/// and reads only the small tables on demand; event and sample queries are windowed by time and
/// served from the level-of-detail pyramids when zoomed out. Events are stored in packed blocks
/// per track (format v4; older files are upgraded at open): a window query decodes only the
/// blocks overlapping it. A file whose writer was killed has no pyramids: `hasLevelOfDetail()` is
/// false.
/// Not thread-safe: one reader per thread. Failures are ReportErrors naming the file.
class HostTraceReader {
public:
    explicit HostTraceReader(const std::string& path);
    explicit HostTraceReader(ReportFile file);
    ~HostTraceReader();
    HostTraceReader(HostTraceReader&&) noexcept;
    HostTraceReader& operator=(HostTraceReader&&) noexcept;

    const ReportFile& file() const { return file_; }
    const std::string& path() const { return file_.path(); }
    bool hasLevelOfDetail() const;
    std::int64_t lodBaseNs() const { return lodBaseNs_; }

    HostTraceCounts counts() const;
    /// Earliest start and latest end over all events, samples and heatmap samples; empty for an
    /// empty trace.
    /// Events from the block rows' bounds (an unfinished event counts with its start), samples
    /// from index seeks per series (a scan of the sample table in a killed writer's file).
    std::optional<std::pair<std::int64_t, std::int64_t>> timeSpan() const;
    std::string name(std::int64_t nameId) const;

    std::vector<ProcessInfo> processes() const;
    std::vector<ThreadInfo> threads() const;
    std::vector<ChannelInfo> channels() const;
    /// Threads whose tracer dropped events (counts above zero), by thread id; empty when nothing
    /// was dropped, and in files written before drop counts existed.
    std::vector<DroppedEvents> droppedEvents() const;
    /// Deepest nesting level of the thread's events, -1 when it has none.
    std::int32_t maxDepth(std::int64_t threadId) const;

    /// Async tracks (format v2; none in older files), by id, each with its deepest level.
    std::vector<AsyncTrackInfo> asyncTracks() const;
    /// Slices of one async track overlapping [fromNs, toNs] (all depths), at most `limit`, in
    /// start order; an unfinished slice runs to the end of the trace.
    std::vector<AsyncSlice> asyncSlices(std::int64_t trackId, std::int64_t fromNs,
                                        std::int64_t toNs, std::int64_t limit) const;
    /// Flow arrows with an end on `threadId` within [fromNs, toNs], at most `limit`.
    std::vector<FlowArrow> flowsAt(std::int64_t threadId, std::int64_t fromNs, std::int64_t toNs,
                                   std::int64_t limit) const;
    /// Every flow arrow, at most `limit`, by id.
    std::vector<FlowArrow> flows(std::int64_t limit) const;

    /// Raw events of one track (thread, depth) overlapping [fromNs, toNs], at most `limit`, in
    /// start order. An event that starts before `fromNs` and is still running at `fromNs` is
    /// included (unfinished events are taken to run to the end of the trace).
    std::vector<HostEvent> events(std::int64_t threadId, std::int32_t depth, std::int64_t fromNs,
                                  std::int64_t toNs, std::int64_t limit) const;
    /// Pyramid rows of one track at `level` for buckets overlapping [fromNs, toNs].
    std::vector<EventLodRow> eventLod(std::int64_t threadId, std::int32_t depth, std::int64_t level,
                                      std::int64_t fromNs, std::int64_t toNs) const;
    /// Pyramid rows at `level` of several tracks of one thread, buckets [fromBucket, toBucket],
    /// in one query (one primary-key range seek per depth), as (depth, row) in depth and bucket
    /// order. For viewers that fetch every visible depth of a thread at once.
    std::vector<std::pair<std::int32_t, EventLodRow>>
    eventLodBuckets(std::int64_t threadId, const std::vector<std::int32_t>& depths,
                    std::int64_t level, std::int64_t fromBucket, std::int64_t toBucket) const;
    /// Coarsest stored level whose buckets are at most `nsPerBucket` wide (-1: use raw events).
    std::int64_t eventLodLevelFor(double nsPerBucket) const;

    std::vector<GraphInfo> graphs() const;
    std::vector<SeriesInfo> series() const;
    std::vector<std::pair<std::int64_t, double>> samples(std::int64_t seriesId, std::int64_t fromNs,
                                                         std::int64_t toNs,
                                                         std::int64_t limit) const;
    std::vector<SampleLodRow> sampleLod(std::int64_t seriesId, std::int64_t level,
                                        std::int64_t fromNs, std::int64_t toNs) const;
    /// Like eventLodLevelFor, for the sample pyramid.
    std::int64_t sampleLodLevelFor(double nsPerBucket) const;

    /// libpvti heatmaps (format v3; none in older files), by id, with their bucket edges.
    std::vector<HeatmapInfo> heatmaps() const;
    /// Values added to one heatmap in [fromNs, toNs], at most `limit`, in time order.
    std::vector<HeatmapSample> heatmapSamples(std::int64_t heatmapId, std::int64_t fromNs,
                                              std::int64_t toNs, std::int64_t limit) const;
    /// First and last sample time of one heatmap (index seeks); empty when it has no samples.
    std::optional<std::pair<std::int64_t, std::int64_t>>
    heatmapTimeSpan(std::int64_t heatmapId) const;
    /// Counts per time bin and bucket of one heatmap over [fromNs, toNs) in `bins` equal bins
    /// (one grouped query; the samples are not copied out).
    HeatmapBins heatmapBins(std::int64_t heatmapId, std::int64_t fromNs, std::int64_t toNs,
                            std::size_t bins) const;

    /// Tracepoint metadata of one event (format v5; none in older files), begin before end: one
    /// primary-key lookup.
    std::vector<EventMetadataEntry> eventMetadata(std::int64_t eventId) const;
    /// Metadata of the events with ids in [fromId, toId], in id and point order.
    std::vector<EventMetadataEntry> eventMetadataBetween(std::int64_t fromId,
                                                         std::int64_t toId) const;
    /// Events with metadata (distinct event ids; reads the whole table).
    std::int64_t eventsWithMetadata() const;
    /// Whether any event has metadata (one row read).
    bool hasEventMetadata() const;

private:
    std::vector<std::int64_t> storedLevels(const char* table, const char* key) const;

    ReportFile file_;
    /// Statements of the timeline's per-frame queries, prepared once (after file_: destroyed
    /// before the database they belong to).
    struct CachedStatements;
    mutable std::unique_ptr<CachedStatements> cached_;
    std::int64_t lodBaseNs_ = 1000;
    bool hasSeriesIndex_ = false; // sample_by_series, likewise
};

/// Metadata as text for people: JSON (type "json") pretty-printed with `indent` spaces (-1: on one
/// line), other types as their text when it is printable UTF-8, else as hex bytes. Malformed
/// JSON is shown as it is, with a note.
std::string metadataText(const EventMetadata& metadata, int indent = 2);

} // namespace tilescope::report
