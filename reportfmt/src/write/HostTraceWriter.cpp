#include "tilescope/report/HostTraceWriter.hpp"

#include "RowBatch.hpp"
#include "TrackBlocks.hpp"
#include "WriterSession.hpp"
#include "lod/LodAccumulator.hpp"
#include "schema/EventBlockRows.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <span>
#include <vector>

namespace tilescope::report {
namespace {

// A pyramid level is stored only once it is this many times smaller than the raw rows: finer
// levels would cost as much to read as the rows themselves, so readers use raw rows there.
constexpr std::size_t kLodReduction = 4;
// Coarsening stops when every track fits in this many buckets (a screenful at any width).
constexpr std::size_t kTopLevelBuckets = 1024;
// Buckets held while writing, over all tracks (about 40 bytes each): coarser levels follow.
constexpr std::size_t kLodBudget = 1u << 19;
// Track keys pack the thread row and the nesting depth.
constexpr int kDepthBits = detail::LodAccumulator<detail::EventLodValue>::kMinorBits;

/// Writes the levels of a pyramid worth storing (kLodReduction times smaller than the raw rows, or
/// a screenful), coarsening until every track is a screenful. Rows go out track by track, then
/// level by level: the lod tables' primary-key order, so every insert appends to the B-tree (with
/// multi-row inserts, 1.5x faster than level by level over all tracks). `insert` takes one row:
/// (track key, level, bucket index, value).
template <class Value, class Insert>
void storePyramid(const detail::LodAccumulator<Value>& acc, std::size_t rawRows, Insert&& insert) {
    using Acc = detail::LodAccumulator<Value>;
    if (acc.buckets() == 0)
        return;
    std::vector<const typename Acc::Track*> tracks;
    for (const auto& track : acc.tracks())
        tracks.push_back(&track);
    std::sort(tracks.begin(), tracks.end(), [](auto* a, auto* b) { return a->key < b->key; });

    // Which levels are stored depends on the rows of all tracks at each level: count them first.
    std::vector<typename Acc::Bucket> work;
    std::size_t topLevel = 0; // levels above acc.level() until the widest track is a screenful
    for (const auto* track : tracks) {
        work = track->buckets;
        std::size_t level = 0;
        for (; work.size() > kTopLevelBuckets; ++level)
            Acc::coarsenBuckets(work);
        topLevel = std::max(topLevel, level);
    }
    std::vector<std::size_t> rows(topLevel + 1, 0);
    for (const auto* track : tracks) {
        work = track->buckets;
        for (std::size_t level = 0; level <= topLevel; ++level) {
            rows[level] += work.size();
            if (level < topLevel)
                Acc::coarsenBuckets(work);
        }
    }
    for (const auto* track : tracks) {
        work = track->buckets;
        for (std::size_t level = 0; level <= topLevel; ++level) {
            if (rows[level] * kLodReduction <= rawRows || rows[level] <= kTopLevelBuckets)
                for (const auto& b : work)
                    insert(track->key, acc.level() + static_cast<int>(level), b.index, b.value);
            if (level < topLevel)
                Acc::coarsenBuckets(work);
        }
    }
}

} // namespace

struct HostTraceWriter::Impl {
    detail::WriterSession session;
    HostTraceWriterOptions options;
    // Events go to their track's block (event_block rows); samples are multi-row inserts. Both
    // are flushed before every commit.
    detail::TrackBlocks blocks;
    detail::EventBlockInserter blockRows;
    detail::RowBatch samples, heatmapSamples;
    sql::Statement metadataRow;        // event_metadata (format v5)
    std::int64_t nextEventId = 1;      // ids are first_event_id + index: 1, 2, 3... in blocks
    std::size_t eventsSinceCommit = 0; // events held in partial blocks count toward a batch

    // Pyramids are accumulated as rows arrive (see LodAccumulator) and stored by close().
    detail::LodAccumulator<detail::EventLodValue> eventLod;
    detail::LodAccumulator<detail::SampleLodValue> sampleLod;
    std::size_t eventRows = 0, sampleRows = 0;

    Impl(const std::filesystem::path& path, HostTraceWriterOptions o)
        : session(path, FileKind::HostTrace, o.replaceExisting, o.rowsPerTransaction,
                  o.scratchFile ? detail::WriteMode::Scratch : detail::WriteMode::Shared),
          options(o), eventLod(std::max<std::int64_t>(o.lodBaseNs, 1), kLodBudget),
          sampleLod(std::max<std::int64_t>(o.lodBaseNs, 1), kLodBudget) {
        blockRows = detail::EventBlockInserter(session.db(), "event_block");
        samples = detail::RowBatch(session.db(), "sample", "series_id, t_ns, value", 3);
        heatmapSamples =
            detail::RowBatch(session.db(), "heatmap_sample", "heatmap_id, t_ns, value, bucket", 4);
        metadataRow = session.db().prepare(
            "INSERT INTO event_metadata(event_id, point, type, data) VALUES(?,?,?,?)");
        session.setMetadata("lod_base_ns", std::to_string(o.lodBaseNs));
    }

