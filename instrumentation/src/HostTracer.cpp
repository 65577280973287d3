#include "tilescope/capture/HostTracer.hpp"

#include "CycleClock.hpp"
#include "ThreadEventBuffer.hpp"
#include "tilescope/capture/ProcessInfo.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace tilescope::capture {
namespace {

std::string programName() {
    std::ifstream comm("/proc/self/comm");
    std::string name;
    std::getline(comm, name);
    return name.empty() ? "process" : name;
}

std::filesystem::path traceFileName(const std::filesystem::path& dir) {
    const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
    return dir / fmt::format("{:%Y%m%dT%H%M%SZ}-pid{}.pvti", now, ::getpid());
}

// The calling thread's buffer in the current session (slow path only; the hot path uses the
// cursor in pvti/TraceBuffer.hpp). It also keeps the buffer, and so the chunk the cursor points
// into, alive while the thread runs.
thread_local std::shared_ptr<ThreadEventBuffer> tOwnBuffer;

} // namespace

/// What a session owns when tracing is on: the names seen so far, the thread buffers, the
/// writer (used by the writer thread `flusher` only, or under flushMutex) and that thread.
struct HostTracer::Session {
    Session(const std::filesystem::path& file, std::uint32_t generation, std::int64_t bufferLimit)
        : budget(std::make_shared<ChunkBudget>(bufferLimit)), writer(file),
          clock(CycleClock::start()), generation(generation) {
        pid = ::getpid();
        writer.setMetadata("command_line", tilescope::capture::processCommandLine());
        process = writer.addProcess(pid, programName(), clock.wallNs(clock.startTicks()));
        flusher = std::thread([this] { run(); });
        pthread_setname_np(flusher.native_handle(), "pvti-writer");
    }

    ~Session() { stop(); }

    void stop() {
        {
            std::lock_guard lock(wakeMutex);
            if (stopping)
                return;
            stopping = true;
        }
        wake.notify_all();
        flusher.join();
        std::lock_guard lock(flushMutex);
        drain(true);
        writer.close();
    }

    // The writer thread: drains every 50 ms, and at once again while a pass finds a backlog
    // (a pass that drained more than a few chunks), so it keeps up with busy producers.
    void run() {
        std::unique_lock lock(wakeMutex);
        std::size_t drained = 0;
        while (!stopping) {
            if (drained < kBacklogRecords)
                wake.wait_for(lock, std::chrono::milliseconds(50));
            if (stopping)
                break;
            lock.unlock();
            {
                std::lock_guard flushLock(flushMutex);
                drained = drain(false);
            }
            lock.lock();
        }
    }
    static constexpr std::size_t kBacklogRecords = 4 * ThreadEventBuffer::Chunk::kCapacity;

    // --- names (any thread) ---
    std::mutex namesMutex;
    std::vector<std::string> channelNames;
    std::unordered_map<std::string, std::uint16_t> channelIds;
    std::deque<std::string> labels;
    std::unordered_map<std::string, std::uint32_t> labelIds;
    // Label ids of texts in read-only memory (string literals), by address and length.
    std::map<std::pair<const char*, std::size_t>, std::uint32_t> literalIds;
    struct GraphDef {
        std::string name, unit;
    };
    struct SeriesDef {
        std::uint32_t graph;
        std::string name;
    };
    std::vector<GraphDef> graphs;
    std::vector<SeriesDef> series;
    struct Sample {
        std::uint32_t series;
        std::uint64_t ticks;
        double value;
    };
    std::vector<Sample> samples;
    struct HeatmapDef {
        std::string name, unit;
        bool integerValues;
        std::vector<std::string> edges;
    };
    struct HeatmapValue {
        std::uint32_t heatmap;
        std::int32_t bucket;
        std::uint64_t ticks;
        double value;
    };
    std::vector<HeatmapDef> heatmaps;
    std::vector<HeatmapValue> heatmapValues;

    // --- tracepoint metadata (any thread adds; the writer takes it when it stores the event) ---
    std::mutex metadataMutex;
    std::unordered_map<std::uint32_t, report::EventMetadata> metadata;
    std::uint32_t nextMetadataId = 1;

