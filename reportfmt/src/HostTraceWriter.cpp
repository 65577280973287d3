#include "tilescope/report/HostTraceWriter.hpp"

#include "RowBatch.hpp"
#include "WriterSession.hpp"
#include "tilescope/report/ReportError.hpp"

#include <fmt/format.h>

namespace tilescope::report {
namespace {

// A pyramid level is stored only once it is this many times smaller than the raw rows: finer
// levels would cost as much to read as the events themselves, so readers use raw rows there.
constexpr std::int64_t kLodReduction = 4;
// Coarsening stops when every track fits in this many buckets (a screenful at any width).
constexpr std::int64_t kTopLevelBuckets = 1024;

std::int64_t scalar(sql::Database& db, const std::string& q) {
    auto st = db.prepare(q);
    st.step();
    return st.int64(0);
}

/// How to aggregate one pyramid: its table, the track key, the level-0 query over raw rows
/// (producing key columns, `bucket` and the value columns) and the merge of four buckets.
struct PyramidSpec {
    std::string table;
    std::string key;
    std::string level0Select;
    std::string columns;
    std::string merge;
};

// Level k has buckets of base * 4^k. The first level computed from raw rows is `firstLevel`
// (see firstUsefulLevel), each next one merges 4 buckets of the previous. Levels are computed in a
// temp table and copied to the file once small enough to be worth reading.
void buildPyramid(sql::Database& db, const PyramidSpec& spec, std::int64_t rawRows,
                  int firstLevel) {
    db.exec("DROP TABLE IF EXISTS temp.lod_level");
    db.exec("CREATE TEMP TABLE lod_level AS " + spec.level0Select);
    for (int level = firstLevel; level < 40; ++level) {
        const std::int64_t rows = scalar(db, "SELECT count(*) FROM temp.lod_level");
        if (rows * kLodReduction <= rawRows || rows <= kTopLevelBuckets)
            db.exec(fmt::format("INSERT INTO {} SELECT {}, {}, bucket, {} FROM temp.lod_level",
                                spec.table, spec.key, level, spec.columns));
        const std::int64_t widest =
            scalar(db, fmt::format("SELECT coalesce(max(c), 0) FROM (SELECT count(*) AS c FROM "
                                   "temp.lod_level GROUP BY {})",
                                   spec.key));
        if (widest <= kTopLevelBuckets)
            break;
        db.exec(fmt::format("CREATE TEMP TABLE lod_next AS SELECT {0}, bucket / 4 AS bucket, {1} "
                            "FROM temp.lod_level GROUP BY {0}, bucket / 4",
                            spec.key, spec.merge));
        db.exec("DROP TABLE temp.lod_level; ALTER TABLE temp.lod_next RENAME TO lod_level");
    }
    db.exec("DROP TABLE IF EXISTS temp.lod_level");
}

// The finest level that can hold at most a quarter of the raw rows even if every bucket of every
// track is occupied: finer levels would cost about as much to read as the raw rows, so computing
// them would only spend time and temp space at close.
int firstUsefulLevel(std::int64_t spanNs, std::int64_t tracks, std::int64_t baseNs,
                     std::int64_t rawRows) {
    int level = 0;
    double width = static_cast<double>(baseNs);
    while (level < 30) {
        const double buckets =
            static_cast<double>(tracks) * (static_cast<double>(spanNs) / width + 1);
        if (buckets * kLodReduction <= static_cast<double>(rawRows) ||
            buckets <= static_cast<double>(kTopLevelBuckets))
            break;
        ++level;
        width *= 4;
    }
    return level;
}

} // namespace

struct HostTraceWriter::Impl {
    detail::WriterSession session;
    HostTraceWriterOptions options;
    // The hot paths: multi-row inserts, flushed before every commit.
    detail::RowBatch events, samples;

    Impl(const std::filesystem::path& path, HostTraceWriterOptions o)
        : session(path, FileKind::HostTrace, o.replaceExisting, o.rowsPerTransaction), options(o) {
        events =
            detail::RowBatch(session.db(), "event",
                             "thread_id, channel_id, name_id, kind, start_ns, end_ns, depth", 7);
        samples = detail::RowBatch(session.db(), "sample", "series_id, t_ns, value", 3);
        session.setMetadata("lod_base_ns", std::to_string(o.lodBaseNs));
    }

