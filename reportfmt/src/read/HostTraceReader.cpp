// Reading a host trace. Cost model: counts and the time span are index seeks (O(tracks x log n));
// window queries are index range scans; zoomed-out views read the pyramids. A file whose writer
// was killed has neither the track index nor the pyramids: the same calls then scan the event
// table once each, which is the price of a trace that was never finished.

#include "tilescope/report/HostTraceReader.hpp"

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <tuple>

namespace tilescope::report {
namespace {

constexpr std::int64_t kMaxLevel = 40;
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

std::int64_t scalarOr(const sql::Database& db, const char* q, std::int64_t fallback) {
    auto st = db.prepare(q);
    return st.step() && !st.isNull(0) ? st.int64(0) : fallback;
}

bool hasIndex(const sql::Database& db, const char* name) {
    auto st = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?");
    return st.bind(1, std::string_view(name)).step();
}

/// Width of a bucket at `level` (base x 4^level), saturating instead of overflowing.
std::int64_t bucketWidth(std::int64_t base, std::int64_t level) {
    std::int64_t w = base;
    for (std::int64_t i = 0; i < level; ++i) {
        if (w > kInt64Max / 4)
            return kInt64Max;
        w *= 4;
    }
    return w;
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

std::uint64_t u64(const sql::Statement& st, int col) {
    const std::int64_t v = st.int64(col);
    return v < 0 ? 0 : static_cast<std::uint64_t>(v);
}

constexpr const char* kEventColumns =
    "SELECT id, thread_id, channel_id, name_id, kind, start_ns, end_ns, depth FROM event ";

HostEvent eventFrom(const sql::Statement& st, const std::string& path) {
    HostEvent e;
    e.id = st.int64(0);
    e.threadId = st.int64(1);
    e.channelId = st.int64(2);
    e.nameId = st.int64(3);
    const std::int64_t kind = st.int64(4);
    if (kind < 0 || kind > static_cast<std::int64_t>(EventKind::Unfinished))
        throw ReportError(
            path, fmt::format("file is damaged (event {} has unknown kind {})", e.id, kind));
    e.kind = static_cast<EventKind>(kind);
    e.startNs = st.int64(5);
    if (!st.isNull(6))
        e.endNs = st.int64(6);
    if (e.kind == EventKind::Complete && (!e.endNs || *e.endNs < e.startNs))
        throw ReportError(path,
                          fmt::format("file is damaged (event {} ends before it starts)", e.id));
    const std::int64_t depth = st.int64(7);
    if (depth < 0 || depth > std::numeric_limits<std::int32_t>::max())
        throw ReportError(path,
                          fmt::format("file is damaged (event {} has depth {})", e.id, depth));
    e.depth = static_cast<std::int32_t>(depth);
    return e;
}

/// Running [min, max] over values that may be absent.
struct Span {
    std::optional<std::int64_t> lo, hi;
    void add(std::int64_t from, std::int64_t to) {
        lo = lo ? std::min(*lo, from) : from;
        hi = hi ? std::max(*hi, to) : to;
    }
};

} // namespace

struct HostTraceReader::CachedStatements {
    std::optional<sql::Statement> eventLod;
};

HostTraceReader::HostTraceReader(const std::string& path) : HostTraceReader(ReportFile(path)) {}
HostTraceReader::~HostTraceReader() = default;
HostTraceReader::HostTraceReader(HostTraceReader&&) noexcept = default;
HostTraceReader& HostTraceReader::operator=(HostTraceReader&&) noexcept = default;

HostTraceReader::HostTraceReader(ReportFile file) : file_(std::move(file)) {
    if (file_.kind() != FileKind::HostTrace)
        throw ReportError(file_.path(), "is a profile report (.pop), not a host trace");
    const std::string base = file_.metadataValue("lod_base_ns", "1000");
    try {
        std::size_t used = 0;
        lodBaseNs_ = std::stoll(base, &used);
        if (used != base.size() || lodBaseNs_ <= 0)
            throw std::invalid_argument(base);
    } catch (const std::logic_error&) {
        throw ReportError(file_.path(),
                          fmt::format("file is damaged (invalid lod_base_ns '{}')", base));
    }
    hasTrackIndex_ = hasIndex(file_.database(), "event_by_track");
    hasSeriesIndex_ = hasIndex(file_.database(), "sample_by_series");
}

bool HostTraceReader::hasLevelOfDetail() const {
    return hasTrackIndex_ && file_.complete();
}

HostTraceCounts HostTraceReader::counts() const {
    // Every table has an INTEGER PRIMARY KEY assigned 1, 2, 3... and rows are never deleted, so
    // max(id) is the row count, read from the last page of the table's b-tree.
    const auto& db = file_.database();
    HostTraceCounts c;
    c.processes = scalarOr(db, "SELECT max(id) FROM process", 0);
    c.threads = scalarOr(db, "SELECT max(id) FROM thread", 0);
    c.channels = scalarOr(db, "SELECT max(id) FROM channel", 0);
    c.events = scalarOr(db, "SELECT max(id) FROM event", 0);
    c.graphs = scalarOr(db, "SELECT max(id) FROM graph", 0);
    c.series = scalarOr(db, "SELECT max(id) FROM series", 0);
    c.samples = scalarOr(db, "SELECT max(id) FROM sample", 0);
    return c;
}

// With the track index, the span is exact at O(tracks x log n): the earliest start of a track is
// the first index entry of the track, and because events on one track (thread, depth) never
// overlap, the last-starting event of a track is also the last to end. Tracks are enumerated by
// seeking from one to the next in the index. An unfinished event counts with its start. Without
// the index (writer killed) one scan of each table gives the same figures.
std::optional<std::pair<std::int64_t, std::int64_t>> HostTraceReader::timeSpan() const {
    const auto& db = file_.database();
    Span span;
    if (hasTrackIndex_) {
        // Written as ">= (t, d + 1)" rather than "> (t, d)": SQLite turns the former into one index
        // seek, the latter into a walk over every entry of the current track.
        auto next = db.prepare("SELECT thread_id, depth FROM event WHERE (thread_id, depth) >= "
                               "(?1, ?2 + 1) ORDER BY thread_id, depth LIMIT 1");
        auto first = db.prepare("SELECT min(start_ns) FROM event WHERE thread_id = ? AND "
                                "depth = ?");
        auto last = db.prepare("SELECT coalesce(end_ns, start_ns) FROM event WHERE thread_id = ? "
                               "AND depth = ? ORDER BY start_ns DESC LIMIT 1");
        std::int64_t thread = std::numeric_limits<std::int64_t>::min(), depth = 0;
        for (;;) {
            next.bind(1, thread).bind(2, depth);
            const bool found = next.step();
            if (found) {
                // Keys must advance: in a damaged file a non-integer key (or a corrupt index)
                // would make this seek return the same track forever.
                const std::pair key{next.int64(0), next.int64(1)};
                if (next.columnType(0) != SQLITE_INTEGER || next.columnType(1) != SQLITE_INTEGER ||
                    key <= std::pair{thread, depth})
                    throw ReportError(path(), "file is damaged (invalid event track keys)");
                std::tie(thread, depth) = key;
            }
            next.reset();
            if (!found)
                break;
            first.bind(1, thread).bind(2, depth);
            last.bind(1, thread).bind(2, depth);
            if (first.step() && !first.isNull(0) && last.step())
                span.add(first.int64(0), last.int64(0));
            first.reset();
            last.reset();
        }
    } else {
        auto st = db.prepare("SELECT min(start_ns), max(coalesce(end_ns, start_ns)) FROM event");
        if (st.step() && !st.isNull(0))
            span.add(st.int64(0), st.int64(1));
    }
    if (hasSeriesIndex_) {
        auto next = db.prepare(
            "SELECT series_id FROM sample WHERE series_id > ? ORDER BY series_id LIMIT 1");
        auto bounds = db.prepare("SELECT min(t_ns), max(t_ns) FROM sample WHERE series_id = ?");
        std::int64_t series = std::numeric_limits<std::int64_t>::min();
        for (;;) {
            next.bind(1, series);
            const bool found = next.step();
            if (found) {
                if (next.columnType(0) != SQLITE_INTEGER || next.int64(0) <= series)
                    throw ReportError(path(), "file is damaged (invalid sample series keys)");
                series = next.int64(0);
            }
            next.reset();
            if (!found)
                break;
            bounds.bind(1, series);
            if (bounds.step() && !bounds.isNull(0))
                span.add(bounds.int64(0), bounds.int64(1));
            bounds.reset();
        }
    } else {
        auto st = db.prepare("SELECT min(t_ns), max(t_ns) FROM sample");
        if (st.step() && !st.isNull(0))
            span.add(st.int64(0), st.int64(1));
    }
    // Heatmap samples (format v3): two index seeks per heatmap.
    auto heatmapIds = db.prepare("SELECT id FROM heatmap");
    while (heatmapIds.step())
        if (const auto s = heatmapTimeSpan(heatmapIds.int64(0)))
            span.add(s->first, s->second);
    if (!span.lo)
        return std::nullopt;
    return std::pair{*span.lo, *span.hi};
}

std::string HostTraceReader::name(std::int64_t nameId) const {
    auto st = file_.database().prepare("SELECT text FROM name WHERE id = ?");
    return st.bind(1, nameId).step() ? st.text(0) : std::string();
}

std::vector<ProcessInfo> HostTraceReader::processes() const {
    std::vector<ProcessInfo> out;
    auto st = file_.database().prepare("SELECT p.id, p.pid, n.text, p.start_ns FROM process p "
                                       "LEFT JOIN name n ON n.id = p.name_id ORDER BY p.id");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.text(2), st.int64(3)});
    return out;
}