    std::optional<report::EventMetadata> takeMetadata(std::uint32_t id) {
        if (id == 0)
            return std::nullopt;
        std::lock_guard lock(metadataMutex);
        auto it = metadata.find(id);
        if (it == metadata.end())
            return std::nullopt;
        std::optional<report::EventMetadata> out(std::move(it->second));
        metadata.erase(it);
        return out;
    }

    // --- threads (registration under threadsMutex; events lock-free) ---
    std::shared_ptr<ChunkBudget> budget;
    std::mutex threadsMutex;
    std::vector<std::shared_ptr<ThreadEventBuffer>> buffers;

    // --- flusher state (under flushMutex) ---
    std::mutex flushMutex;
    report::HostTraceWriter writer;
    CycleClock clock;
    std::int64_t pid = 0;
    std::int64_t process = 0;
    struct OpenEvent {
        std::uint32_t label;
        std::uint16_t channel;
        std::uint64_t ticks;
        std::uint32_t metadata; // id of the begin's metadata, 0 for none
    };
    // A kMetadataRecord waiting for the event record after it.
    struct PendingMetadata {
        std::uint32_t id = 0;
        std::uint32_t label = 0;
        std::uint16_t channel = 0;
    };
    struct ThreadState {
        std::int64_t row = 0;
        std::vector<OpenEvent> open;
        std::uint64_t droppedWritten = 0;
        PendingMetadata pending;
    };
    std::unordered_map<std::uint64_t, ThreadState> threads; // by buffer serial
    std::vector<std::int64_t> channelRows, labelRows, graphRows, seriesRows, heatmapRows;
    HostTracerStats stats;
    std::uint32_t generation;

    std::mutex wakeMutex;
    std::condition_variable wake;
    bool stopping = false;
    std::thread flusher;

    // The calling thread's buffer in this session, registered on its first event. One buffer per
    // (thread, session): a restarted session gets fresh buffers. The session's shared_ptr keeps
    // the buffer until the writer has drained it after the thread exits.
    ThreadEventBuffer& bufferOfThisThread() {
        if (tOwnBuffer && pvti::detail::tCursor.generation == generation) [[likely]]
            return *tOwnBuffer;
        char name[32] = {0};
        pthread_getname_np(pthread_self(), name, sizeof name);
        tOwnBuffer = std::make_shared<ThreadEventBuffer>(
            static_cast<std::int64_t>(::syscall(SYS_gettid)), name, budget);
        tOwnBuffer->openCursor(pvti::detail::tCursor, generation);
        std::lock_guard lock(threadsMutex);
        buffers.push_back(tOwnBuffer);
        return *tOwnBuffer;
    }

    void appendSlow(const EventRecord& r) {
        ThreadEventBuffer& b = bufferOfThisThread();
        if (!b.appendSlow(pvti::detail::tCursor, r) && r.kind == pvti::detail::kMetadataRecord)
            takeMetadata(r.label); // not recorded: nobody will take it
    }

    // Writes names registered since the last flush, so rows can refer to them.
    void syncNames() {
        std::lock_guard lock(namesMutex);
        for (std::size_t i = channelRows.size(); i < channelNames.size(); ++i)
            channelRows.push_back(writer.addChannel(channelNames[i]));
        for (std::size_t i = labelRows.size(); i < labels.size(); ++i)
            labelRows.push_back(writer.intern(labels[i]));
        for (std::size_t i = graphRows.size(); i < graphs.size(); ++i)
            graphRows.push_back(writer.addGraph(process, graphs[i].name, graphs[i].unit));
        for (std::size_t i = seriesRows.size(); i < series.size(); ++i)
            seriesRows.push_back(writer.addSeries(graphRows[series[i].graph], series[i].name));
        for (std::size_t i = heatmapRows.size(); i < heatmaps.size(); ++i)
            heatmapRows.push_back(writer.addHeatmap(process, heatmaps[i].name, heatmaps[i].unit,
                                                    heatmaps[i].integerValues, heatmaps[i].edges));
    }

