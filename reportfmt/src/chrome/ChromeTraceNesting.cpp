// The end of the Chrome import's event side: each thread's held events sorted and nested into depth
// rows, handed in chunks to the writing thread; async tracks nested like threads.

#include "ChromeTraceImporter.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <thread>

namespace tilescope::report::detail {

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
    // The args of an event (its begin, or its E), as metadata; none for most events.
    EventMetadata atBegin{kJsonMetadataType, {}}, atEnd{kJsonMetadataType, {}};
    auto argsAt = [&](std::size_t offset, EventMetadata& out) -> const EventMetadata* {
        if (args_.empty() || offset == kNoEvent)
            return nullptr;
        const auto it = args_.find(offset);
        if (it == args_.end())
            return nullptr;
        out.data = it->second;
        return &out;
    };
    for (const WriteRow& r : chunk.rows) {
        const EventMetadata* begin = argsAt(r.beginAt, atBegin);
        switch (r.kind) {
        case EventKind::Complete:
            w_.addEvent(chunk.thread, r.channel, r.name, r.start, r.end, r.depth, begin,
                        argsAt(r.endAt, atEnd));
            break;
        case EventKind::Instant:
            w_.addInstant(chunk.thread, r.channel, r.name, r.start, r.depth, begin);
            break;
        default:
            w_.addUnfinished(chunk.thread, r.channel, r.name, r.start, r.depth, begin);
        }
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
            emit({at, EventKind::Complete, open->name, open->channel, open->start, e.ts,
                  open->offset, e.offset()});
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
            emit({depth, EventKind::Complete, e.name, e.channel, e.ts, end, e.offset(), kNoEvent});
            ++stats.events;
            if (e.dur > 0)
                stack.push_back({false, e.ts, end, e.name, e.channel, e.offset()});
            break;
        }
        default:
            emit({depth, EventKind::Instant, e.name, e.channel, e.ts, e.ts, e.offset(), kNoEvent});
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
                  stack[d].channel, stack[d].start, stack[d].start, stack[d].offset, kNoEvent});
            ++stats.events;
            ++stats.repairs.unfinished;
            note(stack[d].offset, &th, "a \"B\" event is never closed (kept as unfinished)");
        }
    handOverNested(th);
}

// Nesting yields rows in time order over all depths; the writer packs each track (thread, depth)
// into blocks in the order its events arrive, which must be start order. A B/E slice
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
                                  channelIds_[static_cast<std::size_t>(n.channel)], n.depth, n.kind,
                                  n.beginAt, n.endAt});
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

} // namespace tilescope::report::detail
