#pragma once
// Value types of a host-trace file (*.pvti). Times are nanoseconds since the Unix epoch.

#include <cstdint>
#include <optional>
#include <string>

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
