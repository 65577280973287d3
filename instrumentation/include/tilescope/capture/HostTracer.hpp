#pragma once

#include "tilescope/capture/TraceOptions.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>

namespace tilescope::capture {

namespace detail {
/// Session generation, read inline by every tracepoint to know whether its channel's cached
/// resolution is current (defined in HostTracer.cpp).
extern std::atomic<std::uint32_t> traceGeneration;
class HostTracerAccess;
} // namespace detail

/// Counters of a tracing session, for tests and benchmarks.
struct HostTracerStats {
    std::uint64_t eventsRecorded = 0; ///< begin, end and instant records taken from threads
    std::uint64_t eventsWritten = 0;  ///< rows written to the trace file
    std::uint64_t unmatchedEnds = 0;  ///< ends with no open begin of that label on the thread
    std::uint64_t samplesWritten = 0;
};

/// The process-wide host tracing session behind the pvti face. Threads append fixed-size records
/// (cycle-counter timestamp, channel, label id) to their own chunked buffers with no lock and one
/// release store; a background thread drains the buffers every 50 ms, pairs begins with ends per
/// thread (so it knows each event's nesting depth), converts timestamps to wall-clock nanoseconds
/// and commits them to a host-trace file through HostTraceWriter. On normal exit the session is
/// flushed and the file closed (indexes and level-of-detail tables built); after a crash the file
/// holds every committed flush.
class HostTracer {
public:
    /// Sentinel channel id of a channel that is not traced.
    static constexpr std::uint16_t kDisabledChannel = 0xffff;

    /// The session configured from PVTI_OPTIONS (created on first use; throws OptionsError when
    /// PVTI_OPTIONS is malformed).
    static HostTracer& instance() {
        if (HostTracer* t = current_.load(std::memory_order_acquire))
            return *t;
        return createInstance();
    }
    /// Replaces the process session (tests and benchmarks): the previous one is closed first.
    static HostTracer& restart(const TraceOptions& options);

    ~HostTracer();
    HostTracer(const HostTracer&) = delete;
    HostTracer& operator=(const HostTracer&) = delete;

    bool enabled() const { return options_.enable; }
    const TraceOptions& options() const { return options_; }
    /// The trace file, empty when tracing is off.
    const std::filesystem::path& file() const { return file_; }
    /// Bumped by restart() so channels resolved against an earlier session resolve again.
    static std::uint32_t generation() {
        return detail::traceGeneration.load(std::memory_order_acquire);
    }

    /// Channel id for a name (kDisabledChannel when the options exclude it).
    std::uint16_t channel(std::string_view name);
    /// Id of a label; cached per thread by the pointer of the text.
    std::uint32_t label(std::string_view text);

    void begin(std::uint16_t channel, std::uint32_t label);
    void end(std::uint16_t channel, std::uint32_t label);
    void instant(std::uint16_t channel, std::uint32_t label);

    std::uint32_t addGraph(std::string_view name, std::string_view unit);
    std::uint32_t addSeries(std::uint32_t graph, std::string_view name);
    void sample(std::uint32_t series, double value);

    /// Writes everything recorded so far and commits (the background thread does this on its own).
    void flush();
    /// Final flush; open events become "unfinished" rows; the file is closed. Idempotent.
    void close();
    HostTracerStats stats() const;

private:
    static HostTracer& createInstance();
    [[gnu::noinline]] std::uint32_t internLabel(std::string_view text);
    static std::atomic<HostTracer*> current_;
    explicit HostTracer(TraceOptions options);
    struct Session;
    TraceOptions options_;
    std::filesystem::path file_;
    std::unique_ptr<Session> session_;
    bool closed_ = false;
};

} // namespace tilescope::capture