    void emit(ThreadState& t, const OpenEvent& e, std::uint64_t endTicks, std::int32_t depth,
              std::uint32_t endMetadata = 0) {
        if ((e.metadata | endMetadata) == 0) [[likely]] {
            writer.addEvent(t.row, channelRows[e.channel], labelRows[e.label],
                            clock.wallNs(e.ticks), clock.wallNs(endTicks), depth);
            ++stats.eventsWritten;
            return;
        }
        const auto atBegin = takeMetadata(e.metadata);
        const auto atEnd = takeMetadata(endMetadata);
        writer.addEvent(t.row, channelRows[e.channel], labelRows[e.label], clock.wallNs(e.ticks),
                        clock.wallNs(endTicks), depth, atBegin ? &*atBegin : nullptr,
                        atEnd ? &*atEnd : nullptr);
        ++stats.eventsWritten;
    }

    // The metadata id recorded just before `r` for it (same label and channel), 0 when none. A
    // metadata record whose event was dropped is let go.
    std::uint32_t metadataFor(ThreadState& t, const EventRecord& r) {
        if (t.pending.id == 0) [[likely]]
            return 0;
        const PendingMetadata p = t.pending;
        t.pending = {};
        if (p.id != 0 && (p.label != r.label || p.channel != r.channel)) {
            takeMetadata(p.id);
            return 0;
        }
        return p.id;
    }

    void consume(ThreadState& t, const EventRecord& r) {
        if (r.kind == pvti::detail::kMetadataRecord) {
            if (t.pending.id != 0) // its event was dropped
                takeMetadata(t.pending.id);
            t.pending = {r.label, static_cast<std::uint32_t>(r.ticks), r.channel};
            return;
        }
        ++stats.eventsRecorded;
        const std::uint32_t metadata = metadataFor(t, r);
        // A name is registered before any record uses it, but possibly after the last sync.
        if (r.label >= labelRows.size() || r.channel >= channelRows.size())
            syncNames();
        switch (r.kind) {
        case pvti::detail::kBeginEvent:
            t.open.push_back({r.label, r.channel, r.ticks, metadata});
            break;
        case pvti::detail::kInstantEvent: {
            const auto m = takeMetadata(metadata);
            writer.addInstant(t.row, channelRows[r.channel], labelRows[r.label],
                              clock.wallNs(r.ticks), static_cast<std::int32_t>(t.open.size()),
                              m ? &*m : nullptr);
            ++stats.eventsWritten;
            break;
        }
        case pvti::detail::kEndEvent: {
            // Ends normally close the innermost event. An end for an outer label closes the inner
            // ones at the same time, keeping the nesting valid; an end nobody began is counted.
            std::size_t i = t.open.size();
            while (i > 0 && !(t.open[i - 1].label == r.label && t.open[i - 1].channel == r.channel))
                --i;
            if (i == 0) {
                ++stats.unmatchedEnds;
                takeMetadata(metadata);
                break;
            }
            while (t.open.size() >= i) {
                const OpenEvent e = t.open.back();
                t.open.pop_back();
                // The end's metadata belongs to the event it names, the outermost one closed.
                emit(t, e, r.ticks, static_cast<std::int32_t>(t.open.size()),
                     t.open.size() == i - 1 ? metadata : 0);
            }
            break;
        }
        default: // a kind this build does not know (a newer writer's record): not recorded
            takeMetadata(metadata);
            break;
        }
    }

    std::size_t drain(bool final) {
        std::size_t drained = 0;
        clock.recalibrate();
        syncNames();
        std::vector<std::shared_ptr<ThreadEventBuffer>> current;
        {
            std::lock_guard lock(threadsMutex);
            current = buffers;
        }
        for (const auto& b : current) {
            ThreadState& t = threads[b->serial()];
            if (t.row == 0)
                t.row = writer.addThread(process, b->tid(),
                                         b->name().empty() ? fmt::format("thread {}", b->tid())
                                                           : b->name());
            drained += b->drain([&](const EventRecord& r) { consume(t, r); });
            if (const std::uint64_t dropped = b->dropped(); dropped != t.droppedWritten) {
                writer.setDroppedEvents(t.row, static_cast<std::int64_t>(dropped));
                stats.eventsDropped += dropped - t.droppedWritten;
                t.droppedWritten = dropped;
            }
            if (final) {
                for (std::size_t d = 0; d < t.open.size(); ++d) {
                    const auto& e = t.open[d];
                    const auto m = takeMetadata(e.metadata);
                    writer.addUnfinished(t.row, channelRows[e.channel], labelRows[e.label],
                                         clock.wallNs(e.ticks), static_cast<std::int32_t>(d),
                                         m ? &*m : nullptr);
                    ++stats.eventsWritten;
                }
                t.open.clear();
            }
        }
        {
            // Buffers of exited threads that are now empty can go.
            std::lock_guard lock(threadsMutex);
            std::erase_if(buffers, [](const auto& b) { return b.use_count() == 2 && b->empty(); });
        }
        std::vector<Sample> pending;
        std::vector<HeatmapValue> pendingHeatmap;
        {
            std::lock_guard lock(namesMutex);
            pending.swap(samples);
            pendingHeatmap.swap(heatmapValues);
        }
        syncNames(); // the series (heatmap) of every pending sample is registered by now
        for (const auto& s : pending) {
            writer.addSample(seriesRows[s.series], clock.wallNs(s.ticks), s.value);
            ++stats.samplesWritten;
        }
        for (const auto& v : pendingHeatmap) {
            writer.addHeatmapSample(heatmapRows[v.heatmap], clock.wallNs(v.ticks), v.value,
                                    v.bucket);
            ++stats.heatmapSamplesWritten;
        }
        writer.commit();
        return drained;
    }
};

