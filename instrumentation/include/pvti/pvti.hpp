#pragma once
// Host tracepoints with the names and semantics of Graphcore's libpvti, over TileScope's
// HostTracer. Enabled by PVTI_OPTIONS='{"enable":"true","directory":"DIR"}'; unset, nothing is
// recorded and a tracepoint costs one load and one branch.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

// The two facts about the tracing session the inline fast path needs; the session itself
// (tilescope/capture/HostTracer.hpp, C++17) stays out of this header.
namespace tilescope {
namespace capture {
namespace detail {
/// Session generation, bumped when the tracing session restarts (defined in HostTracer.cpp).
extern std::atomic<std::uint32_t> traceGeneration;
} // namespace detail
} // namespace capture
} // namespace tilescope

namespace pvti {

namespace detail {
/// Channel id of a channel that is not traced (HostTracer::kDisabledChannel).
constexpr std::uint16_t kDisabledChannel = 0xffff;
} // namespace detail

/// A named stream of tracepoints (for example one per library or subsystem). Channels are usually
/// globals: `pvti::TraceChannel channel = {"myapp"};`. Whether a channel is traced is decided the
/// first time it is used, from PVTI_OPTIONS `channels`.
class TraceChannel {
public:
    TraceChannel(const char* name) : name(name) {}
    TraceChannel(std::string name) : name(std::move(name)) {}
    TraceChannel(const TraceChannel& other) : name(other.name) {}

    std::string name;

    /// Channel id in the current session, kDisabledChannel when not traced.
    std::uint16_t id() const {
        if (resolvedIn_.load(std::memory_order_acquire) ==
            tilescope::capture::detail::traceGeneration.load(std::memory_order_acquire))
            return id_.load(std::memory_order_relaxed);
        return resolve();
    }

private:
    std::uint16_t resolve() const;
    mutable std::atomic<std::uint16_t> id_{detail::kDisabledChannel};
    mutable std::atomic<std::uint32_t> resolvedIn_{0};
};

/// A traced interval on the calling thread. As an object it is RAII: constructed at the start and
/// destroyed at the end of a scope. The static begin/end pair marks intervals that do not follow
/// scopes (they must nest on each thread), and event() marks an instant.
class Tracepoint {
public:
    Tracepoint(TraceChannel* channel, const std::string& traceLabel)
        : Tracepoint(channel, traceLabel.data(), traceLabel.size()) {}
    Tracepoint(TraceChannel* channel, const char* traceLabel) : channel_(channel->id()) {
        if (channel_ != detail::kDisabledChannel)
            start(traceLabel, std::char_traits<char>::length(traceLabel));
    }
    Tracepoint(TraceChannel* channel, const char* traceLabel, std::size_t length)
        : channel_(channel->id()) {
        if (channel_ != detail::kDisabledChannel)
            start(traceLabel, length);
    }
    ~Tracepoint() {
        if (channel_ != detail::kDisabledChannel)
            finish();
    }
    Tracepoint(const Tracepoint&) = delete;
    Tracepoint& operator=(const Tracepoint&) = delete;

    static void begin(TraceChannel* channel, const std::string& traceLabel);
    static void begin(TraceChannel* channel, const char* traceLabel);
    static void end(TraceChannel* channel, const std::string& traceLabel);
    static void end(TraceChannel* channel, const char* traceLabel);
    static void event(TraceChannel* channel, const std::string& traceLabel);
    static void event(TraceChannel* channel, const char* traceLabel);

private:
    void start(const char* label, std::size_t length);
    void finish();
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
    Graph(const std::string& name, const std::string& unit);
    Series addSeries(const std::string& name);

private:
    std::uint32_t id_;
};

} // namespace pvti
