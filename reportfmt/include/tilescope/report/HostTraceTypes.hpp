#pragma once
// Value types of a host-trace file (*.pvti). Times are nanoseconds since the Unix epoch.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::report {

/// How an event row is to be read: a complete interval, a point in time, or an interval whose end
/// was never recorded (the writer stopped first).
enum class EventKind : std::uint8_t { Complete = 0, Instant = 1, Unfinished = 2 };

struct ProcessInfo {
    std::int64_t id = 0;
    std::int64_t pid = 0;
    std::string name;
    std::int64_t startNs = 0;
};

struct ThreadInfo {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::int64_t tid = 0;
    std::string name;
};

/// Metadata key prefix of a thread's dropped-event count (followed by the thread row id).
constexpr const char* kDroppedEventsKeyPrefix = "dropped_events.thread.";

/// Events the tracer of a thread dropped because its writer fell behind (none in older files).
struct DroppedEvents {
    std::int64_t threadId = 0;
    std::int64_t events = 0;
};

struct ChannelInfo {
    std::int64_t id = 0;
    std::string name;
};

/// One host event; `depth` is its nesting level on its thread (0 = outermost).
struct HostEvent {
    std::int64_t id = 0;
    std::int64_t threadId = 0;
    std::int64_t channelId = 0;
    std::int64_t nameId = 0;
    EventKind kind = EventKind::Complete;
    std::int64_t startNs = 0;
    std::optional<std::int64_t> endNs;
    std::int32_t depth = 0;
};

/// Where on its event a tracepoint attached metadata: the begin (also an instant event's only
/// point) or the end.
enum class MetadataPoint : std::uint8_t { Begin = 0, End = 1 };

/// Metadata a tracepoint attached to a host event (libpvti's `pvti::Metadata`, format v5): a blob
/// with a type naming its encoding. Type "json" (`pvti::createJsonMetadata`) holds JSON text.
struct EventMetadata {
    std::string type;
    std::string data; ///< the blob's bytes
};

/// Type of metadata made by `pvti::createJsonMetadata`, whose data is JSON text.
constexpr const char* kJsonMetadataType = "json";

/// One piece of metadata of one event, as stored (table event_metadata).
struct EventMetadataEntry {
    std::int64_t eventId = 0;
    MetadataPoint point = MetadataPoint::Begin;
    EventMetadata metadata;
};

/// An async track: the slices of one asynchronous operation of a process (Chrome trace b/e/n or
/// S/T/F events of one category and id), shown under its process. `maxDepth` is -1 when empty.
struct AsyncTrackInfo {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::string name;
    std::string category;
    std::string asyncId;
    std::int32_t maxDepth = -1;
};

/// One slice of an async track; `depth` is its nesting level on the track.
struct AsyncSlice {
    std::int64_t id = 0;
    std::int64_t trackId = 0;
    std::int64_t nameId = 0;
    EventKind kind = EventKind::Complete;
    std::int64_t startNs = 0;
    std::optional<std::int64_t> endNs;
    std::int32_t depth = 0;
};

/// A flow arrow (Chrome trace s/t/f events): from a point on one thread to a point on another
/// (or the same); the slices at those points are its ends.
struct FlowArrow {
    std::int64_t id = 0;
    std::int64_t nameId = 0;
    std::int64_t fromThreadId = 0;
    std::int64_t fromNs = 0;
    std::int64_t toThreadId = 0;
    std::int64_t toNs = 0;
};

/// A pvti Graph (a chart with a unit) and its series (one line each).
struct GraphInfo {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::string name;
    std::string unit;
};

struct SeriesInfo {
    std::int64_t id = 0;
    std::int64_t graphId = 0;
    std::string name;
};

/// A libpvti heatmap (host-trace format v3): a distribution of values over time. Its ascending
/// `edges` split values into edges.size() + 1 buckets: bucket 0 holds values below edges[0],
/// bucket i (0 < i < edges.size()) values in [edges[i-1], edges[i]), and the last bucket values
/// at or above the last edge, so values outside the edges land in the outer buckets.
/// `integerValues` is true for a HeatmapUInt64 (its edges and values are exact up to 2^53 here).
struct HeatmapInfo {
    std::int64_t id = 0;
    std::int64_t processId = 0;
    std::string name;
    std::string unit;
    bool integerValues = false;
    std::vector<double> edges;
    std::size_t buckets() const { return edges.size() + 1; }
};

/// One value added to a heatmap, with the bucket it fell in when it was recorded.
struct HeatmapSample {
    std::int64_t tNs = 0;
    double value = 0;
    std::int32_t bucket = 0;
};

/// Counts per time bin and bucket of one heatmap over [fromNs, toNs): `counts[bin * buckets +
/// bucket]`, bins of equal width `binNs` (the last one may be cut short).
struct HeatmapBins {
    std::int64_t fromNs = 0;
    std::int64_t binNs = 1;
    std::size_t bins = 0;
    std::size_t buckets = 0;
    std::vector<std::uint64_t> counts;
    std::uint64_t at(std::size_t bin, std::size_t bucket) const {
        return counts[bin * buckets + bucket];
    }
};

/// Aggregate of one track's events in one time bucket (level-of-detail pyramid).
struct EventLodRow {
    std::int64_t level = 0;
    std::int64_t bucket = 0;
    std::uint64_t events = 0;
    std::uint64_t busyNs = 0;
    std::uint64_t longestNs = 0;
    std::int64_t longestNameId = 0;
};

struct SampleLodRow {
    std::int64_t level = 0;
    std::int64_t bucket = 0;
    std::uint64_t samples = 0;
    double minValue = 0, maxValue = 0, sumValue = 0;
};

} // namespace tilescope::report