    void event(std::int64_t thread, std::int64_t channel, std::int64_t name, EventKind kind,
               std::int64_t start, std::int64_t end, std::int32_t depth,
               const EventMetadata* atBegin = nullptr, const EventMetadata* atEnd = nullptr) {
        if (depth < 0 || depth >= (1 << kDepthBits) || thread < 0 || thread >= (1ll << 38))
            throw ReportError(session.path(),
                              fmt::format("writer: event nesting depth {} or thread row {} is out "
                                          "of range",
                                          depth, thread));
        const std::int64_t duration = kind == EventKind::Complete ? end - start : 0;
        const std::int64_t track = (thread << kDepthBits) | depth;
        eventLod.add(track, start, {1, duration, duration, name});
        ++eventRows;
        detail::TrackBlock& block = blocks.at(thread, depth);
        const auto index = static_cast<std::uint32_t>(block.encoder.events());
        if (atBegin)
            block.metadata.push_back({index, MetadataPoint::Begin, *atBegin});
        if (atEnd)
            block.metadata.push_back({index, MetadataPoint::End, *atEnd});
        block.encoder.add(channel, name, kind, start, end);
        if (block.encoder.full())
            store(block);
        // Events in partial blocks are not in the file yet: a batch's worth of them is stored
        // and committed, so a killed writer loses at most one batch, as with rows.
        if (++eventsSinceCommit >= options.rowsPerTransaction) {
            flush();
            session.commit();
        }
    }

    void store(detail::TrackBlock& block) {
        const auto events = static_cast<std::int64_t>(block.encoder.events());
        blockRows.store(block.threadId, block.depth, nextEventId, block.encoder);
        for (const detail::PendingMetadata& m : block.metadata) {
            metadataRow.bind(1, nextEventId + m.index)
                .bind(2, static_cast<std::int64_t>(m.point))
                .bind(3, m.metadata.type)
                .bindBlob(4, m.metadata.data)
                .run();
            session.countRows(1);
        }
        block.metadata.clear();
        nextEventId += events;
    }

    ~Impl() {
        try { // a writer destroyed without close() keeps every row it was given
            flush();
        } catch (...) { // never throw from a destructor; committed data stays
        }
    }

