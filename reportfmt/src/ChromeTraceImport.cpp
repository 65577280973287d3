// Streaming import of Chrome trace-event JSON into a host trace. Two threads share the work: one
// scans the memory-mapped JSON into batches of events (ChromeTraceScanner), the calling thread
// turns them into host-trace rows (nesting, names, counters) and writes them. Batches are recycled
// through a small pipe, so memory stays bounded whatever the input size.

#include "ChromeTraceScanner.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ReportError.hpp"

#include <charconv>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <exception>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

namespace tilescope::report {
namespace {

using detail::ScannedTraceEvent;
using detail::TraceScalar;

/// Microseconds as written in the JSON ("12.345", "1.7e3") to whole nanoseconds, exactly when the
/// text has no exponent (doubles cannot hold epoch nanoseconds exactly); digits past the third
/// decimal are dropped. One pass over the characters: this runs twice per event.
std::optional<std::int64_t> microsToNanos(std::string_view text, double value) {
    constexpr std::int64_t limit = std::numeric_limits<std::int64_t>::max() / 1000 - 1;
    const char* p = text.data();
    const char* const end = p + text.size();
    const bool negative = p != end && *p == '-';
    p += negative ? 1 : 0;
    bool exact = p != end;
    std::int64_t whole = 0;
    for (; exact && p != end && *p >= '0' && *p <= '9'; ++p) {
        whole = whole * 10 + (*p - '0');
        exact = whole <= limit; // beyond: out of range, which the double path reports
    }
    std::int64_t ns = 0;
    int decimals = 0;
    if (exact && p != end && *p == '.')
        for (++p; p != end && *p >= '0' && *p <= '9'; ++p)
            if (decimals < 3) {
                ns = ns * 10 + (*p - '0');
                ++decimals;
            }
    if (exact && p == end) { // no exponent
        for (; decimals < 3; ++decimals)
            ns *= 10;
        return negative ? -(whole * 1000 + ns) : whole * 1000 + ns;
    }
    const double nanos = value * 1000.0;
    if (!std::isfinite(nanos) || std::fabs(nanos) > 9.0e18)
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(nanos));
}

struct Interval {
    bool open;          // a B waiting for its E
    std::int64_t start; // ns
    std::int64_t end;   // ns, for X
    std::int64_t name;
    std::int64_t channel;
};

struct ThreadState {
    std::int64_t row = 0;
    std::int64_t lastStart = std::numeric_limits<std::int64_t>::min();
    std::vector<Interval> stack;
};

// pid/tid may be numbers or strings, or missing (0).
const std::string& idText(const TraceScalar& s) {
    static const std::string zero = "0";
    return s.type == TraceScalar::Type::None ? zero : s.text;
}

/// Numbers the scanning thread gives an event's thread (pid, tid) and name, in order of first
/// appearance; -1 where the event has none.
struct SlotHints {
    std::int32_t thread = -1;
    std::int32_t name = -1;
};

/// Runs on the scanning thread, which has time to spare: string lookups moved off the writing
/// thread (a tenth of its work on traces whose threads interleave).
class SlotResolver {
public:
    SlotHints resolve(const ScannedTraceEvent& e) {
        SlotHints h;
        const std::string& pid = idText(e.pid);
        const std::string& tid = idText(e.tid);
        if (last_ && last_->first.first == pid && last_->first.second == tid) {
            h.thread = last_->second;
        } else {
            auto it = threads_.find({pid, tid});
            if (it == threads_.end())
                it = threads_.emplace(std::pair{pid, tid}, std::int32_t(threads_.size())).first;
            last_ = &*it;
            h.thread = it->second;
        }
        if (e.name.type == TraceScalar::Type::String) {
            auto [it, added] = names_.try_emplace(e.name.text, std::int32_t(names_.size()));
            h.name = it->second;
        }
        return h;
    }

private:
    std::map<std::pair<std::string, std::string>, std::int32_t> threads_;
    const std::pair<const std::pair<std::string, std::string>, std::int32_t>* last_ = nullptr;
    std::unordered_map<std::string, std::int32_t> names_;
};

/// Turns scanned trace events into writer calls: pairs B with E, tracks nesting from X
/// intervals, interns names, and maps counters to graphs and series.
class TraceEventImporter {
public:
    TraceEventImporter(HostTraceWriter& writer, std::string inputName)
        : w_(writer), input_(std::move(inputName)) {}

    ChromeTraceStats stats;