std::vector<ThreadInfo> HostTraceReader::threads() const {
    std::vector<ThreadInfo> out;
    auto st = file_.database().prepare("SELECT t.id, t.process_id, t.tid, n.text FROM thread t "
                                       "LEFT JOIN name n ON n.id = t.name_id ORDER BY t.id");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.int64(2), st.text(3)});
    return out;
}

std::vector<ChannelInfo> HostTraceReader::channels() const {
    std::vector<ChannelInfo> out;
    auto st = file_.database().prepare(
        "SELECT c.id, n.text FROM channel c LEFT JOIN name n ON n.id = c.name_id ORDER BY c.id");
    while (st.step())
        out.push_back({st.int64(0), st.text(1)});
    return out;
}

std::int32_t HostTraceReader::maxDepth(std::int64_t threadId) const {
    // With the index this is one seek to the end of the thread's range.
    auto st = file_.database().prepare("SELECT max(depth) FROM event WHERE thread_id = ?");
    if (!st.bind(1, threadId).step() || st.isNull(0))
        return -1;
    const std::int64_t depth = st.int64(0);
    if (depth < 0 || depth > std::numeric_limits<std::int32_t>::max())
        throw ReportError(path(),
                          fmt::format("file is damaged (thread {} has depth {})", threadId, depth));
    return static_cast<std::int32_t>(depth);
}

