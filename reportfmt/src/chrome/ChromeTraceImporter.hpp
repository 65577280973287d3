#pragma once
// The event side of the Chrome trace import: turns scanned trace events into host-trace rows.
// Producers write events in no promised order (clang's -ftime-trace writes a scope when it ends,
// children before parents; Kineto writes per category), so interval events are held per thread
// and sorted before nesting; counters are held per series. Repairs are counted, and the first one
// in the file is remembered for --strict.

#include "ChromeTraceScanner.hpp"
#include "ChunkQueue.hpp"
#include "SortedRunFile.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace tilescope::report::detail {

/// Microseconds as written ("12.345", "1.7e3"; validated number text) to whole nanoseconds,
/// exactly when the text has no exponent; digits past the third decimal are dropped. Empty when
/// out of range.
std::optional<std::int64_t> microsToNanos(std::string_view text);

/// Small numbers the scanning thread gives an event's thread (pid, tid) and name, in order of
/// first appearance; -1 where the event has none.
struct SlotHints {
    std::int32_t thread = -1;
    std::int32_t name = -1;
};

/// Numbers events' threads and names by their text in order of first appearance, with a cache
/// of the last thread (consecutive events mostly share one), so that the importer finds its
/// per-thread and per-name state in vectors.
class SlotResolver {
public:
    SlotHints resolve(const ScannedTraceEvent& e);

private:
    std::int32_t nameSlot(const ScannedTraceEvent& e);

    std::unordered_map<std::uint64_t, std::int32_t> numericThreads_; // pid << 32 | tid
    std::int32_t nextThread_ = 0;
    // Keyed by pid, a NUL, then tid, built in key_ (no allocation once grown): producers that
    // interleave threads miss the last-thread cache on every event, and a map of string pairs
    // then cost two string copies and several compares per event.
    std::unordered_map<std::string, std::int32_t> threads_;
    std::string key_;
    const std::pair<const std::string, std::int32_t>* last_ = nullptr;
    std::unordered_map<std::string, std::int32_t> names_;
};

/// The first repair in the file: where (byte offset of the event), on which thread, and why.
struct FirstRepair {
    std::size_t offset = 0;
    std::string thread; // "pid P tid T" as written, or empty for the document as a whole
    std::string why;
};

/// Collects scanned events (add), then nests and writes them (finish). An interval event costs
/// 32 bytes until finish(): a million-event file holds about 32 MB. Past `maxHeldEvents` held
/// events, every thread's events are sorted and spilled as a run to a scratch file; finish()
/// merges each thread's runs with what is still in memory (an external merge sort). finish()
/// sorts and nests on a second thread while the calling thread writes the rows already nested;
/// with `writeEvents` false those rows are dropped instead (a benchmark's diagnostic of
/// everything but the writer's event work).
class TraceEventImporter {
public:
    TraceEventImporter(HostTraceWriter& writer, std::string inputName,
                       std::size_t maxHeldEvents = std::size_t{8} << 20, bool writeEvents = true);
    ~TraceEventImporter();

    ChromeTraceStats stats;

    void add(const ScannedTraceEvent& e, const SlotHints& hints);
    /// Sorts, nests and writes every held event; counts the repairs.
    void finish();
    /// A repair of the document itself (trailing comma, cut off) at byte `offset`.
    void noteDocumentRepair(std::size_t offset, std::string why);
    const std::optional<FirstRepair>& firstRepair() const { return first_; }

private:
    /// An interval event held until finish(): 32 bytes (the phase shares a word with the offset:
    /// a fifth less memory to fill, sort and spill than with a field of its own).
    struct Pending {
        std::int64_t ts;      // ns
        std::int64_t dur;     // ns, X only
        std::uint64_t where;  // byte offset of the event << 8 | phase (B, E, X or i)
        std::int32_t name;    // local name number
        std::int32_t channel; // local channel number
        /// Byte offset of the event: input order, and where for --strict.
        std::size_t offset() const { return static_cast<std::size_t>(where >> 8); }
        char ph() const { return static_cast<char>(where & 0xFF); }
    };
    struct Thread {
        std::int64_t row = 0;
        std::vector<SortedRunFile<Pending>::Run> runs; // spilled, each sorted
        std::string label;                             // "pid P tid T"
        std::vector<Pending> events;
        std::int64_t lastTs = 0;   // of the previous event in input order
        std::int64_t lastRank = 0; // its tie rank (see rank())
        bool any = false;
        bool sorted = true;
    };
    /// The events of one asynchronous operation: (process, category, id).
    struct AsyncTrack {
        Thread seq; // its events, held and sorted like a thread's (row unused)
        std::string pid, category, asyncId, name;
    };
    /// One point of a flow (s, t or f) on a thread.
    struct FlowPoint {
        std::int64_t ts;
        std::size_t offset;
        std::int64_t threadRow;
        std::int32_t name;
    };
    /// A nested event waiting to be written with the rest of its thread in track order.
    /// Byte offset of no event (a row without an end event of its own).
    static constexpr std::size_t kNoEvent = ~std::size_t{0};
    struct Nested {
        std::int32_t depth;
        EventKind kind;
        std::int32_t name, channel; // local numbers
        std::int64_t start, end;
        std::size_t beginAt, endAt; // the events' byte offsets, where their args are kept
    };
    /// A nested row with the writer's ids, as handed to the writing thread.
    struct WriteRow {
        std::int64_t start, end, name, channel;
        std::int32_t depth;
        EventKind kind;
        std::size_t beginAt, endAt;
    };
    struct RowChunk {
        std::int64_t thread = 0;
        std::vector<WriteRow> rows;
        void clear() { rows.clear(); }
    };
    struct Sample {
        std::int64_t t;
        double value;
    };
    struct Series {
        std::int64_t id;
        std::vector<Sample> samples;
        bool sorted = true;
    };