    /// `hints` come from the scanning thread (SlotResolver): small numbers for the event's thread
    /// and name, so that this thread, the slower of the two, looks them up in a vector.
    void add(const ScannedTraceEvent& e, const SlotHints& hints) {
        event_ = &e;
        hints_ = hints;
        const std::string& ph = requireString(e.ph, "ph");
        if (ph.size() != 1)
            return; // multi-letter phases are not part of the format; ignored like unknown ones
        switch (ph[0]) {
        case 'M':
            metadata(e);
            return;
        case 'C':
            counter(e);
            return;
        case 'B':
        case 'E':
        case 'X':
        case 'i':
        case 'I':
            interval(e, ph[0]);
            return;
        default:
            return; // flow, async, object and sample phases carry no host-timeline intervals
        }
    }

    /// Events still open when the trace ended were never finished.
    void finish() {
        for (auto& [key, t] : threads_)
            for (std::size_t d = 0; d < t.stack.size(); ++d)
                if (t.stack[d].open) {
                    w_.addUnfinished(t.row, t.stack[d].channel, t.stack[d].name, t.stack[d].start,
                                     static_cast<std::int32_t>(d));
                    ++stats.events;
                }
    }

private:
    using Key = std::pair<std::string, std::string>; // pid, tid as written

    [[noreturn]] void fail(const std::string& what) const {
        throw ReportError(input_, fmt::format("at byte {}: {}", event_->endOffset, what));
    }

    const std::string& requireString(const TraceScalar& s, const char* field) const {
        if (s.type != TraceScalar::Type::String)
            fail(fmt::format("event field \"{}\" must be a string", field));
        return s.text;
    }

    std::int64_t requireTime(const TraceScalar& s, const char* field) const {
        if (s.type != TraceScalar::Type::Number)
            fail(fmt::format("event field \"{}\" must be a number (microseconds)", field));
        const auto ns = microsToNanos(s.text, s.number);
        if (!ns)
            fail(fmt::format("event field \"{}\" is out of range ({})", field, s.text));
        return *ns;
    }

    std::int64_t processRow(const std::string& pid) {
        auto it = processes_.find(pid);
        if (it != processes_.end())
            return it->second;
        std::int64_t numeric = 0;
        std::from_chars(pid.data(), pid.data() + pid.size(), numeric);
        const std::int64_t row = w_.addProcess(numeric, "process " + pid, 0);
        processes_.emplace(pid, row);
        return row;
    }

    ThreadState& thread(const std::string& pid, const std::string& tid) {
        // Consecutive events mostly come from the same thread.
        if (lastThread_ && lastThread_->first.first == pid && lastThread_->first.second == tid)
            return lastThread_->second;
        auto it = threads_.find({pid, tid});
        if (it == threads_.end()) {
            std::int64_t numeric = 0;
            std::from_chars(tid.data(), tid.data() + tid.size(), numeric);
            ThreadState t;
            t.row = w_.addThread(processRow(pid), numeric, "thread " + tid);
            it = threads_.emplace(Key{pid, tid}, std::move(t)).first;
        }
        lastThread_ = &*it;
        return it->second;
    }

    std::int64_t channel(const TraceScalar& cat) {
        static const std::string fallback = "default";
        const std::string& name =
            cat.type == TraceScalar::Type::String && !cat.text.empty() ? cat.text : fallback;
        if (lastChannel_ && lastChannel_->first == name) // runs of events share a category
            return lastChannel_->second;
        auto it = channels_.find(name);
        if (it == channels_.end())
            it = channels_.emplace(name, w_.addChannel(name)).first;
        lastChannel_ = &*it;
        return it->second;
    }

    std::int64_t name(const std::string& text) {
        auto it = names_.find(text);
        if (it != names_.end())
            return it->second;
        return names_.emplace(text, w_.intern(text)).first->second;
    }

    void metadata(const ScannedTraceEvent& e) {
        const std::string& pid = idText(e.pid);
        const std::string& what = requireString(e.name, "name");
        std::string value;
        for (std::size_t i = 0; i < e.argCount; ++i)
            if (e.args[i].key == "name" && e.args[i].value.type == TraceScalar::Type::String)
                value = e.args[i].value.text;
        if (what == "process_name" && !value.empty())
            w_.renameProcess(processRow(pid), value);
        else if (what == "thread_name" && !value.empty())
            w_.renameThread(thread(pid, idText(e.tid)).row, value);
        else if (what == "tilescope_counter_unit")
            for (std::size_t i = 0; i < e.argCount; ++i)
                if (e.args[i].key == "unit" && e.args[i].value.type == TraceScalar::Type::String)
                    units_[{pid, value}] = e.args[i].value.text;
    }