    void event(std::int64_t thread, std::int64_t channel, std::int64_t name, EventKind kind,
               std::int64_t start, std::optional<std::int64_t> end, std::int32_t depth) {
        events.value(thread).value(channel).value(name);
        events.value(std::int64_t{static_cast<int>(kind)}).value(start);
        if (end)
            events.value(*end);
        else
            events.null();
        events.value(std::int64_t{depth});
        session.countRows(events.endRow());
    }

    ~Impl() {
        try { // a writer destroyed without close() keeps every row it was given
            flush();
        } catch (...) { // never throw from a destructor; committed data stays
        }
    }

    void flush() {
        session.countRows(events.flush());
        session.countRows(samples.flush());
    }
};

HostTraceWriter::HostTraceWriter(const std::filesystem::path& path, HostTraceWriterOptions options)
    : impl_(std::make_unique<Impl>(path, options)) {
    if (options.lodBaseNs <= 0)
        throw ReportError(path.string(), "writer: lodBaseNs must be positive");
}

HostTraceWriter::~HostTraceWriter() = default;

const std::string& HostTraceWriter::path() const {
    return impl_->session.path();
}

void HostTraceWriter::setMetadata(std::string_view key, std::string_view value) {
    impl_->session.setMetadata(key, value);
}

std::int64_t HostTraceWriter::intern(std::string_view name) {
    return impl_->session.intern(name);
}

std::int64_t HostTraceWriter::addProcess(std::int64_t pid, std::string_view name,
                                         std::int64_t startNs) {
    auto& s = impl_->session;
    s.db()
        .prepare("INSERT INTO process(pid, name_id, start_ns) VALUES(?,?,?)")
        .bind(1, pid)
        .bind(2, s.intern(name))
        .bind(3, startNs)
        .run();
    return s.db().lastInsertRowid();
}

std::int64_t HostTraceWriter::addThread(std::int64_t processId, std::int64_t tid,
                                        std::string_view name) {
    auto& s = impl_->session;
    s.db()
        .prepare("INSERT INTO thread(process_id, tid, name_id) VALUES(?,?,?)")
        .bind(1, processId)
        .bind(2, tid)
        .bind(3, s.intern(name))
        .run();
    return s.db().lastInsertRowid();
}

void HostTraceWriter::renameProcess(std::int64_t processId, std::string_view name) {
    auto& s = impl_->session;
    s.db()
        .prepare("UPDATE process SET name_id = ? WHERE id = ?")
        .bind(1, s.intern(name))
        .bind(2, processId)
        .run();
}

void HostTraceWriter::renameThread(std::int64_t threadId, std::string_view name) {
    auto& s = impl_->session;
    s.db()
        .prepare("UPDATE thread SET name_id = ? WHERE id = ?")
        .bind(1, s.intern(name))
        .bind(2, threadId)
        .run();
}

std::int64_t HostTraceWriter::addChannel(std::string_view name) {
    auto& s = impl_->session;
    const std::int64_t nameId = s.intern(name);
    auto find = s.db().prepare("SELECT id FROM channel WHERE name_id = ?");
    if (find.bind(1, nameId).step())
        return find.int64(0);
    s.db().prepare("INSERT INTO channel(name_id) VALUES(?)").bind(1, nameId).run();
    return s.db().lastInsertRowid();
}

void HostTraceWriter::addEvent(std::int64_t threadId, std::int64_t channelId, std::int64_t nameId,
                               std::int64_t startNs, std::int64_t endNs, std::int32_t depth) {
    if (endNs < startNs)
        throw ReportError(
            path(), fmt::format("writer: event ends ({}) before it starts ({})", endNs, startNs));
    impl_->event(threadId, channelId, nameId, EventKind::Complete, startNs, endNs, depth);
}

void HostTraceWriter::addInstant(std::int64_t threadId, std::int64_t channelId, std::int64_t nameId,
                                 std::int64_t atNs, std::int32_t depth) {
    impl_->event(threadId, channelId, nameId, EventKind::Instant, atNs, atNs, depth);
}

void HostTraceWriter::addUnfinished(std::int64_t threadId, std::int64_t channelId,
                                    std::int64_t nameId, std::int64_t startNs, std::int32_t depth) {
    impl_->event(threadId, channelId, nameId, EventKind::Unfinished, startNs, std::nullopt, depth);
}

std::int64_t HostTraceWriter::addGraph(std::int64_t processId, std::string_view name,
                                       std::string_view unit) {
    auto& s = impl_->session;
    s.db()
        .prepare("INSERT INTO graph(process_id, name_id, unit) VALUES(?,?,?)")
        .bind(1, processId)
        .bind(2, s.intern(name))
        .bind(3, unit)
        .run();
    return s.db().lastInsertRowid();
}

std::int64_t HostTraceWriter::addSeries(std::int64_t graphId, std::string_view name) {
    auto& s = impl_->session;
    s.db()
        .prepare("INSERT INTO series(graph_id, name_id) VALUES(?,?)")
        .bind(1, graphId)
        .bind(2, s.intern(name))
        .run();
    return s.db().lastInsertRowid();
}

void HostTraceWriter::addSample(std::int64_t seriesId, std::int64_t tNs, double value) {
    auto& im = *impl_;
    im.samples.value(seriesId).value(tNs).value(value);
    im.session.countRows(im.samples.endRow());
}

void HostTraceWriter::commit() {
    impl_->flush();
    impl_->session.commit();
}

void HostTraceWriter::close() {
    auto& im = *impl_;
    if (im.session.closed())
        return;
    auto& db = im.session.db();
    im.flush();
    im.session.commit();
    for (const SchemaObject& o : Schema::hostTrace())
        if (o.createdAtClose)
            db.exec(o.sql);
    const std::int64_t base = im.options.lodBaseNs;
    auto widthAt = [&](int level) { return base << (2 * level); };
    const std::int64_t events = scalar(db, "SELECT coalesce(max(id), 0) FROM event");
    int level = 0;
    {
        auto st = db.prepare("SELECT min(start_ns), max(start_ns), max(depth) FROM event");
        st.step();
        if (!st.isNull(0)) {
            const std::int64_t tracks =
                scalar(db, "SELECT count(*) FROM thread") * (st.int64(2) + 1);
            level = firstUsefulLevel(st.int64(1) - st.int64(0), tracks, base, events);
        }
    }
    buildPyramid(db,
                 {"event_lod", "thread_id, depth",
                  fmt::format("SELECT thread_id, depth, start_ns / {0} AS bucket, "
                              "count(*) AS events, "
                              "sum(coalesce(end_ns, start_ns) - start_ns) AS busy_ns, "
                              "max(coalesce(end_ns, start_ns) - start_ns) AS longest_ns, "
                              "name_id AS longest_name_id FROM event "
                              "GROUP BY thread_id, depth, start_ns / {0}",
                              widthAt(level)),
                  "events, busy_ns, longest_ns, longest_name_id",
                  // SQLite takes a bare column from the row holding max(): the longest's name.
                  "sum(events) AS events, sum(busy_ns) AS busy_ns, max(longest_ns) AS longest_ns, "
                  "longest_name_id"},
                 events, level);
    const std::int64_t samples = scalar(db, "SELECT coalesce(max(id), 0) FROM sample");
    level = 0;
    {
        auto st = db.prepare("SELECT min(t_ns), max(t_ns) FROM sample");
        st.step();
        if (!st.isNull(0))
            level = firstUsefulLevel(st.int64(1) - st.int64(0),
                                     scalar(db, "SELECT count(*) FROM series"), base, samples);
    }
    buildPyramid(db,
                 {"sample_lod", "series_id",
                  fmt::format("SELECT series_id, t_ns / {0} AS bucket, count(*) AS samples, "
                              "min(value) AS min_value, max(value) AS max_value, "
                              "sum(value) AS sum_value FROM sample GROUP BY series_id, t_ns / {0}",
                              widthAt(level)),
                  "samples, min_value, max_value, sum_value",
                  "sum(samples) AS samples, min(min_value) AS min_value, "
                  "max(max_value) AS max_value, sum(sum_value) AS sum_value"},
                 samples, level);
    im.session.close();
}

} // namespace tilescope::report
