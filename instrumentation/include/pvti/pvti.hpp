#pragma once
// Host tracepoints with the names and semantics of Graphcore's libpvti, over TileScope's
// HostTracer. Enabled by PVTI_OPTIONS='{"enable":"true","directory":"DIR"}'; unset, nothing is
// recorded and a tracepoint costs one load and one branch. Enabled, a tracepoint is inline (see
// TraceBuffer.hpp): a channel check, a clock read and a 16-byte store into the thread's chunk.

#include "pvti/Heatmap.hpp"
#include "pvti/TraceBuffer.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pvti {

/// A named stream of tracepoints (for example one per library or subsystem). Channels are usually
/// globals: `pvti::TraceChannel channel = {"myapp"};`. Whether a channel is traced is decided the
/// first time it is used, from PVTI_OPTIONS `channels`, and at any time by
/// enableTraceChannel/disableTraceChannel. A channel is listed by listTraceChannel() while it
/// exists.
class TraceChannel {
public:
    TraceChannel(const char* name, bool enabled = true) : name(name), enabled_(enabled) {
        enlist();
    }
    TraceChannel(std::string name, bool enabled = true) : name(std::move(name)), enabled_(enabled) {
        enlist();
    }
    TraceChannel(const TraceChannel& other)
        : name(other.name), enabled_(other.enabled_.load(std::memory_order_relaxed)) {
        enlist();
    }
    ~TraceChannel() { delist(); }
    TraceChannel& operator=(const TraceChannel&) = delete;

    std::string name;

    /// Channel id in the current session, kDisabledChannel when not traced.
    std::uint16_t id() const {
        if (!enabled_.load(std::memory_order_relaxed))
            return detail::kDisabledChannel;
        if (resolvedIn_.load(std::memory_order_acquire) ==
            tilescope::capture::detail::traceGeneration.load(std::memory_order_acquire))
            return id_.load(std::memory_order_relaxed);
        return resolve();
    }

private:
    friend void enableTraceChannel(TraceChannel* channel);
    friend void disableTraceChannel(TraceChannel* channel);
    friend bool checkTraceChannel(TraceChannel* channel);
    std::uint16_t resolve() const;
    void enlist();
    void delist();
    std::atomic<bool> enabled_;
    mutable std::atomic<std::uint16_t> id_{detail::kDisabledChannel};
    mutable std::atomic<std::uint32_t> resolvedIn_{0};
};

/// libpvti's predefined channels ("Drivers", "Poplar", "Framework").
extern TraceChannel traceDrivers;
extern TraceChannel tracePoplar;
extern TraceChannel traceFramework;

/// Turns a channel's tracepoints back on (they are on when the channel is made, unless its
/// constructor said otherwise); PVTI_OPTIONS still decides whether anything is recorded.
void enableTraceChannel(TraceChannel* channel);
/// Turns a channel's tracepoints off: they record nothing until enableTraceChannel.
void disableTraceChannel(TraceChannel* channel);
/// True when the channel's tracepoints are recorded: tracing is on (PVTI_OPTIONS), its `channels`
/// list admits the channel and the channel is not disabled.
bool checkTraceChannel(TraceChannel* channel);
/// Every channel that exists in the process, in the order they were made.
std::vector<TraceChannel*> listTraceChannel();
/// The trace file of the session (its path as PVTI_OPTIONS `directory` gives it), empty when
/// tracing is off.
std::string getCurrentTraceFilename();
/// Writes everything recorded and closes the trace file; later tracepoints record nothing.
void closeTrace();

/// Extra information attached to a tracepoint, as in libpvti: a blob of bytes (`data`) with a
/// type naming its encoding (`type`). createJsonMetadata() makes one of type "json" whose data is
/// JSON text; the System Analyser shows JSON pretty-printed in its tooltip and Details pane, other
/// types as text (or hex bytes) under their type. A tracepoint copies the metadata when it
/// records it, so one Metadata can be reused and may be destroyed afterwards.
class Metadata {
public:
    Metadata() {}
    Metadata(const std::string& type, const std::vector<std::uint8_t>& data)
        : type(type), data(data) {}
    Metadata(const Metadata&) = default;
    Metadata(Metadata&&) = default;
    Metadata& operator=(const Metadata&) = default;
    Metadata& operator=(Metadata&&) = default;
    virtual ~Metadata() {}

    std::string type;
    std::vector<std::uint8_t> data;
};

/// Metadata of type "json" holding `json`, checked first: text that is not one valid JSON value
/// throws std::invalid_argument naming where it fails.
Metadata createJsonMetadata(const std::string& json);

