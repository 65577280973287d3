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
#include <memory>
#include <mutex>
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

// The hot path's thread-locals: trivially typed (no initialisation guard) and initial-exec (no
// __tls_get_addr call), which together take the per-event cost from ~80 to ~10 instructions.
#define TILESCOPE_FAST_TLS __attribute__((tls_model("initial-exec")))

struct FastBuffer {
    ThreadEventBuffer* buffer;
    std::uint32_t generation;
};
thread_local FastBuffer tFastBuffer TILESCOPE_FAST_TLS = {nullptr, 0};

struct LabelCacheEntry {
    const char* ptr;
    std::size_t size;
    const std::string* text; // the interned copy, stable for the session's lifetime
    std::uint32_t id;
    std::uint32_t generation;
};
// The label cache itself lives on the heap, behind one pointer of initial-exec TLS: glibc keeps
// only a few hundred bytes of static TLS for libraries loaded with dlopen (the libpvti and pva
// Python modules load this library so), and 64 inline entries would not fit.
constexpr std::size_t kLabelCacheSize = 64;
thread_local LabelCacheEntry* tLabelCache TILESCOPE_FAST_TLS = nullptr;

[[gnu::noinline]] LabelCacheEntry* allocateLabelCache() {
    thread_local std::unique_ptr<LabelCacheEntry[]> owner;
    owner = std::make_unique<LabelCacheEntry[]>(kLabelCacheSize); // value-initialised: empty
    tLabelCache = owner.get();
    return tLabelCache;
}

LabelCacheEntry& labelCacheSlot(const char* text) {
    LabelCacheEntry* cache = tLabelCache;
    if (!cache) [[unlikely]]
        cache = allocateLabelCache();
    return cache[(reinterpret_cast<std::uintptr_t>(text) >> 4) & (kLabelCacheSize - 1)];
}

} // namespace

/// What a session owns when tracing is on: the names seen so far, the thread buffers, the
/// writer (used by the flusher thread only, or under flushMutex) and the flusher thread.
struct HostTracer::Session {
    Session(const std::filesystem::path& file, std::uint32_t generation)
        : writer(file), clock(CycleClock::start()), generation(generation) {
        pid = ::getpid();
        writer.setMetadata("command_line", tilescope::capture::processCommandLine());
        process = writer.addProcess(pid, programName(), clock.wallNs(clock.startTicks()));
        flusher = std::thread([this] { run(); });
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

    void run() {
        std::unique_lock lock(wakeMutex);
        while (!stopping) {
            wake.wait_for(lock, std::chrono::milliseconds(50));
            if (stopping)
                break;
            lock.unlock();
            {
                std::lock_guard flushLock(flushMutex);
                drain(false);
            }
            lock.lock();
        }
    }

    // --- names (any thread) ---
    std::mutex namesMutex;
    std::vector<std::string> channelNames;
    std::unordered_map<std::string, std::uint16_t> channelIds;
    std::deque<std::string> labels; // deque: label cache entries point into it
    std::unordered_map<std::string, std::uint32_t> labelIds;
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

    // --- threads (registration under threadsMutex; events lock-free) ---
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
    };
    struct ThreadState {
        std::int64_t row = 0;
        std::vector<OpenEvent> open;
    };
    std::unordered_map<std::uint64_t, ThreadState> threads; // by buffer serial
    std::vector<std::int64_t> channelRows, labelRows, graphRows, seriesRows;
    HostTracerStats stats;
    std::uint32_t generation;

    std::mutex wakeMutex;
    std::condition_variable wake;
    bool stopping = false;
    std::thread flusher;

    ThreadEventBuffer& bufferOfThisThread() {
        // One buffer per (thread, session): a restarted session gets fresh buffers. The raw
        // pointer is the hot path; the shared_ptr keeps the buffer alive until the flusher has
        // drained it after the thread exits.
        if (tFastBuffer.buffer && tFastBuffer.generation == generation) [[likely]]
            return *tFastBuffer.buffer;
        return registerThisThread();
    }

    // First event of a thread in this session: kept out of line so the hot path stays small.
    [[gnu::noinline]] ThreadEventBuffer& registerThisThread() {
        thread_local std::shared_ptr<ThreadEventBuffer> local;
        {
            char name[32] = {0};
            pthread_getname_np(pthread_self(), name, sizeof name);
            local = std::make_shared<ThreadEventBuffer>(
                static_cast<std::int64_t>(::syscall(SYS_gettid)), name);
            tFastBuffer = {local.get(), generation};
            std::lock_guard lock(threadsMutex);
            buffers.push_back(local);
        }
        return *local;
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
    }