std::vector<HostEvent> HostTraceReader::events(std::int64_t threadId, std::int32_t depth,
                                               std::int64_t fromNs, std::int64_t toNs,
                                               std::int64_t limit) const {
    std::vector<HostEvent> out;
    if (limit <= 0 || toNs < fromNs)
        return out;
    const auto& db = file_.database();
    if (!hasTrackIndex_) {
        // No index: one scan with the full overlap condition (no reliance on track order).
        auto st = db.prepare(std::string(kEventColumns) +
                             "WHERE thread_id = ? AND depth = ? AND start_ns <= ? AND "
                             "(end_ns IS NULL OR end_ns >= ?) ORDER BY start_ns, id LIMIT ?");
        st.bind(1, threadId).bind(2, depth).bind(3, toNs).bind(4, fromNs).bind(5, limit);
        while (st.step())
            out.push_back(eventFrom(st, path()));
        return out;
    }
    // Events on one track do not overlap, so of the events starting before the window only the
    // last one can reach into it: one backward seek finds it.
    auto before = db.prepare(std::string(kEventColumns) +
                             "WHERE thread_id = ? AND depth = ? AND start_ns < ? "
                             "ORDER BY start_ns DESC, id DESC LIMIT 1");
    before.bind(1, threadId).bind(2, depth).bind(3, fromNs);
    if (before.step()) {
        HostEvent e = eventFrom(before, path());
        if (!e.endNs || *e.endNs >= fromNs)
            out.push_back(e);
    }
    auto st = db.prepare(std::string(kEventColumns) +
                         "WHERE thread_id = ? AND depth = ? AND start_ns BETWEEN ? AND ? "
                         "ORDER BY start_ns, id LIMIT ?");
    st.bind(1, threadId).bind(2, depth).bind(3, fromNs).bind(4, toNs);
    st.bind(5, limit - static_cast<std::int64_t>(out.size()));
    while (st.step())
        out.push_back(eventFrom(st, path()));
    return out;
}

