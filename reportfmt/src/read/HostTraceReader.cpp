// Reading a host trace. Cost model: events are stored in blocks of up to 4096 per track
// (event_block, indexed by track and start as they are written): counts and the time span read
// the block rows only (a few hundred per million events), window queries seek the blocks
// overlapping the window and decode those, keeping the last few decoded for the next frame;
// zoomed-out views read the pyramids, which a killed writer's file lacks.

#include "tilescope/report/HostTraceReader.hpp"

#include "EventBlocks.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ReportError.hpp"
#include "types/EventBlockCodec.hpp"

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

/// Running [min, max] over values that may be absent.
struct Span {
    std::optional<std::int64_t> lo, hi;
    void add(std::int64_t from, std::int64_t to) {
        lo = lo ? std::min(*lo, from) : from;
        hi = hi ? std::max(*hi, to) : to;
    }
};

} // namespace

// Blocks a window query decoded recently: the timeline asks for the same windows frame after
// frame, and decoding a block costs more than its index seek.
constexpr std::size_t kDecodedBlocks = 32;

struct HostTraceReader::CachedStatements {
    std::optional<sql::Statement> eventLod;
    std::optional<sql::Statement> blockBefore, blocksInside, blockData;
    struct Decoded {
        std::int64_t blockId = 0;
        std::uint64_t lastUse = 0;
        std::vector<HostEvent> events;
    };
    std::vector<Decoded> decoded;
    std::uint64_t uses = 0;

    /// The events of the block with this id (its row's first_event_id and events given), decoded
    /// or from the cache.
    const std::vector<HostEvent>& block(const sql::Database& db, const std::string& path,
                                        std::int64_t id) {
        ++uses;
        for (Decoded& d : decoded)
            if (d.blockId == id) {
                d.lastUse = uses;
                return d.events;
            }
        Decoded* slot = nullptr;
        if (decoded.size() < kDecodedBlocks) {
            slot = &decoded.emplace_back();
        } else {
            slot = &decoded.front();
            for (Decoded& d : decoded)
                if (d.lastUse < slot->lastUse)
                    slot = &d;
        }
        slot->blockId = 0; // not valid until decoded (a damaged block throws below)
        slot->events.clear();
        if (!blockData)
            blockData.emplace(db.prepare(std::string(detail::kBlockColumns) + "WHERE id = ?"));
        blockData->reset();
        if (blockData->bind(1, id).step())
            detail::decodeBlockRow(*blockData, slot->events, path);
        blockData->reset();
        slot->blockId = id;
        slot->lastUse = uses;
        return slot->events;
    }
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
    hasSeriesIndex_ = hasIndex(file_.database(), "sample_by_series");
}

bool HostTraceReader::hasLevelOfDetail() const {
    return file_.complete();
}

HostTraceCounts HostTraceReader::counts() const {
    // Every table has an INTEGER PRIMARY KEY assigned 1, 2, 3... and rows are never deleted, so
    // max(id) is the row count, read from the last page of the table's b-tree.
    const auto& db = file_.database();
    HostTraceCounts c;
    c.processes = scalarOr(db, "SELECT max(id) FROM process", 0);
    c.threads = scalarOr(db, "SELECT max(id) FROM thread", 0);
    c.channels = scalarOr(db, "SELECT max(id) FROM channel", 0);
    c.events = scalarOr(db, "SELECT sum(events) FROM event_block", 0);
    c.graphs = scalarOr(db, "SELECT max(id) FROM graph", 0);
    c.series = scalarOr(db, "SELECT max(id) FROM series", 0);
    c.samples = scalarOr(db, "SELECT max(id) FROM sample", 0);
    return c;
}

// Events: the blocks' bounds (events on a track do not overlap, so a block's end is its last
// event's end; an unfinished event counts with its start), one pass over the block rows, which
// reads none of their data. Samples: two index seeks per series.
std::optional<std::pair<std::int64_t, std::int64_t>> HostTraceReader::timeSpan() const {
    const auto& db = file_.database();
    Span span;
    {
        auto st = db.prepare("SELECT min(start_ns), max(end_ns) FROM event_block");
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
    // One seek to the end of the thread's range of the block index.
    auto st = file_.database().prepare("SELECT max(depth) FROM event_block WHERE thread_id = ?");
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
    if (!cached_)
        cached_ = std::make_unique<CachedStatements>();
    auto& c = *cached_;
    // Blocks of a track hold consecutive runs of its events, which do not overlap: of the blocks
    // starting before the window only the last can reach into it (one backward seek), then the
    // blocks starting inside it, in order.
    if (!c.blockBefore) {
        c.blockBefore.emplace(db.prepare("SELECT id FROM event_block WHERE thread_id = ? AND "
                                         "depth = ? AND start_ns < ? "
                                         "ORDER BY start_ns DESC, id DESC LIMIT 1"));
        c.blocksInside.emplace(db.prepare("SELECT id FROM event_block WHERE thread_id = ? AND "
                                          "depth = ? AND start_ns BETWEEN ? AND ? "
                                          "ORDER BY start_ns, id"));
    }
    std::vector<std::int64_t> blocks;
    c.blockBefore->reset();
    if (c.blockBefore->bind(1, threadId).bind(2, depth).bind(3, fromNs).step())
        blocks.push_back(c.blockBefore->int64(0));
    c.blockBefore->reset();
    auto& inside = *c.blocksInside;
    inside.reset();
    inside.bind(1, threadId).bind(2, depth).bind(3, fromNs).bind(4, toNs);
    while (inside.step())
        blocks.push_back(inside.int64(0));
    inside.reset();
    for (const std::int64_t block : blocks)
        for (const HostEvent& e : c.block(db, path(), block)) {
            if (e.startNs > toNs || (e.endNs && *e.endNs < fromNs))
                continue;
            out.push_back(e);
            if (static_cast<std::int64_t>(out.size()) == limit)
                return out;
        }
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