    void flush() {
        for (detail::TrackBlock& block : blocks.all())
            store(block);
        eventsSinceCommit = 0;
        session.countRows(samples.flush());
        session.countRows(heatmapSamples.flush());
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
                               std::int64_t startNs, std::int64_t endNs, std::int32_t depth,
                               const EventMetadata* atBegin, const EventMetadata* atEnd) {
    if (endNs < startNs)
        throw ReportError(
            path(), fmt::format("writer: event ends ({}) before it starts ({})", endNs, startNs));
    impl_->event(threadId, channelId, nameId, EventKind::Complete, startNs, endNs, depth, atBegin,
                 atEnd);
}

void HostTraceWriter::addInstant(std::int64_t threadId, std::int64_t channelId, std::int64_t nameId,
                                 std::int64_t atNs, std::int32_t depth,
                                 const EventMetadata* metadata) {
    impl_->event(threadId, channelId, nameId, EventKind::Instant, atNs, atNs, depth, metadata);
}

void HostTraceWriter::addUnfinished(std::int64_t threadId, std::int64_t channelId,
                                    std::int64_t nameId, std::int64_t startNs, std::int32_t depth,
                                    const EventMetadata* atBegin) {
    impl_->event(threadId, channelId, nameId, EventKind::Unfinished, startNs, startNs, depth,
                 atBegin);
}

std::int64_t HostTraceWriter::addAsyncTrack(std::int64_t processId, std::string_view name,
                                            std::string_view category, std::string_view asyncId) {
    auto& s = impl_->session;
    s.db()
        .prepare("INSERT INTO async_track(process_id, name_id, category_id, async_id) "
                 "VALUES(?,?,?,?)")
        .bind(1, processId)
        .bind(2, s.intern(name))
        .bind(3, s.intern(category))
        .bind(4, asyncId)
        .run();
    return s.db().lastInsertRowid();
}

void HostTraceWriter::addAsyncSlice(std::int64_t trackId, std::int64_t nameId, EventKind kind,
                                    std::int64_t startNs, std::optional<std::int64_t> endNs,
                                    std::int32_t depth) {
    if (endNs && *endNs < startNs)
        throw ReportError(path(), fmt::format("writer: async slice ends ({}) before it starts ({})",
                                              *endNs, startNs));
    auto& s = impl_->session;
    auto st = s.db().prepare("INSERT INTO async_slice(track_id, name_id, kind, start_ns, end_ns, "
                             "depth) VALUES(?,?,?,?,?,?)");
    st.bind(1, trackId)
        .bind(2, nameId)
        .bind(3, static_cast<std::int64_t>(kind))
        .bind(4, startNs)
        .bind(6, std::int64_t{depth});
    if (endNs)
        st.bind(5, *endNs);
    st.run();
    s.countRows(1);
}

void HostTraceWriter::addFlow(std::int64_t nameId, std::int64_t fromThreadId, std::int64_t fromNs,
                              std::int64_t toThreadId, std::int64_t toNs) {
    auto& s = impl_->session;
    s.db()
        .prepare("INSERT INTO flow(name_id, from_thread_id, from_ns, to_thread_id, to_ns) "
                 "VALUES(?,?,?,?,?)")
        .bind(1, nameId)
        .bind(2, fromThreadId)
        .bind(3, fromNs)
        .bind(4, toThreadId)
        .bind(5, toNs)
        .run();
    s.countRows(1);
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
    im.sampleLod.add(seriesId << kDepthBits, tNs, {1, value, value, value});
    ++im.sampleRows;
    im.session.countRows(im.samples.endRow());
}

std::int64_t HostTraceWriter::addHeatmap(std::int64_t processId, std::string_view name,
                                         std::string_view unit, bool integerValues,
                                         const std::vector<std::string>& edges) {
    if (edges.empty())
        throw ReportError(path(), fmt::format("writer: heatmap '{}' has no bucket edges", name));
    auto& s = impl_->session;
    const std::string edgeText = fmt::format("{}", fmt::join(edges, " "));
    s.db()
        .prepare("INSERT INTO heatmap(process_id, name_id, unit, integer_values, edges) "
                 "VALUES(?,?,?,?,?)")
        .bind(1, processId)
        .bind(2, s.intern(name))
        .bind(3, unit)
        .bind(4, std::int64_t{integerValues ? 1 : 0})
        .bind(5, edgeText)
        .run();
    return s.db().lastInsertRowid();
}

void HostTraceWriter::addHeatmapSample(std::int64_t heatmapId, std::int64_t tNs, double value,
                                       std::int32_t bucket) {
    auto& im = *impl_;
    im.heatmapSamples.value(heatmapId).value(tNs).value(value).value(std::int64_t{bucket});
    im.session.countRows(im.heatmapSamples.endRow());
}

void HostTraceWriter::setDroppedEvents(std::int64_t threadId, std::int64_t events) {
    if (events < 0)
        throw ReportError(path(), fmt::format("writer: negative dropped-event count {}", events));
    impl_->session.setMetadata(fmt::format("{}{}", kDroppedEventsKeyPrefix, threadId),
                               std::to_string(events));
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
        if (o.createdAtClose && o.inVersion(Schema::kHostTraceVersion))
            db.exec(o.sql);
    {
        detail::RowBatch rows(db, "event_lod",
                              "thread_id, depth, level, bucket, events, busy_ns, longest_ns, "
                              "longest_name_id",
                              8);
        storePyramid(
            im.eventLod, im.eventRows,
            [&](std::int64_t key, int level, std::int64_t bucket, const detail::EventLodValue& v) {
                rows.value(key >> kDepthBits)
                    .value(key & ((std::int64_t{1} << kDepthBits) - 1))
                    .value(std::int64_t{level})
                    .value(bucket)
                    .value(v.events)
                    .value(v.busyNs)
                    .value(v.longestNs)
                    .value(v.longestNameId)
                    .endRow();
            });
        rows.flush();
    }
    {
        detail::RowBatch rows(db, "sample_lod",
                              "series_id, level, bucket, samples, min_value, max_value, sum_value",
                              7);
        storePyramid(
            im.sampleLod, im.sampleRows,
            [&](std::int64_t key, int level, std::int64_t bucket, const detail::SampleLodValue& v) {
                rows.value(key >> kDepthBits)
                    .value(std::int64_t{level})
                    .value(bucket)
                    .value(v.samples)
                    .value(v.minValue)
                    .value(v.maxValue)
                    .value(v.sumValue)
                    .endRow();
            });
        rows.flush();
    }
    im.session.close();
}

} // namespace tilescope::report