std::atomic<std::uint32_t> detail::traceGeneration{1};

namespace {

std::mutex gInstanceMutex;
// The process's tracer is closed at exit but never destroyed: a tracepoint in a static destructor
// that runs later must still find an object (a closed one, whose channels are all disabled).
std::unique_ptr<HostTracer>& instanceSlot() {
    static auto* slot = new std::unique_ptr<HostTracer>();
    return *slot;
}

// Closes the session at normal exit, after main's objects are gone, so the file is complete.
struct CloseAtExit {
    ~CloseAtExit() {
        std::lock_guard lock(gInstanceMutex);
        if (instanceSlot())
            instanceSlot()->close();
    }
};

} // namespace

std::atomic<HostTracer*> HostTracer::current_{nullptr};

HostTracer& HostTracer::createInstance() {
    static CloseAtExit closer;
    std::lock_guard lock(gInstanceMutex);
    auto& slot = instanceSlot();
    if (!slot)
        slot.reset(new HostTracer(TraceOptions::fromEnvironment()));
    current_.store(slot.get(), std::memory_order_release);
    return *slot;
}

HostTracer& HostTracer::restart(const TraceOptions& options) {
    HostTracer& current = instance(); // ensures the exit hook exists
    std::lock_guard lock(gInstanceMutex);
    current.close();
    current.session_.reset();
    current_.store(&current, std::memory_order_release);
    current.closed_ = false;
    current.options_ = options;
    current.file_.clear();
    if (options.enable) {
        std::filesystem::create_directories(options.directory);
        current.file_ = traceFileName(options.directory);
        current.session_ =
            std::make_unique<Session>(current.file_, generation() + 1, options.bufferLimitBytes);
    }
    detail::traceGeneration.fetch_add(1, std::memory_order_acq_rel);
    return current;
}

HostTracer::HostTracer(TraceOptions options) : options_(std::move(options)) {
    if (!options_.enable)
        return;
    std::error_code ec;
    std::filesystem::create_directories(options_.directory, ec);
    if (ec)
        throw OptionsError("PVTI_OPTIONS: cannot create directory '" + options_.directory.string() +
                           "': " + ec.message());
    file_ = traceFileName(options_.directory);
    session_ = std::make_unique<Session>(file_, generation(), options_.bufferLimitBytes);
}

HostTracer::~HostTracer() = default;

std::uint16_t HostTracer::channel(std::string_view name) {
    if (!session_ || !options_.channelEnabled(name))
        return kDisabledChannel;
    std::lock_guard lock(session_->namesMutex);
    auto [it, added] = session_->channelIds.try_emplace(
        std::string(name), static_cast<std::uint16_t>(session_->channelNames.size()));
    if (added) {
        if (session_->channelNames.size() >= kDisabledChannel)
            throw OptionsError("pvti: too many trace channels");
        session_->channelNames.emplace_back(name);
    }
    return it->second;
}

std::uint32_t HostTracer::label(std::string_view text) {
    if (!session_)
        return 0;
    std::lock_guard lock(session_->namesMutex);
    auto [it, added] = session_->labelIds.try_emplace(
        std::string(text), static_cast<std::uint32_t>(session_->labels.size()));
    if (added)
        session_->labels.emplace_back(text);
    return it->second;
}