std::vector<EventLodRow> HostTraceReader::eventLod(std::int64_t threadId, std::int32_t depth,
                                                   std::int64_t level, std::int64_t fromNs,
                                                   std::int64_t toNs) const {
    std::vector<EventLodRow> out;
    if (level < 0 || level > kMaxLevel || toNs < fromNs)
        return out;
    const std::int64_t width = bucketWidth(lodBaseNs_, level);
    auto st = file_.database().prepare(
        "SELECT level, bucket, events, busy_ns, longest_ns, longest_name_id FROM event_lod "
        "WHERE thread_id = ? AND depth = ? AND level = ? AND bucket BETWEEN ? AND ? "
        "ORDER BY bucket");
    st.bind(1, threadId).bind(2, depth).bind(3, level);
    st.bind(4, floorDiv(fromNs, width)).bind(5, floorDiv(toNs, width));
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), u64(st, 2), u64(st, 3), u64(st, 4), st.int64(5)});
    return out;
}

std::vector<std::pair<std::int32_t, EventLodRow>>
HostTraceReader::eventLodBuckets(std::int64_t threadId, const std::vector<std::int32_t>& depths,
                                 std::int64_t level, std::int64_t fromBucket,
                                 std::int64_t toBucket) const {
    std::vector<std::pair<std::int32_t, EventLodRow>> out;
    if (depths.empty() || level < 0 || level > kMaxLevel || toBucket < fromBucket)
        return out;
    // The depths travel as one JSON array parameter; IN lets SQLite seek the primary key
    // (thread_id, depth, level, bucket) once per depth instead of scanning other levels.
    std::string list = "[";
    for (std::size_t i = 0; i < depths.size(); ++i)
        list += (i ? "," : "") + std::to_string(depths[i]);
    list += "]";
    // Prepared once: the timeline asks this of every visible thread at every zoom, and preparing
    // cost more than reading the few rows.
    if (!cached_)
        cached_ = std::make_unique<CachedStatements>();
    if (!cached_->eventLod)
        cached_->eventLod.emplace(file_.database().prepare(
            "SELECT depth, level, bucket, events, busy_ns, longest_ns, longest_name_id FROM "
            "event_lod WHERE thread_id = ? AND depth IN (SELECT value FROM json_each(?)) AND "
            "level = ? AND bucket BETWEEN ? AND ? ORDER BY depth, bucket"));
    auto& st = *cached_->eventLod;
    st.reset();
    st.bind(1, threadId).bind(2, std::string_view(list)).bind(3, level);
    st.bind(4, fromBucket).bind(5, toBucket);
    while (st.step())
        out.emplace_back(
            static_cast<std::int32_t>(st.int64(0)),
            EventLodRow{st.int64(1), st.int64(2), u64(st, 3), u64(st, 4), u64(st, 5), st.int64(6)});
    return out;
}

