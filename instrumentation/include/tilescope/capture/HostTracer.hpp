#pragma once

#include "tilescope/capture/TraceOptions.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string_view>
#include <vector>

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
    std::uint64_t heatmapSamplesWritten = 0;
    std::uint64_t eventsDropped = 0; ///< records dropped because the writer fell behind the bound
};

/// The process-wide host tracing session behind the pvti face. Threads append 16-byte records
/// (cycle-counter timestamp, channel id, label id, kind) to their own chunks inline (see
/// pvti/TraceBuffer.hpp), with no lock and one release store; the writer thread drains the chunks
/// (handing them back to their thread for reuse), pairs begins with ends per thread (so it knows
/// each event's nesting depth), converts timestamps to wall-clock nanoseconds and commits them to
/// a host-trace file through HostTraceWriter. Producers never wait for it: past the bound of
/// buffered events (TraceOptions::bufferLimitBytes) new events are dropped and counted per thread
/// in the file. On normal exit the session is flushed and the file closed (indexes and
/// level-of-detail tables built); after a crash the file holds every committed flush.
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
    /// Id of a label, interned by content (0 when tracing is off).
    std::uint32_t label(std::string_view text);
    /// Id of a label text in read-only memory, remembered by its address and length.
    std::uint32_t literalLabel(const char* text, std::size_t length);

    void begin(std::uint16_t channel, std::uint32_t label);
    void end(std::uint16_t channel, std::uint32_t label);
    void instant(std::uint16_t channel, std::uint32_t label);

    /// The out-of-line part of pvti's inline append: registers the calling thread in the session,
    /// switches its chunk, or drops and counts the record when over the bound.
    void appendSlow(std::uint16_t channel, std::uint32_t label, std::uint8_t kind,
                    std::uint64_t ticks);

    /// Keeps a copy of tracepoint metadata (pvti::Metadata) until the writer stores it with its
    /// event; the id goes into the kMetadataRecord recorded before the event. 0 when tracing is
    /// off.
    std::uint32_t addMetadata(std::string_view type, const std::uint8_t* data, std::size_t size);

    std::uint32_t addGraph(std::string_view name, std::string_view unit);
    std::uint32_t addSeries(std::uint32_t graph, std::string_view name);
    void sample(std::uint32_t series, double value);

    /// A libpvti heatmap (pvti::Heatmap): its bucket edges as exact decimal text.
    std::uint32_t addHeatmap(std::string_view name, std::string_view unit, bool integerValues,
                             std::vector<std::string> edges);
    /// Values added to a heatmap now, with the bucket each falls in (computed by the caller,
    /// which knows the value type).
    void heatmapSamples(std::uint32_t heatmap, const double* values, const std::int32_t* buckets,
                        std::size_t count);

    /// Writes everything recorded so far and commits (the background thread does this on its own).
    void flush();
    /// Final flush; open events become "unfinished" rows; the file is closed. Idempotent.
    void close();
    HostTracerStats stats() const;

private:
    static HostTracer& createInstance();
    static std::atomic<HostTracer*> current_;
    explicit HostTracer(TraceOptions options);
    struct Session;
    TraceOptions options_;
    std::filesystem::path file_;
    std::unique_ptr<Session> session_;
    bool closed_ = false;
};

} // namespace tilescope::capture