    void counter(const ScannedTraceEvent& e) {
        const std::string& pid = idText(e.pid);
        const std::string& graphName = requireString(e.name, "name");
        const std::int64_t t = requireTime(e.ts, "ts");
        auto g = graphs_.find({pid, graphName});
        if (g == graphs_.end()) {
            const auto unit = units_.find({pid, graphName});
            g = graphs_
                    .emplace(Key{pid, graphName},
                             w_.addGraph(processRow(pid), graphName,
                                         unit == units_.end() ? "" : unit->second))
                    .first;
        }
        for (std::size_t i = 0; i < e.argCount; ++i) {
            const auto& [k, v] = e.args[i];
            if (v.type != TraceScalar::Type::Number)
                fail(fmt::format("counter \"{}\" argument \"{}\" must be a number", graphName, k));
            auto s = series_.find({g->second, k});
            if (s == series_.end())
                s = series_.emplace(std::pair{g->second, k}, w_.addSeries(g->second, k)).first;
            w_.addSample(s->second, t, v.number);
            ++stats.samples;
        }
    }

    ThreadState& hintedThread(const ScannedTraceEvent& e) {
        const auto slot = static_cast<std::size_t>(hints_.thread);
        if (hints_.thread >= 0 && slot < threadsBySlot_.size() && threadsBySlot_[slot])
            return *threadsBySlot_[slot];
        ThreadState& th = thread(idText(e.pid), idText(e.tid)); // map nodes never move
        if (hints_.thread >= 0) {
            if (slot >= threadsBySlot_.size())
                threadsBySlot_.resize(slot + 1, nullptr);
            threadsBySlot_[slot] = &th;
        }
        return th;
    }

    std::int64_t hintedName(const ScannedTraceEvent& e) {
        const std::string& text = requireString(e.name, "name");
        const auto slot = static_cast<std::size_t>(hints_.name);
        if (hints_.name >= 0 && slot < namesBySlot_.size() && namesBySlot_[slot] >= 0)
            return namesBySlot_[slot];
        const std::int64_t id = name(text);
        if (hints_.name >= 0) {
            if (slot >= namesBySlot_.size())
                namesBySlot_.resize(slot + 1, -1);
            namesBySlot_[slot] = id;
        }
        return id;
    }

    // Closes the X intervals that ended by `t`; what remains encloses an event starting at `t`.
    static void popFinished(ThreadState& th, std::int64_t t) {
        while (!th.stack.empty() && !th.stack.back().open && th.stack.back().end <= t)
            th.stack.pop_back();
    }

    void interval(const ScannedTraceEvent& e, char ph) {
        const std::int64_t t = requireTime(e.ts, "ts");
        const std::string& tid = idText(e.tid);
        ThreadState& th = hintedThread(e);
        if (t < th.lastStart)
            fail(fmt::format("events of thread {} are not in time order ({} ns after {} ns); "
                             "sort each thread's events by time",
                             tid, t, th.lastStart));
        th.lastStart = t;
        popFinished(th, t);
        const std::int64_t ch = channel(e.cat);
        if (ph == 'B') {
            th.stack.push_back({true, t, 0, hintedName(e), ch});
        } else if (ph == 'E') {
            if (th.stack.empty() || !th.stack.back().open)
                fail(fmt::format("an \"E\" event on thread {} has no open \"B\" event", tid));
            const Interval b = th.stack.back();
            th.stack.pop_back();
            w_.addEvent(th.row, b.channel, b.name, b.start, t,
                        static_cast<std::int32_t>(th.stack.size()));
            ++stats.events;
        } else if (ph == 'X') {
            const std::int64_t dur =
                e.dur.type == TraceScalar::Type::None ? 0 : requireTime(e.dur, "dur");
            if (dur < 0)
                fail("event field \"dur\" is negative");
            const std::int64_t n = hintedName(e);
            w_.addEvent(th.row, ch, n, t, t + dur, static_cast<std::int32_t>(th.stack.size()));
            ++stats.events;
            if (dur > 0)
                th.stack.push_back({false, t, t + dur, n, ch});
        } else {
            w_.addInstant(th.row, ch, hintedName(e), t, static_cast<std::int32_t>(th.stack.size()));
            ++stats.events;
        }
    }

    HostTraceWriter& w_;
    std::string input_;
    const ScannedTraceEvent* event_ = nullptr;

    std::map<std::string, std::int64_t> processes_;
    std::map<Key, ThreadState> threads_;
    std::pair<const Key, ThreadState>* lastThread_ = nullptr;
    std::unordered_map<std::string, std::int64_t> channels_, names_;
    const std::pair<const std::string, std::int64_t>* lastChannel_ = nullptr; // in channels_
    std::map<Key, std::int64_t> graphs_;
    std::map<std::pair<std::int64_t, std::string>, std::int64_t> series_;
    std::map<Key, std::string> units_;
    SlotHints hints_;
    std::vector<ThreadState*> threadsBySlot_; // by SlotHints::thread; null: not seen here yet
    std::vector<std::int64_t> namesBySlot_;   // by SlotHints::name; -1: not interned yet
};

/// A batch of scanned events; its vectors keep their capacity from one use to the next.
struct EventBatch {
    std::vector<ScannedTraceEvent> events;
    std::vector<SlotHints> hints; // parallel to events
    std::size_t count = 0;
};

/// Hands batches from the scanning thread to the writing thread and back. The scanner ends the
/// stream (with its error, if any); the writer can cancel it when it fails first.
class BatchPipe {
public:
    static constexpr std::size_t kBatches = 4;

