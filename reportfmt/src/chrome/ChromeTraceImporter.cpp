#include "ChromeTraceImporter.hpp"

#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <limits>
#include <thread>

namespace tilescope::report::detail {
namespace {

// pid/tid may be numbers or strings, or missing (0).
const std::string& idText(const TraceScalar& s) {
    static const std::string zero = "0";
    return s.type == TraceScalar::Type::None ? zero : s.text;
}

/// Order among events of one thread with the same timestamp: B, E and instants first, in input
/// order (an E at t closes before an X at t opens; a B at t encloses an X at t), then X events,
/// longer first, so that a parent precedes the children that start with it.
std::int64_t rank(char ph, std::int64_t dur) {
    return ph == 'X' ? -dur : std::numeric_limits<std::int64_t>::min();
}

} // namespace

std::optional<std::int64_t> microsToNanos(std::string_view text) {
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
    const double nanos = parseJsonNumber(text) * 1000.0;
    if (!std::isfinite(nanos) || std::fabs(nanos) > 9.0e18)
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(nanos));
}

namespace {

/// A pid or tid written as a small non-negative integer ("tid":7), or -1.
std::int64_t smallId(const TraceScalar& s) {
    if (s.type != TraceScalar::Type::Number || s.text.empty() || s.text.size() > 9)
        return -1;
    std::int64_t v = 0;
    for (const char c : s.text) {
        if (c < '0' || c > '9')
            return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

} // namespace

SlotHints SlotResolver::resolve(const ScannedTraceEvent& e) {
    SlotHints h;
    // Most producers write pid and tid as small integers: one integer key, no string to build.
    // A thread written both ways gets two slots, which lead to the same thread (slots are hints).
    if (const std::int64_t pid = smallId(e.pid), tid = smallId(e.tid); pid >= 0 && tid >= 0) {
        const auto key = static_cast<std::uint64_t>(pid) << 32 | static_cast<std::uint64_t>(tid);
        auto [it, added] = numericThreads_.try_emplace(key, nextThread_);
        nextThread_ += added ? 1 : 0;
        h.thread = it->second;
        h.name = nameSlot(e);
        return h;
    }
    const std::string& pid = idText(e.pid);
    const std::string& tid = idText(e.tid);
    key_.assign(pid);
    key_.push_back('\0');
    key_.append(tid);
    if (last_ && last_->first == key_) {
        h.thread = last_->second;
    } else {
        auto it = threads_.find(key_);
        if (it == threads_.end())
            it = threads_.emplace(key_, nextThread_++).first;
        last_ = &*it;
        h.thread = it->second;
    }
    h.name = nameSlot(e);
    return h;
}

std::int32_t SlotResolver::nameSlot(const ScannedTraceEvent& e) {
    if (e.name.type != TraceScalar::Type::String)
        return -1;
    auto [it, added] = names_.try_emplace(e.name.text, std::int32_t(names_.size()));
    return it->second;
}

TraceEventImporter::TraceEventImporter(HostTraceWriter& writer, std::string inputName,
                                       std::size_t maxHeldEvents, bool writeEvents)
    : w_(writer), input_(std::move(inputName)), maxHeld_(std::max<std::size_t>(maxHeldEvents, 1)),
      writeEvents_(writeEvents) {}

inline bool TraceEventImporter::Before::operator()(const Pending& a, const Pending& b) const {
    if (a.ts != b.ts)
        return a.ts < b.ts;
    const std::int64_t ra = rank(a.ph(), a.dur), rb = rank(b.ph(), b.dur);
    return ra != rb ? ra < rb : a.offset() < b.offset();
}

// Every thread's held events, sorted, become one run each in the scratch file.
void TraceEventImporter::spillAll() {
    for (auto& [key, th] : threads_) {
        if (th.events.empty())
            continue;
        if (!th.sorted)
            std::sort(th.events.begin(), th.events.end(), Before{});
        th.runs.push_back(spill_.append(th.events));
        std::vector<Pending>().swap(th.events);
    }
    held_ = 0;
}

TraceEventImporter::~TraceEventImporter() = default;

void TraceEventImporter::add(const ScannedTraceEvent& e, const SlotHints& hints) {
    event_ = &e;
    hints_ = hints;
    if (e.ph.type == TraceScalar::Type::None)
        fail("an event has no \"ph\" (phase)");
    const std::string& ph = requireString(e.ph, "ph");
    if (ph.size() != 1)
        return; // multi-letter phases are not part of the format; ignored like unknown ones
    switch (ph[0]) {
    case 'M':
        return metadata(e);
    case 'C':
        return counter(e);
    case 'B':
    case 'E':
    case 'X':
        return interval(e, ph[0]);
    case 'i':
    case 'I':
        return interval(e, 'i');
    case 'b': // nestable async
    case 'S': // legacy async
        return async(e, 'B');
    case 'e':
    case 'F':
        return async(e, 'E');
    case 'n':
    case 'T':
    case 'p':
        return async(e, 'i');
    case 's':
    case 't':
    case 'f':
        return flow(e);
    default:
        return; // object and sample phases carry nothing the host trace shows
    }
}

void TraceEventImporter::fail(const std::string& what) const {
    throw ReportError(input_, fmt::format("at byte {}: {}", event_->endOffset, what));
}

const std::string& TraceEventImporter::requireString(const TraceScalar& s,
                                                     const char* field) const {
    if (s.type != TraceScalar::Type::String)
        fail(fmt::format("event field \"{}\" must be a string", field));
    return s.text;
}

std::int64_t TraceEventImporter::requireTime(const TraceScalar& s, const char* field) const {
    if (s.type == TraceScalar::Type::String) { // "ts":"12.5", as some producers write
        double value = 0;
        const char* const b = s.text.data();
        const char* const e = b + s.text.size();
        const auto [next, ec] = std::from_chars(b, e, value);
        if (s.text.empty() || next != e ||
            (ec != std::errc() && ec != std::errc::result_out_of_range))
            fail(fmt::format("event field \"{}\" must be a number (microseconds)", field));
    } else if (s.type != TraceScalar::Type::Number) {
        fail(fmt::format("event field \"{}\" must be a number (microseconds)", field));
    }
    const auto ns = microsToNanos(s.text);
    if (!ns)
        fail(fmt::format("event field \"{}\" is out of range ({})", field, s.text));
    return *ns;
}

std::int64_t TraceEventImporter::processRow(const std::string& pid) {
    auto it = processes_.find(pid);
    if (it != processes_.end())
        return it->second;
    std::int64_t numeric = 0;
    std::from_chars(pid.data(), pid.data() + pid.size(), numeric);
    const std::int64_t row = w_.addProcess(numeric, "process " + pid, 0);
    processes_.emplace(pid, row);
    return row;
}

TraceEventImporter::Thread& TraceEventImporter::thread(const std::string& pid,
                                                       const std::string& tid) {
    if (lastThread_ && lastThread_->first.first == pid && lastThread_->first.second == tid)
        return lastThread_->second;
    auto it = threads_.find({pid, tid});
    if (it == threads_.end()) {
        std::int64_t numeric = 0;
        std::from_chars(tid.data(), tid.data() + tid.size(), numeric);
        Thread t;
        t.row = w_.addThread(processRow(pid), numeric, "thread " + tid);
        t.label = fmt::format("pid {} tid {}", pid, tid);
        it = threads_.emplace(std::pair{pid, tid}, std::move(t)).first;
    }
    lastThread_ = &*it;
    return it->second;
}

TraceEventImporter::Thread& TraceEventImporter::hintedThread(const ScannedTraceEvent& e) {
    const auto slot = static_cast<std::size_t>(hints_.thread);
    if (hints_.thread >= 0 && slot < threadsBySlot_.size() && threadsBySlot_[slot])
        return *threadsBySlot_[slot];
    Thread& th = thread(idText(e.pid), idText(e.tid)); // map nodes never move
    if (hints_.thread >= 0) {
        if (slot >= threadsBySlot_.size())
            threadsBySlot_.resize(slot + 1, nullptr);
        threadsBySlot_[slot] = &th;
    }
    return th;
}

std::int32_t TraceEventImporter::hintedName(const ScannedTraceEvent& e) {
    const std::string& text = requireString(e.name, "name");
    const auto slot = static_cast<std::size_t>(hints_.name);
    if (hints_.name >= 0 && slot < namesBySlot_.size() && namesBySlot_[slot] >= 0)
        return namesBySlot_[slot];
    auto [it, added] = names_.try_emplace(text, std::int32_t(nameIds_.size()));
    if (added)
        nameIds_.push_back(w_.intern(text));
    if (hints_.name >= 0) {
        if (slot >= namesBySlot_.size())
            namesBySlot_.resize(slot + 1, -1);
        namesBySlot_[slot] = it->second;
    }
    return it->second;
}

std::int32_t TraceEventImporter::channel(const TraceScalar& cat) {
    static const std::string fallback = "default";
    const std::string& name =
        cat.type == TraceScalar::Type::String && !cat.text.empty() ? cat.text : fallback;
    if (lastChannel_ && lastChannel_->first == name) // runs of events share a category
        return lastChannel_->second;
    auto [it, added] = channels_.try_emplace(name, std::int32_t(channelIds_.size()));
    if (added)
        channelIds_.push_back(w_.addChannel(name));
    lastChannel_ = &*it;
    return it->second;
}

void TraceEventImporter::metadata(const ScannedTraceEvent& e) {
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

void TraceEventImporter::counter(const ScannedTraceEvent& e) {
    const std::string& pid = idText(e.pid);
    const std::string& graphName = requireString(e.name, "name");
    const std::int64_t t = requireTime(e.ts, "ts");
    auto g = graphs_.find({pid, graphName});
    if (g == graphs_.end()) {
        // A unit given after the first sample is lost; units come first in files we export.
        const auto unit = units_.find({pid, graphName});
        g = graphs_
                .emplace(std::pair{pid, graphName},
                         w_.addGraph(processRow(pid), graphName,
                                     unit == units_.end() ? "" : unit->second))
                .first;
    }
    for (std::size_t i = 0; i < e.argCount; ++i) {
        const auto& [k, v] = e.args[i];
        if (v.type != TraceScalar::Type::Number)
            fail(fmt::format("counter \"{}\" argument \"{}\" must be a number", graphName, k));
        auto s = seriesIndex_.find({g->second, k});
        if (s == seriesIndex_.end()) {
            s = seriesIndex_.emplace(std::pair{g->second, k}, series_.size()).first;
            series_.push_back({w_.addSeries(g->second, k), {}, true});
        }
        Series& series = series_[s->second];
        if (!series.samples.empty() && t < series.samples.back().t) {
            series.sorted = false;
            ++stats.repairs.reordered;
            if (wouldNote(e.startOffset))
                note(e.startOffset, nullptr,
                     fmt::format("counter \"{}\" sample at {} ns comes after one at {} ns",
                                 graphName, t, series.samples.back().t));
        }
        series.samples.push_back({t, v.numberValue()});
    }
}

void TraceEventImporter::interval(const ScannedTraceEvent& e, char ph) {
    const std::int64_t t = requireTime(e.ts, "ts");
    Thread& th = hintedThread(e);
    std::int64_t dur = 0;
    if (ph == 'X') {
        dur = e.dur.type == TraceScalar::Type::None ? 0 : requireTime(e.dur, "dur");
        if (dur < 0)
            fail("event field \"dur\" is negative");
        if (t > std::numeric_limits<std::int64_t>::max() - dur)
            fail("event field \"dur\" is out of range");
    }
    const std::int32_t name = ph == 'E' ? -1 : hintedName(e);
    const std::int32_t ch = ph == 'E' ? -1 : channel(e.cat);
    hold(th, e, ph, t, dur, name, ch);
    if (++held_ >= maxHeld_)
        spillAll();
}

// Holds an event of a thread (or async track) until finish(), noting when it came out of order.
void TraceEventImporter::hold(Thread& th, const ScannedTraceEvent& e, char ph, std::int64_t t,
                              std::int64_t dur, std::int32_t name, std::int32_t ch) {
    const std::int64_t r = rank(ph, dur);
    if (th.any && (t < th.lastTs || (t == th.lastTs && r < th.lastRank))) {
        th.sorted = false;
        ++stats.repairs.reordered;
        if (wouldNote(e.startOffset)) // a shuffled file has a repair per event: format once
            note(e.startOffset, &th,
                 fmt::format("event at {} ns comes after one at {} ns (reordered)", t, th.lastTs));
    }
    th.any = true;
    th.lastTs = t;
    th.lastRank = r;
    th.events.push_back(
        {t, dur, std::uint64_t{e.startOffset} << 8 | static_cast<unsigned char>(ph), name, ch});
}

void TraceEventImporter::async(const ScannedTraceEvent& e, char ph) {
    const std::int64_t t = requireTime(e.ts, "ts");
    const std::string& pid = idText(e.pid);
    const std::string category =
        e.cat.type == TraceScalar::Type::String && !e.cat.text.empty() ? e.cat.text : "default";
    const std::string& id = e.id.text; // a string or a number as written; missing: ""
    auto [it, added] = asyncTracks_.try_emplace({pid, category, id});
    AsyncTrack& track = it->second;
    if (added) {
        track.pid = pid;
        track.category = category;
        track.asyncId = id;
        track.seq.label = fmt::format("async pid {} cat {} id {}", pid, category, id);
    }
    // An "e" may name the slice it closes; one without a name closes the innermost.
    const std::int32_t name =
        e.name.type == TraceScalar::Type::String ? hintedName(e) : (ph == 'E' ? -1 : hintedName(e));
    if (track.name.empty() && ph == 'B')
        track.name = e.name.text;
    hold(track.seq, e, ph, t, 0, name, -1);
}

void TraceEventImporter::flow(const ScannedTraceEvent& e) {
    const std::int64_t t = requireTime(e.ts, "ts");
    Thread& th = hintedThread(e);
    const std::string category =
        e.cat.type == TraceScalar::Type::String ? e.cat.text : std::string();
    const std::int32_t name = e.name.type == TraceScalar::Type::String ? hintedName(e) : -1;
    flows_[{category, e.id.text}].push_back({t, e.startOffset, th.row, name});
}

void TraceEventImporter::note(std::size_t offset, const Thread* th, std::string why) {
    if (first_ && first_->offset <= offset)
        return;
    first_ = FirstRepair{offset, th ? th->label : std::string(), std::move(why)};
}

void TraceEventImporter::noteDocumentRepair(std::size_t offset, std::string why) {
    note(offset, nullptr, std::move(why));
}

void TraceEventImporter::finish() {
    nestAndWriteThreads();
    for (auto& [key, track] : asyncTracks_) {
        nestAsync(track);
        std::vector<Pending>().swap(track.seq.events);
    }
    writeFlows();
    for (Series& s : series_) {
        if (!s.sorted)
            std::stable_sort(s.samples.begin(), s.samples.end(),
                             [](const Sample& a, const Sample& b) { return a.t < b.t; });
        for (const Sample& x : s.samples)
            w_.addSample(s.id, x.t, x.value);
        stats.samples += s.samples.size();
        std::vector<Sample>().swap(s.samples);
    }
}

// Threads are sorted and nested on a second thread while this one writes the rows nested so far
// (the writer is the larger half; a few chunks in flight bound the memory). During the hand-off
// the nesting thread alone touches the held events, stats and first repair; this one the writer.
void TraceEventImporter::nestAndWriteThreads() {
    ChunkQueue<RowChunk> queue(2);
    rowQueue_ = &queue;
    std::thread nesting([&] {
        try {
            for (auto& [key, th] : threads_) {
                nest(th);
                std::vector<Pending>().swap(th.events);
            }
            queue.close();
        } catch (const ChunkQueueCancelled&) {
            queue.close(); // the writing side failed and reports its own error
        } catch (...) {
            queue.close(std::current_exception());
        }
    });
    try {
        while (auto chunk = queue.pop()) {
            if (writeEvents_)
                writeRows(*chunk);
            queue.recycle(std::move(*chunk));
        }
    } catch (...) {
        queue.cancel();
        nesting.join();
        rowQueue_ = nullptr;
        throw;
    }
    nesting.join();
    rowQueue_ = nullptr;
    if (auto error = queue.error())
        std::rethrow_exception(error);
}

void TraceEventImporter::writeRows(const RowChunk& chunk) {
    for (const WriteRow& r : chunk.rows)
        switch (r.kind) {
        case EventKind::Complete:
            w_.addEvent(chunk.thread, r.channel, r.name, r.start, r.end, r.depth);
            break;
        case EventKind::Instant:
            w_.addInstant(chunk.thread, r.channel, r.name, r.start, r.depth);
            break;
        default:
            w_.addUnfinished(chunk.thread, r.channel, r.name, r.start, r.depth);
        }
}

// Nesting over one thread's events in time order. The stack holds what may still enclose the next
// event; its index is the depth row. A slice closed out of order (an E for a B below the top)
// stays on the stack as closed until it is on top, so its row is not reused while it runs.
void TraceEventImporter::nest(Thread& th) {
    auto& events = th.events;
    if (!th.sorted)
        std::sort(events.begin(), events.end(), Before{});
    struct Open {
        bool open; // a B waiting for its E
        std::int64_t start, end;
        std::int32_t name, channel;
        std::size_t offset;
    };
    std::vector<Open> stack;
    // Rows are written in track order (see handOverNested), in bounded runs for huge threads.
    constexpr std::size_t kMaxNested = std::size_t{1} << 20;
    nested_.clear();
    auto emit = [&](const Nested& n) {
        nested_.push_back(n);
        if (nested_.size() >= kMaxNested)
            handOverNested(th);
    };
    auto step = [&](const Pending& e) {
        while (!stack.empty() && !stack.back().open && stack.back().end <= e.ts)
            stack.pop_back();
        const auto depth = static_cast<std::int32_t>(stack.size());
        switch (e.ph()) {
        case 'B':
            stack.push_back({true, e.ts, 0, e.name, e.channel, e.offset()});
            break;
        case 'E': {
            auto open =
                std::find_if(stack.rbegin(), stack.rend(), [](const Open& o) { return o.open; });
            if (open == stack.rend()) {
                ++stats.repairs.unmatchedEnds;
                note(e.offset(), &th, "an \"E\" event has no open \"B\" event (dropped)");
                break;
            }
            const auto at = static_cast<std::int32_t>(stack.rend() - open - 1);
            emit({at, EventKind::Complete, open->name, open->channel, open->start, e.ts});
            ++stats.events;
            if (open == stack.rbegin()) {
                stack.pop_back();
            } else { // slices above it started inside it and run past its end
                ++stats.repairs.overlapping;
                if (wouldNote(e.offset()))
                    note(e.offset(), &th,
                         "an \"E\" event closes a \"B\" event while slices started inside it "
                         "still run (overlapping slices placed on their own rows)");
                open->open = false;
                open->end = e.ts;
            }
            break;
        }
        case 'X': {
            const std::int64_t end = e.ts + e.dur;
            if (!stack.empty() && !stack.back().open && stack.back().end < end) {
                ++stats.repairs.overlapping;
                if (wouldNote(e.offset()))
                    note(e.offset(), &th,
                         "an \"X\" event overlaps the slice it starts in without nesting (placed "
                         "on its own row)");
            }
            emit({depth, EventKind::Complete, e.name, e.channel, e.ts, end});
            ++stats.events;
            if (e.dur > 0)
                stack.push_back({false, e.ts, end, e.name, e.channel, e.offset()});
            break;
        }
        default:
            emit({depth, EventKind::Instant, e.name, e.channel, e.ts, e.ts});
            ++stats.events;
        }
    };
    if (th.runs.empty())
        for (const Pending& e : events)
            step(e);
    else // spilled: merge the sorted runs with what is still held
        spill_.merge(th.runs, events, Before{}, step);
    // Still open when the trace ended: never finished.
    for (std::size_t d = 0; d < stack.size(); ++d)
        if (stack[d].open) {
            emit({static_cast<std::int32_t>(d), EventKind::Unfinished, stack[d].name,
                  stack[d].channel, stack[d].start, stack[d].start});
            ++stats.events;
            ++stats.repairs.unfinished;
            note(stack[d].offset, &th, "a \"B\" event is never closed (kept as unfinished)");
        }
    handOverNested(th);
}

// Nesting yields rows in time order over all depths; the writer indexes them by (thread, depth,
// start) as they arrive, which is cheapest in that order (see eventsInTrackOrder). A B/E slice
// comes out at its E, but slices of one depth do not overlap, so each depth already comes out in
// start order: a stable counting sort by depth is enough, checked, with a stable sort by start
// for a depth that is not (overlap repairs can leave one so).
void TraceEventImporter::handOverNested(const Thread& th) {
    std::size_t depths = 0;
    for (const Nested& n : nested_)
        depths = std::max(depths, static_cast<std::size_t>(n.depth) + 1);
    std::vector<std::size_t> first(depths + 1, 0);
    for (const Nested& n : nested_)
        ++first[static_cast<std::size_t>(n.depth) + 1];
    for (std::size_t d = 1; d <= depths; ++d)
        first[d] += first[d - 1];
    ordered_.resize(nested_.size());
    {
        std::vector<std::size_t> next(first.begin(), first.end() - 1);
        for (const Nested& n : nested_)
            ordered_[next[static_cast<std::size_t>(n.depth)]++] = n;
    }
    const auto byStart = [](const Nested& a, const Nested& b) { return a.start < b.start; };
    for (std::size_t d = 0; d < depths; ++d) {
        const auto begin = ordered_.begin() + static_cast<std::ptrdiff_t>(first[d]);
        const auto end = ordered_.begin() + static_cast<std::ptrdiff_t>(first[d + 1]);
        if (!std::is_sorted(begin, end, byStart))
            std::stable_sort(begin, end, byStart);
    }
    // Chunks small enough that writing overlaps nesting within a large thread too.
    constexpr std::size_t kRowsPerChunk = std::size_t{1} << 15;
    for (std::size_t from = 0; from < ordered_.size(); from += kRowsPerChunk) {
        RowChunk chunk = rowQueue_->spare();
        chunk.thread = th.row;
        const std::size_t to = std::min(ordered_.size(), from + kRowsPerChunk);
        chunk.rows.reserve(kRowsPerChunk);
        for (std::size_t i = from; i < to; ++i) {
            const Nested& n = ordered_[i];
            chunk.rows.push_back({n.start, n.end, nameIds_[static_cast<std::size_t>(n.name)],
                                  channelIds_[static_cast<std::size_t>(n.channel)], n.depth,
                                  n.kind});
        }
        rowQueue_->push(std::move(chunk));
    }
    nested_.clear();
}

// An async track's slices nest like a thread's B/E events, except that an "e" with a name closes
// the innermost open slice of that name (operations of one id may interleave).
void TraceEventImporter::nestAsync(AsyncTrack& track) {
    Thread& seq = track.seq;
    auto& events = seq.events;
    if (!seq.sorted)
        std::sort(events.begin(), events.end(), [](const Pending& a, const Pending& b) {
            return a.ts != b.ts ? a.ts < b.ts : a.offset() < b.offset();
        });
    const std::string name =
        track.name.empty() ? fmt::format("{} {}", track.category, track.asyncId) : track.name;
    const std::int64_t row =
        w_.addAsyncTrack(processRow(track.pid), name, track.category, track.asyncId);
    struct Open {
        bool open;
        std::int64_t start, end;
        std::int32_t name;
        std::size_t offset;
    };
    std::vector<Open> stack;
    auto nameId = [&](std::int32_t n) {
        return n >= 0 ? nameIds_[static_cast<std::size_t>(n)] : w_.intern(name);
    };
    for (const Pending& e : events) {
        while (!stack.empty() && !stack.back().open && stack.back().end <= e.ts)
            stack.pop_back();
        const auto depth = static_cast<std::int32_t>(stack.size());
        if (e.ph() == 'B') {
            stack.push_back({true, e.ts, 0, e.name, e.offset()});
        } else if (e.ph() == 'E') {
            auto open = std::find_if(stack.rbegin(), stack.rend(), [&](const Open& o) {
                return o.open && (e.name < 0 || o.name == e.name);
            });
            if (open == stack.rend())
                open = std::find_if(stack.rbegin(), stack.rend(),
                                    [](const Open& o) { return o.open; });
            if (open == stack.rend()) {
                ++stats.repairs.unmatchedEnds;
                note(e.offset(), &seq, "an async end event has no open begin (dropped)");
                continue;
            }
            w_.addAsyncSlice(row, nameId(open->name), EventKind::Complete, open->start, e.ts,
                             static_cast<std::int32_t>(stack.rend() - open - 1));
            ++stats.asyncSlices;
            if (open == stack.rbegin())
                stack.pop_back();
            else {
                open->open = false;
                open->end = e.ts;
            }
        } else {
            w_.addAsyncSlice(row, nameId(e.name), EventKind::Instant, e.ts, e.ts, depth);
            ++stats.asyncSlices;
        }
    }
    for (std::size_t d = 0; d < stack.size(); ++d)
        if (stack[d].open) {
            w_.addAsyncSlice(row, nameId(stack[d].name), EventKind::Unfinished, stack[d].start,
                             std::nullopt, static_cast<std::int32_t>(d));
            ++stats.asyncSlices;
            ++stats.repairs.unfinished;
            note(stack[d].offset, &seq, "an async begin event is never ended (kept as unfinished)");
        }
}

// A flow's points (s, then t steps, then f) in time order become arrows between consecutive
// points; a flow with a single point has no arrow and is dropped.
void TraceEventImporter::writeFlows() {
    for (auto& [key, points] : flows_) {
        std::sort(points.begin(), points.end(), [](const FlowPoint& a, const FlowPoint& b) {
            return a.ts != b.ts ? a.ts < b.ts : a.offset < b.offset;
        });
        if (points.size() < 2) {
            ++stats.repairs.danglingFlows;
            note(points.front().offset, nullptr,
                 fmt::format("flow \"{}\" has a single event (dropped)", key.second));
            continue;
        }
        std::int32_t name = -1;
        for (const auto& p : points)
            if (name < 0)
                name = p.name;
        const std::int64_t nameId =
            name >= 0 ? nameIds_[static_cast<std::size_t>(name)] : w_.intern("flow");
        for (std::size_t i = 1; i < points.size(); ++i) {
            w_.addFlow(nameId, points[i - 1].threadRow, points[i - 1].ts, points[i].threadRow,
                       points[i].ts);
            ++stats.flows;
        }
    }
}

} // namespace tilescope::report::detail