namespace detail {
/// Out of line: records `metadata` for the event the caller records next on this thread.
void attachMetadata(std::uint16_t channel, std::uint32_t label, const Metadata& metadata);
} // namespace detail

/// A traced interval on the calling thread. As an object it is RAII: constructed at the start and
/// destroyed at the end of a scope. The static begin/end pair marks intervals that do not follow
/// scopes (they must nest on each thread), and event() marks an instant.
/// Each takes optional metadata (see Metadata), attached to the begin of a scoped or begun
/// interval, to the end by end(), or to the instant of event().
class Tracepoint {
public:
    Tracepoint(TraceChannel* channel, const std::string& traceLabel,
               const Metadata* metadata = nullptr)
        : channel_(channel->id()) {
        if (channel_ != detail::kDisabledChannel) {
            label_ = detail::labelOfText(traceLabel.data(), traceLabel.size());
            if (metadata)
                detail::attachMetadata(channel_, label_, *metadata);
            detail::record(channel_, label_, detail::kBeginEvent);
        }
    }
    Tracepoint(TraceChannel* channel, const char* traceLabel, const Metadata* metadata = nullptr)
        : channel_(channel->id()) {
        if (channel_ != detail::kDisabledChannel) {
            label_ = detail::labelId(traceLabel, detail::kNulTerminated);
            if (metadata)
                detail::attachMetadata(channel_, label_, *metadata);
            detail::record(channel_, label_, detail::kBeginEvent);
        }
    }
    Tracepoint(TraceChannel* channel, const char* traceLabel, std::size_t length)
        : channel_(channel->id()) {
        if (channel_ != detail::kDisabledChannel) {
            label_ = detail::labelId(traceLabel, length);
            detail::record(channel_, label_, detail::kBeginEvent);
        }
    }
    ~Tracepoint() {
        if (channel_ != detail::kDisabledChannel)
            detail::record(channel_, label_, detail::kEndEvent);
    }
    Tracepoint(const Tracepoint&) = delete;
    Tracepoint& operator=(const Tracepoint&) = delete;

    static void begin(TraceChannel* channel, const std::string& traceLabel,
                      const Metadata* metadata = nullptr) {
        mark(channel, traceLabel, detail::kBeginEvent, metadata);
    }
    static void begin(TraceChannel* channel, const char* traceLabel,
                      const Metadata* metadata = nullptr) {
        mark(channel, traceLabel, detail::kBeginEvent, metadata);
    }
    static void end(TraceChannel* channel, const std::string& traceLabel,
                    const Metadata* metadata = nullptr) {
        mark(channel, traceLabel, detail::kEndEvent, metadata);
    }
    static void end(TraceChannel* channel, const char* traceLabel,
                    const Metadata* metadata = nullptr) {
        mark(channel, traceLabel, detail::kEndEvent, metadata);
    }
    static void event(TraceChannel* channel, const std::string& traceLabel,
                      const Metadata* metadata = nullptr) {
        mark(channel, traceLabel, detail::kInstantEvent, metadata);
    }
    static void event(TraceChannel* channel, const char* traceLabel,
                      const Metadata* metadata = nullptr) {
        mark(channel, traceLabel, detail::kInstantEvent, metadata);
    }

private:
    static void mark(TraceChannel* channel, const char* label, std::uint8_t kind,
                     const Metadata* metadata) {
        const std::uint16_t id = channel->id();
        if (id != detail::kDisabledChannel) {
            const std::uint32_t labelId = detail::labelId(label, detail::kNulTerminated);
            if (metadata)
                detail::attachMetadata(id, labelId, *metadata);
            detail::record(id, labelId, kind);
        }
    }
    static void mark(TraceChannel* channel, const std::string& label, std::uint8_t kind,
                     const Metadata* metadata) {
        const std::uint16_t id = channel->id();
        if (id != detail::kDisabledChannel) {
            const std::uint32_t labelId = detail::labelOfText(label.data(), label.size());
            if (metadata)
                detail::attachMetadata(id, labelId, *metadata);
            detail::record(id, labelId, kind);
        }
    }
    std::uint16_t channel_;
    std::uint32_t label_ = 0;
};

/// One line of a Graph: values over time.
class Series {
public:
    void add(double value);

private:
    friend class Graph;
    explicit Series(std::uint32_t id) : id_(id) {}
    std::uint32_t id_;
};

/// A chart of counters with a unit, e.g. `pvti::Graph g("Throughput", "samples/s")`; each series
/// is one line: `auto s = g.addSeries("train"); s.add(1234.0);`.
class Graph {
public:
    Graph(const std::string& name, const std::string& unit = "");
    Series addSeries(const std::string& name);

private:
    std::uint32_t id_;
};

} // namespace pvti