    void emit(ThreadState& t, const OpenEvent& e, std::uint64_t endTicks, std::int32_t depth) {
        writer.addEvent(t.row, channelRows[e.channel], labelRows[e.label], clock.wallNs(e.ticks),
                        clock.wallNs(endTicks), depth);
        ++stats.eventsWritten;
    }

    void consume(ThreadState& t, const RawEvent& r) {
        ++stats.eventsRecorded;
        // A name is registered before any record uses it, but possibly after the last sync.
        if (r.label >= labelRows.size() || r.channel >= channelRows.size())
            syncNames();
        switch (r.type) {
        case RawEvent::Begin:
            t.open.push_back({r.label, r.channel, r.ticks});
            break;
        case RawEvent::Instant:
            writer.addInstant(t.row, channelRows[r.channel], labelRows[r.label],
                              clock.wallNs(r.ticks), static_cast<std::int32_t>(t.open.size()));
            ++stats.eventsWritten;
            break;
        case RawEvent::End: {
            // Ends normally close the innermost event. An end for an outer label closes the inner
            // ones at the same time, keeping the nesting valid; an end nobody began is counted.
            std::size_t i = t.open.size();
            while (i > 0 && !(t.open[i - 1].label == r.label && t.open[i - 1].channel == r.channel))
                --i;
            if (i == 0) {
                ++stats.unmatchedEnds;
                break;
            }
            while (t.open.size() >= i) {
                const OpenEvent e = t.open.back();
                t.open.pop_back();
                emit(t, e, r.ticks, static_cast<std::int32_t>(t.open.size()));
            }
            break;
        }
        }
    }

    void drain(bool final) {
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
            b->drain([&](const RawEvent& r) { consume(t, r); });
            if (final) {
                for (std::size_t d = 0; d < t.open.size(); ++d) {
                    const auto& e = t.open[d];
                    writer.addUnfinished(t.row, channelRows[e.channel], labelRows[e.label],
                                         clock.wallNs(e.ticks), static_cast<std::int32_t>(d));
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
        {
            std::lock_guard lock(namesMutex);
            pending.swap(samples);
        }
        syncNames(); // the series of every pending sample is registered by now
        for (const auto& s : pending) {
            writer.addSample(seriesRows[s.series], clock.wallNs(s.ticks), s.value);
            ++stats.samplesWritten;
        }
        writer.commit();
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
        current.session_ = std::make_unique<Session>(current.file_, generation() + 1);
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
    session_ = std::make_unique<Session>(file_, generation());
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
    // Most labels are string literals passed again and again: a small per-thread cache keyed by
    // the text's address (and checked by content, since buffers get reused) avoids the shared
    // table and its lock on the hot path.
    LabelCacheEntry& c = labelCacheSlot(text.data());
    const std::uint32_t gen = generation();
    if (c.ptr == text.data() && c.size == text.size() && c.generation == gen &&
        std::memcmp(c.text->data(), text.data(), text.size()) == 0) [[likely]]
        return c.id;
    return internLabel(text);
}

std::uint32_t HostTracer::internLabel(std::string_view text) {
    LabelCacheEntry& c = labelCacheSlot(text.data());
    std::uint32_t id;
    const std::string* interned;
    {
        std::lock_guard lock(session_->namesMutex);
        auto [it, added] = session_->labelIds.try_emplace(
            std::string(text), static_cast<std::uint32_t>(session_->labels.size()));
        if (added)
            session_->labels.emplace_back(text);
        id = it->second;
        interned = &session_->labels[id];
    }
    c = {text.data(), text.size(), interned, id, generation()};
    return id;
}

void HostTracer::begin(std::uint16_t channel, std::uint32_t label) {
    session_->bufferOfThisThread().push({CycleClock::now(), label, channel, RawEvent::Begin});
}

void HostTracer::end(std::uint16_t channel, std::uint32_t label) {
    session_->bufferOfThisThread().push({CycleClock::now(), label, channel, RawEvent::End});
}

void HostTracer::instant(std::uint16_t channel, std::uint32_t label) {
    session_->bufferOfThisThread().push({CycleClock::now(), label, channel, RawEvent::Instant});
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