    [[noreturn]] void fail(const std::string& what) const;
    const std::string& requireString(const TraceScalar& s, const char* field) const;
    std::int64_t requireTime(const TraceScalar& s, const char* field) const;
    std::int64_t processRow(const std::string& pid);
    Thread& thread(const std::string& pid, const std::string& tid);
    Thread& hintedThread(const ScannedTraceEvent& e);
    std::int32_t hintedName(const ScannedTraceEvent& e);
    std::int32_t channel(const TraceScalar& cat);
    void metadata(const ScannedTraceEvent& e);
    void counter(const ScannedTraceEvent& e);
    void interval(const ScannedTraceEvent& e, char ph);
    void keepArgs(const ScannedTraceEvent& e);
    void hold(Thread& th, const ScannedTraceEvent& e, char ph, std::int64_t t, std::int64_t dur,
              std::int32_t name, std::int32_t channel);
    /// True (and counted as a repair) when an async or flow event has no usable "ts".
    bool dropUntimed(const ScannedTraceEvent& e);
    void async(const ScannedTraceEvent& e, char ph);
    void flow(const ScannedTraceEvent& e);
    void nestAndWriteThreads();
    void nest(Thread& th);
    void handOverNested(const Thread& th);
    void writeRows(const RowChunk& chunk);
    void spillAll();
    /// Order among events of one thread with the same timestamp: B, E and instants first, in
    /// input order (an E at t closes before an X at t opens; a B at t encloses an X at t), then X
    /// events, longer first, so that a parent precedes the children that start with it.
    static std::int64_t rank(char ph, std::int64_t dur) {
        return ph == 'X' ? -dur : std::numeric_limits<std::int64_t>::min();
    }
    /// Time order of a thread's events (see rank()); a type, not a function, so that sorts and
    /// merges inline it (through a function pointer it was a third of a shuffled file's sort).
    struct Before {
        bool operator()(const Pending& a, const Pending& b) const {
            if (a.ts != b.ts)
                return a.ts < b.ts;
            const std::int64_t ra = rank(a.ph(), a.dur), rb = rank(b.ph(), b.dur);
            return ra != rb ? ra < rb : a.offset() < b.offset();
        }
    };
    void nestAsync(AsyncTrack& track);
    void writeFlows();
    void note(std::size_t offset, const Thread* th, std::string why);
    /// False when a repair at `offset` would not become the first one (skip formatting it).
    bool wouldNote(std::size_t offset) const { return !first_ || first_->offset > offset; }

    HostTraceWriter& w_;
    std::string input_;
    const ScannedTraceEvent* event_ = nullptr;
    SlotHints hints_;
    std::optional<FirstRepair> first_;

    std::map<std::string, std::int64_t> processes_;
    std::map<std::pair<std::string, std::string>, Thread> threads_;
    std::pair<const std::pair<std::string, std::string>, Thread>* lastThread_ = nullptr;
    std::vector<Thread*> threadsBySlot_;    // by SlotHints::thread; null: not seen here yet
    std::vector<std::int32_t> namesBySlot_; // by SlotHints::name; -1: not interned yet
    std::unordered_map<std::string, std::int32_t> names_;
    std::vector<std::int64_t> nameIds_; // writer ids by local name number
    std::unordered_map<std::string, std::int32_t> channels_;
    const std::pair<const std::string, std::int32_t>* lastChannel_ = nullptr;
    std::vector<std::int64_t> channelIds_; // writer ids by local channel number
    std::map<std::pair<std::string, std::string>, std::int64_t> graphs_;
    std::map<std::pair<std::int64_t, std::string>, std::size_t> seriesIndex_;
    std::vector<Series> series_;
    std::map<std::pair<std::string, std::string>, std::string> units_;
    std::map<std::tuple<std::string, std::string, std::string>, AsyncTrack> asyncTracks_;
    std::map<std::pair<std::string, std::string>, std::vector<FlowPoint>> flows_; // (cat, id)
    std::size_t maxHeld_;
    std::size_t held_ = 0; // thread events in memory
    SortedRunFile<Pending> spill_;
    // The scalar args of interval events as JSON object text, by the event's byte offset (only
    // events with args): stored as the event's tracepoint metadata (type "json"). Filled while
    // scanning, read by the writing thread once scanning is over.
    std::unordered_map<std::size_t, std::string> args_;
    std::vector<Nested> nested_;  // of the thread being nested, in nesting (time) order
    std::vector<Nested> ordered_; // the same in track order, as written
    ChunkQueue<RowChunk>* rowQueue_ = nullptr; // to the writing thread, during finish()
    bool writeEvents_;
};

} // namespace tilescope::report::detail