std::uint32_t HostTracer::literalLabel(const char* text, std::size_t length) {
    if (!session_)
        return 0;
    {
        std::lock_guard lock(session_->namesMutex);
        if (auto it = session_->literalIds.find({text, length}); it != session_->literalIds.end())
            return it->second;
    }
    const std::uint32_t id = label({text, length});
    std::lock_guard lock(session_->namesMutex);
    session_->literalIds.emplace(std::pair{text, length}, id);
    return id;
}

void HostTracer::begin(std::uint16_t channel, std::uint32_t label) {
    pvti::detail::record(channel, label, pvti::detail::kBeginEvent);
}

void HostTracer::end(std::uint16_t channel, std::uint32_t label) {
    pvti::detail::record(channel, label, pvti::detail::kEndEvent);
}

void HostTracer::instant(std::uint16_t channel, std::uint32_t label) {
    pvti::detail::record(channel, label, pvti::detail::kInstantEvent);
}

void HostTracer::appendSlow(std::uint16_t channel, std::uint32_t label, std::uint8_t kind,
                            std::uint64_t ticks) {
    // A record for a closed or replaced session (a tracepoint open across close()) is not kept.
    if (!session_ || session_->generation != generation())
        return;
    session_->appendSlow({ticks, label, channel, kind, 0});
}

std::uint32_t HostTracer::addMetadata(std::string_view type, const std::uint8_t* data,
                                      std::size_t size) {
    if (!session_)
        return 0;
    report::EventMetadata m{std::string(type),
                            std::string(reinterpret_cast<const char*>(data), size)};
    std::lock_guard lock(session_->metadataMutex);
    std::uint32_t id = session_->nextMetadataId++;
    if (id == 0) // wrapped: 0 means "none"
        id = session_->nextMetadataId++;
    session_->metadata[id] = std::move(m);
    return id;
}

std::uint32_t HostTracer::addGraph(std::string_view name, std::string_view unit) {
    if (!session_)
        return 0;
    std::lock_guard lock(session_->namesMutex);
    session_->graphs.push_back({std::string(name), std::string(unit)});
    return static_cast<std::uint32_t>(session_->graphs.size() - 1);
}

std::uint32_t HostTracer::addSeries(std::uint32_t graph, std::string_view name) {
    if (!session_)
        return 0;
    std::lock_guard lock(session_->namesMutex);
    session_->series.push_back({graph, std::string(name)});
    return static_cast<std::uint32_t>(session_->series.size() - 1);
}

void HostTracer::sample(std::uint32_t series, double value) {
    if (!session_)
        return;
    std::lock_guard lock(session_->namesMutex);
    if (series < session_->series.size())
        session_->samples.push_back({series, CycleClock::now(), value});
}

std::uint32_t HostTracer::addHeatmap(std::string_view name, std::string_view unit,
                                     bool integerValues, std::vector<std::string> edges) {
    if (!session_)
        return 0;
    std::lock_guard lock(session_->namesMutex);
    session_->heatmaps.push_back(
        {std::string(name), std::string(unit), integerValues, std::move(edges)});
    return static_cast<std::uint32_t>(session_->heatmaps.size() - 1);
}

void HostTracer::heatmapSamples(std::uint32_t heatmap, const double* values,
                                const std::int32_t* buckets, std::size_t count) {
    if (!session_)
        return;
    const std::uint64_t ticks = CycleClock::now();
    std::lock_guard lock(session_->namesMutex);
    if (heatmap >= session_->heatmaps.size())
        return;
    for (std::size_t i = 0; i < count; ++i)
        session_->heatmapValues.push_back({heatmap, buckets[i], ticks, values[i]});
}

void HostTracer::flush() {
    if (!session_)
        return;
    std::lock_guard lock(session_->flushMutex);
    session_->drain(false);
}

void HostTracer::close() {
    if (!session_ || closed_)
        return;
    session_->stop();
    closed_ = true;
    options_.enable = false;
    // Channels resolved while the session was open resolve again, to "disabled".
    detail::traceGeneration.fetch_add(1, std::memory_order_acq_rel);
}

HostTracerStats HostTracer::stats() const {
    if (!session_)
        return {};
    std::lock_guard lock(session_->flushMutex);
    return session_->stats;
}

} // namespace tilescope::capture