std::vector<std::int64_t> HostTraceReader::storedLevels(const char* table, const char* key) const {
    // The writer stores a level for every track or for none, so the levels of the first track
    // are the levels of all: a handful of primary-key seeks instead of a DISTINCT scan.
    std::vector<std::int64_t> levels;
    const auto& db = file_.database();
    auto first = db.prepare(fmt::format("SELECT {} FROM {} LIMIT 1", key, table));
    if (!first.step())
        return levels;
    const int keyColumns = first.columnCount();
    std::string where;
    for (int i = 0; i < keyColumns; ++i)
        where += first.columnName(i) + " = ? AND ";
    auto probe =
        db.prepare(fmt::format("SELECT 1 FROM {} WHERE {}level = ? LIMIT 1", table, where));
    for (std::int64_t level = 0; level <= kMaxLevel; ++level) {
        for (int i = 0; i < keyColumns; ++i)
            probe.bind(i + 1, first.int64(i));
        probe.bind(keyColumns + 1, level);
        if (probe.step())
            levels.push_back(level);
        probe.reset();
    }
    return levels;
}

std::int64_t HostTraceReader::eventLodLevelFor(double nsPerBucket) const {
    std::int64_t best = -1;
    for (const std::int64_t level : storedLevels("event_lod", "thread_id, depth"))
        if (static_cast<double>(lodBaseNs_) * std::pow(4.0, static_cast<double>(level)) <=
            nsPerBucket)
            best = level;
    return best;
}

std::int64_t HostTraceReader::sampleLodLevelFor(double nsPerBucket) const {
    std::int64_t best = -1;
    for (const std::int64_t level : storedLevels("sample_lod", "series_id"))
        if (static_cast<double>(lodBaseNs_) * std::pow(4.0, static_cast<double>(level)) <=
            nsPerBucket)
            best = level;
    return best;
}

std::vector<GraphInfo> HostTraceReader::graphs() const {
    std::vector<GraphInfo> out;
    auto st = file_.database().prepare("SELECT g.id, g.process_id, n.text, g.unit FROM graph g "
                                       "LEFT JOIN name n ON n.id = g.name_id ORDER BY g.id");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.text(2), st.text(3)});
    return out;
}

std::vector<SeriesInfo> HostTraceReader::series() const {
    std::vector<SeriesInfo> out;
    auto st = file_.database().prepare("SELECT s.id, s.graph_id, n.text FROM series s "
                                       "LEFT JOIN name n ON n.id = s.name_id ORDER BY s.id");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.text(2)});
    return out;
}

std::vector<std::pair<std::int64_t, double>> HostTraceReader::samples(std::int64_t seriesId,
                                                                      std::int64_t fromNs,
                                                                      std::int64_t toNs,
                                                                      std::int64_t limit) const {
    std::vector<std::pair<std::int64_t, double>> out;
    if (limit <= 0 || toNs < fromNs)
        return out;
    auto st = file_.database().prepare("SELECT t_ns, value FROM sample WHERE series_id = ? AND "
                                       "t_ns BETWEEN ? AND ? ORDER BY t_ns, id LIMIT ?");
    st.bind(1, seriesId).bind(2, fromNs).bind(3, toNs).bind(4, limit);
    while (st.step())
        out.emplace_back(st.int64(0), st.real(1));
    return out;
}

std::vector<SampleLodRow> HostTraceReader::sampleLod(std::int64_t seriesId, std::int64_t level,
                                                     std::int64_t fromNs, std::int64_t toNs) const {
    std::vector<SampleLodRow> out;
    if (level < 0 || level > kMaxLevel || toNs < fromNs)
        return out;
    const std::int64_t width = bucketWidth(lodBaseNs_, level);
    auto st = file_.database().prepare(
        "SELECT level, bucket, samples, min_value, max_value, sum_value FROM sample_lod "
        "WHERE series_id = ? AND level = ? AND bucket BETWEEN ? AND ? ORDER BY bucket");
    st.bind(1, seriesId).bind(2, level).bind(3, floorDiv(fromNs, width));
    st.bind(4, floorDiv(toNs, width));
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), u64(st, 2), st.real(3), st.real(4), st.real(5)});
    return out;
}

} // namespace tilescope::report
