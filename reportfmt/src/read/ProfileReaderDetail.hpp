#pragma once
// What ProfileReader's files share (ProfileReader.cpp, ProfileReaderRuns.cpp,
// ProfileReaderExecution.cpp, ProfileReaderOperations.cpp, ProfileReaderDebugInfo.cpp,
// ProfileReaderBlocks.cpp): column decoding that never throws a bare error, the records that
// several queries read, damage reported against the file, and the reader's cached statements.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::report {
namespace detail {

inline std::optional<std::int64_t> optionalInt(const sql::Statement& st, int col) {
    if (st.isNull(col))
        return std::nullopt;
    return st.int64(col);
}

/// A count or cycle column; a negative value (damage) reads as 0.
inline std::uint64_t u64(const sql::Statement& st, int col) {
    const std::int64_t v = st.int64(col);
    return v < 0 ? 0 : static_cast<std::uint64_t>(v);
}

/// A step from the columns every step query starts with: the step table's id, program_id, kind,
/// phase, compute_set_id, exchange_bytes, estimated_cycles, not_always_live_bytes and
/// max_tile_not_always_live_bytes, in this order from column 0; the caller reads the rest.
inline StepRecord stepColumnsFrom(const sql::Statement& st) {
    StepRecord s;
    s.id = st.int64(0);
    s.programId = st.int64(1);
    s.kind = st.text(2);
    s.phase = st.text(3);
    s.computeSetId = optionalInt(st, 4);
    s.exchangeBytes = u64(st, 5);
    s.estimatedCycles = u64(st, 6);
    s.notAlwaysLiveBytes = u64(st, 7);
    s.maxTileNotAlwaysLiveBytes = u64(st, 8);
    return s;
}

/// The operation query up to its WHERE: the columns operationColumnsFrom reads.
inline constexpr const char* kOperationColumns =
    "SELECT o.id, n.text, d.text, o.layer, o.flops, g.info FROM operation o "
    "LEFT JOIN name n ON n.id = o.name_id LEFT JOIN name d ON d.id = o.debug_path_id "
    "LEFT JOIN operation_debug g ON g.operation_id = o.id ";

/// An operation from columns 0 to 5: o.id, its name, its debug path, o.layer, o.flops and its
/// DebugInfo JSON (operation_debug.info), the last two possibly NULL.
inline OperationRecord operationColumnsFrom(const sql::Statement& st) {
    OperationRecord o;
    o.id = st.int64(0);
    o.name = st.text(1);
    o.debugPath = st.text(2);
    o.layer = st.text(3);
    if (!st.isNull(4))
        o.flops = u64(st, 4);
    if (!st.isNull(5))
        o.debugJson = st.text(5);
    return o;
}

/// Rows of `run`'s steps in time order over cycles [fromCycle, toCycle), at most `limit`, from
/// the step running at `fromCycle` (`stepAtCycle(fromCycle)`, asked only when there is a window to
/// read): `select` (columns FROM run_step r, joined as needed) is read row by row through `read`
/// until a row starts at or after `toCycle`.
template <typename StepAtCycle, typename Read>
auto runStepsInCycleWindow(const sql::Database& db, const RunRecord& run, std::uint64_t fromCycle,
                           std::uint64_t toCycle, std::int64_t limit, StepAtCycle stepAtCycle,
                           const char* select, Read read) {
    std::vector<decltype(read(std::declval<const sql::Statement&>()))> out;
    if (run.numSteps == 0 || toCycle <= fromCycle || limit <= 0)
        return out;
    auto st = db.prepare(std::string(select) + " WHERE r.id >= ? AND r.id < ? ORDER BY r.id");
    st.bind(1, run.firstRow + stepAtCycle(fromCycle))
        .bind(2, run.firstRow + static_cast<std::int64_t>(run.numSteps));
    while (st.step() && static_cast<std::int64_t>(out.size()) < limit) {
        auto row = read(st);
        if (row.startCycle >= toCycle)
            break;
        out.push_back(std::move(row));
    }
    return out;
}

/// Blob decoding reports damage without knowing the file: errors leaving `f` get the report's
/// path, so every reader failure names the file.
template <typename F> auto inFile(const std::string& path, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const ReportError& e) {
        if (!e.file().empty())
            throw;
        throw ReportError(path, e.problem());
    }
}

/// Reads every row of `st` through `read`.
template <typename Read> auto collectRows(const std::string& path, sql::Statement& st, Read read) {
    return inFile(path, [&] {
        std::vector<decltype(read(st))> out;
        while (st.step())
            out.push_back(read(st));
        return out;
    });
}

inline std::int64_t scalar(sql::Database& db, const char* q) {
    auto st = db.prepare(q);
    return st.step() ? st.int64(0) : 0;
}

} // namespace detail

struct ProfileReader::CachedStatements {
    std::optional<sql::Statement> runLodSteps, runIpuLod;
    std::set<std::int64_t> ipuPyramidsBuilt; // files before v3: runs migrated so far
};

} // namespace tilescope::report