    BatchPipe() {
        for (auto& b : batches_)
            empty_.push_back(&b);
    }

    /// Scanner side: an empty batch to fill, or null once cancelled.
    EventBatch* takeEmpty() {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return cancelled_ || !empty_.empty(); });
        if (cancelled_)
            return nullptr;
        EventBatch* b = empty_.front();
        empty_.pop_front();
        return b;
    }
    void putFull(EventBatch* b) {
        std::lock_guard lock(m_);
        full_.push_back(b);
        cv_.notify_all();
    }
    void end(std::exception_ptr error = nullptr) {
        std::lock_guard lock(m_);
        ended_ = true;
        error_ = error;
        cv_.notify_all();
    }

    /// Writer side: the next full batch in order, or null at the end of the stream.
    EventBatch* takeFull() {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return ended_ || !full_.empty(); });
        if (full_.empty())
            return nullptr;
        EventBatch* b = full_.front();
        full_.pop_front();
        return b;
    }
    void giveBack(EventBatch* b) {
        std::lock_guard lock(m_);
        empty_.push_back(b);
        cv_.notify_all();
    }
    void cancel() {
        std::lock_guard lock(m_);
        cancelled_ = true;
        cv_.notify_all();
    }
    std::exception_ptr error() {
        std::lock_guard lock(m_);
        return error_;
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    EventBatch batches_[kBatches];
    std::deque<EventBatch*> empty_, full_;
    bool ended_ = false, cancelled_ = false;
    std::exception_ptr error_;
};

constexpr std::size_t kEventsPerBatch = 4096;

void scanInto(detail::ChromeTraceScanner& scanner, BatchPipe& pipe, const std::string& path) {
    SlotResolver slots;
    try {
        for (bool more = true; more;) {
            EventBatch* b = pipe.takeEmpty();
            if (!b)
                return pipe.end();
            b->count = 0;
            while (b->count < kEventsPerBatch) {
                if (b->count == b->events.size()) {
                    b->events.emplace_back();
                    b->hints.emplace_back();
                }
                if (!scanner.next(b->events[b->count])) {
                    more = false;
                    break;
                }
                b->hints[b->count] = slots.resolve(b->events[b->count]);
                ++b->count;
            }
            pipe.putFull(b);
        }
        // Checked after the last events are handed over, so errors come in input order.
        if (!scanner.foundEventArray())
            throw ReportError(path,
                              fmt::format("at byte {}: no trace events: expected a JSON array of "
                                          "events or an object with \"traceEvents\"",
                                          scanner.offset()));
        scanner.finish();
        pipe.end();
    } catch (...) {
        pipe.end(std::current_exception());
    }
}

} // namespace

ChromeTraceStats importChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output) {
    detail::MappedFile file(input);
    // Written next to the output and renamed at the end: a failed import leaves nothing behind.
    const std::filesystem::path partial = output.string() + ".partial";
    ChromeTraceStats stats;
    try {
        HostTraceWriterOptions options;
        options.scratchFile = true; // renamed into place only once complete, deleted otherwise
        HostTraceWriter writer(partial, options);
        writer.setMetadata("imported_from", input.filename().string());
        TraceEventImporter importer(writer, input.string());
        detail::ChromeTraceScanner scanner(file);
        BatchPipe pipe;
        std::thread scanning([&] { scanInto(scanner, pipe, input.string()); });
        try {
            while (EventBatch* b = pipe.takeFull()) {
                for (std::size_t i = 0; i < b->count; ++i)
                    importer.add(b->events[i], b->hints[i]);
                pipe.giveBack(b);
            }
        } catch (...) {
            pipe.cancel();
            scanning.join();
            throw;
        }
        scanning.join();
        if (auto error = pipe.error())
            std::rethrow_exception(error);
        importer.finish();
        writer.close();
        stats = importer.stats;
        stats.bytes = file.size();
    } catch (...) {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            std::filesystem::remove(partial.string() + suffix, ec);
        throw;
    }
    std::error_code ec;
    std::filesystem::rename(partial, output, ec);
    if (ec)
        throw ReportError(output.string(), "cannot write: " + ec.message());
    return stats;
}

} // namespace tilescope::report
