// HostTraceReader's async tracks and flow arrows (format v2). Older files have the tables empty in
// the temp schema (SchemaMigration), so these queries need no version check. The tables are small
// next to `event` (one row per async slice or flow arrow), so window queries use the track index
// when the writer closed and a scan otherwise.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ReportError.hpp"

namespace tilescope::report {
namespace {

EventKind asyncKind(std::int64_t v, const std::string& path) {
    if (v < 0 || v > 2)
        throw ReportError(path, "async slice of unknown kind " + std::to_string(v));
    return static_cast<EventKind>(v);
}

FlowArrow flowFrom(const sql::Statement& st) {
    return {st.int64(0), st.int64(1), st.int64(2), st.int64(3), st.int64(4), st.int64(5)};
}

} // namespace

std::vector<AsyncTrackInfo> HostTraceReader::asyncTracks() const {
    std::vector<AsyncTrackInfo> out;
    auto st = file_.database().prepare(
        "SELECT a.id, a.process_id, n.text, c.text, a.async_id, "
        "(SELECT MAX(depth) FROM async_slice s WHERE s.track_id = a.id) FROM async_track a "
        "LEFT JOIN name n ON n.id = a.name_id LEFT JOIN name c ON c.id = a.category_id "
        "ORDER BY a.id");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.text(2), st.text(3), st.text(4),
                       st.isNull(5) ? -1 : static_cast<std::int32_t>(st.int64(5))});
    return out;
}

std::vector<AsyncSlice> HostTraceReader::asyncSlices(std::int64_t trackId, std::int64_t fromNs,
                                                     std::int64_t toNs, std::int64_t limit) const {
    std::vector<AsyncSlice> out;
    if (limit <= 0 || toNs < fromNs)
        return out;
    auto st = file_.database().prepare(
        "SELECT id, track_id, name_id, kind, start_ns, end_ns, depth FROM async_slice "
        "WHERE track_id = ? AND start_ns <= ? AND (end_ns IS NULL OR end_ns >= ?) "
        "ORDER BY start_ns, id LIMIT ?");
    st.bind(1, trackId).bind(2, toNs).bind(3, fromNs).bind(4, limit);
    while (st.step()) {
        AsyncSlice a{st.int64(0),
                     st.int64(1),
                     st.int64(2),
                     asyncKind(st.int64(3), path()),
                     st.int64(4),
                     std::nullopt,
                     static_cast<std::int32_t>(st.int64(6))};
        if (!st.isNull(5))
            a.endNs = st.int64(5);
        out.push_back(a);
    }
    return out;
}

std::vector<FlowArrow> HostTraceReader::flowsAt(std::int64_t threadId, std::int64_t fromNs,
                                                std::int64_t toNs, std::int64_t limit) const {
    std::vector<FlowArrow> out;
    auto st = file_.database().prepare(
        "SELECT id, name_id, from_thread_id, from_ns, to_thread_id, to_ns FROM flow "
        "WHERE (from_thread_id = ?1 AND from_ns BETWEEN ?2 AND ?3) OR "
        "(to_thread_id = ?1 AND to_ns BETWEEN ?2 AND ?3) ORDER BY id LIMIT ?4");
    st.bind(1, threadId).bind(2, fromNs).bind(3, toNs).bind(4, limit);
    while (st.step())
        out.push_back(flowFrom(st));
    return out;
}

std::vector<FlowArrow> HostTraceReader::flows(std::int64_t limit) const {
    std::vector<FlowArrow> out;
    auto st = file_.database().prepare(
        "SELECT id, name_id, from_thread_id, from_ns, to_thread_id, to_ns FROM flow ORDER BY id "
        "LIMIT ?");
    st.bind(1, limit);
    while (st.step())
        out.push_back(flowFrom(st));
    return out;
}

} // namespace tilescope::report
