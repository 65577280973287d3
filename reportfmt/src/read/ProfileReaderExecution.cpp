// Reader queries for the app's execution and liveness analysis: per-phase totals of a run, steps
// and pyramid buckets with their programs (flame charts), program paths, and live ranges summed
// per group of tiles (liveness per IPU or per selected tiles).
#include "ProfileReaderDetail.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>

namespace tilescope::report {
using detail::inFile;
using detail::u64;

namespace {

constexpr std::int64_t kMaxProgramDepth = 256; // guards against cycles in a damaged tree

} // namespace

std::vector<RunPhaseTotals> ProfileReader::runPhaseTotals(const RunRecord& run) const {
    std::vector<RunPhaseTotals> out;
    if (run.numSteps == 0)
        return out;
    // Rows of a run are a rowid range, so this is one range scan plus a step lookup per row.
    auto st = file_.database().prepare(
        "SELECT s.phase, count(*), sum(r.cycles), sum(r.active_tiles * r.tile_balance * r.cycles), "
        "sum(r.tile_balance * r.cycles), sum(s.exchange_bytes) FROM run_step r "
        "JOIN step s ON s.id = r.step_id WHERE r.id >= ? AND r.id < ? GROUP BY s.phase "
        "ORDER BY s.phase");
    st.bind(1, run.firstRow).bind(2, run.firstRow + static_cast<std::int64_t>(run.numSteps));
    while (st.step())
        out.push_back({st.text(0), u64(st, 1), u64(st, 2), st.real(3), st.real(4), u64(st, 5)});
    return out;
}

std::vector<RunStepProgram> ProfileReader::runStepPrograms(const RunRecord& run,
                                                           std::uint64_t fromCycle,
                                                           std::uint64_t toCycle,
                                                           std::int64_t limit) const {
    return detail::runStepsInCycleWindow(
        file_.database(), run, fromCycle, toCycle, limit,
        [&](std::uint64_t cycle) { return runStepAtCycle(run, cycle); },
        "SELECT r.id, r.step_id, s.program_id, r.start_cycle, r.cycles FROM run_step r "
        "LEFT JOIN step s ON s.id = r.step_id",
        [&](const sql::Statement& row) {
            return RunStepProgram{row.int64(0) - run.firstRow, row.int64(1),
                                  row.isNull(2) ? -1 : row.int64(2), u64(row, 3), u64(row, 4)};
        });
}

std::vector<RunLodProgram> ProfileReader::runLodPrograms(const RunRecord& run, std::int64_t level,
                                                         std::uint64_t fromCycle,
                                                         std::uint64_t toCycle) const {
    std::vector<RunLodProgram> out;
    const auto buckets = runLodBuckets(level, fromCycle, toCycle);
    if (!buckets)
        return out;
    auto st = file_.database().prepare(
        "SELECT l.bucket, l.steps, s.program_id FROM run_lod l "
        "LEFT JOIN run_step r ON r.id = l.first_row LEFT JOIN step s ON s.id = r.step_id "
        "WHERE l.run_id = ? AND l.level = ? AND l.bucket BETWEEN ? AND ? ORDER BY l.bucket");
    st.bind(1, run.id).bind(2, level).bind(3, buckets->first).bind(4, buckets->second);
    while (st.step())
        out.push_back({st.int64(0), u64(st, 1), st.isNull(2) ? -1 : st.int64(2)});
    return out;
}

std::vector<ProgramPathEntry> ProfileReader::programPath(std::int64_t programId) const {
    std::vector<ProgramPathEntry> out;
    auto st = file_.database().prepare(
        "WITH RECURSIVE up(id, parent_id, kind, name_id, depth) AS ("
        "SELECT id, parent_id, kind, name_id, 0 FROM program WHERE id = ? UNION ALL "
        "SELECT p.id, p.parent_id, p.kind, p.name_id, up.depth + 1 FROM program p "
        "JOIN up ON p.id = up.parent_id WHERE up.depth < ?) "
        "SELECT up.id, up.kind, n.text FROM up LEFT JOIN name n ON n.id = up.name_id "
        "ORDER BY up.depth DESC");
    st.bind(1, programId).bind(2, kMaxProgramDepth);
    while (st.step())
        out.push_back({st.int64(0), st.text(1), st.text(2)});
    return out;
}

std::vector<ProgramNode> ProfileReader::programNodes(const std::vector<std::int64_t>& ids) const {
    std::vector<ProgramNode> out;
    constexpr std::size_t kChunk = 500; // well under SQLite's bound-parameter limit
    for (std::size_t at = 0; at < ids.size(); at += kChunk) {
        const std::size_t n = std::min(kChunk, ids.size() - at);
        std::string sql = "SELECT p.id, p.parent_id, p.kind, n.text FROM program p "
                          "LEFT JOIN name n ON n.id = p.name_id WHERE p.id IN (?";
        for (std::size_t i = 1; i < n; ++i)
            sql += ",?";
        sql += ")";
        auto st = file_.database().prepare(sql);
        for (std::size_t i = 0; i < n; ++i)
            st.bind(static_cast<int>(i + 1), ids[at + i]);
        while (st.step())
            out.push_back({st.int64(0), st.isNull(1) ? -1 : st.int64(1), st.text(2), st.text(3)});
    }
    return out;
}

std::vector<std::vector<std::uint64_t>>
ProfileReader::runStepTileCycles(const RunRecord& run, std::int64_t firstSeq, std::int64_t count,
                                 std::uint32_t firstTile, std::uint32_t tileCount) const {
    return runStepSeries(run, firstSeq, count, "per_tile",
                         [&](const void* data, std::size_t size, auto& values) {
                             TileSeries::decodeRange(data, size, firstTile, tileCount, values);
                         });
}

std::vector<std::vector<std::uint64_t>> ProfileReader::runStepIpuCycles(const RunRecord& run,
                                                                        std::int64_t firstSeq,
                                                                        std::int64_t count) const {
    // per_ipu precedes per_tile in the row, so SQLite stops before the per-tile blob's pages.
    return runStepSeries(run, firstSeq, count, "per_ipu",
                         [](const void* data, std::size_t size, auto& values) {
                             TileSeries::decode(data, size, values);
                         });
}

std::vector<std::vector<std::uint64_t>> ProfileReader::runStepSeries(
    const RunRecord& run, std::int64_t firstSeq, std::int64_t count, std::string_view column,
    const std::function<void(const void*, std::size_t, std::vector<std::uint64_t>&)>& decode)
    const {
    std::vector<std::vector<std::uint64_t>> out;
    firstSeq = std::max<std::int64_t>(0, firstSeq);
    const std::int64_t end = std::min<std::int64_t>(firstSeq + std::max<std::int64_t>(0, count),
                                                    static_cast<std::int64_t>(run.numSteps));
    if (end <= firstSeq)
        return out;
    out.resize(static_cast<std::size_t>(end - firstSeq));
    auto st = file_.database().prepare(
        fmt::format("SELECT id, {} FROM run_step WHERE id >= ? AND id < ? ORDER BY id", column));
    st.bind(1, run.firstRow + firstSeq).bind(2, run.firstRow + end);
    inFile(path(), [&] {
        while (st.step()) {
            const std::int64_t i = st.int64(0) - run.firstRow - firstSeq;
            if (i < 0 || i >= end - firstSeq || st.isNull(1))
                continue;
            const auto b = st.blob(1);
            decode(b.data(), b.size(), out[static_cast<std::size_t>(i)]);
        }
    });
    return out;
}

std::vector<StepMatch> ProfileReader::stepsMatching(const std::string& text,
                                                    const std::vector<std::string>& phases) const {
    std::vector<StepMatch> out;
    // lower() and instr() are ASCII-only without ICU, which is what the doc promises.
    std::string sql = "SELECT s.id, s.phase, s.exchange_bytes FROM step s "
                      "LEFT JOIN program p ON p.id = s.program_id "
                      "LEFT JOIN name n ON n.id = p.name_id WHERE "
                      "(instr(lower(coalesce(n.text, '')), lower(?1)) > 0 "
                      "OR instr(lower(s.kind), lower(?1)) > 0)";
    if (!phases.empty()) {
        sql += " AND s.phase IN (?2";
        for (std::size_t i = 1; i < phases.size(); ++i)
            sql += ",?" + std::to_string(i + 2);
        sql += ")";
    }
    sql += " ORDER BY s.id";
    auto st = file_.database().prepare(sql);
    st.bind(1, text);
    for (std::size_t i = 0; i < phases.size(); ++i)
        st.bind(static_cast<int>(i + 2), phases[i]);
    while (st.step())
        out.push_back({st.int64(0), st.text(1), u64(st, 2)});
    return out;
}

std::vector<LiveRangeBytes>
ProfileReader::notAlwaysLiveRangesByGroup(const std::vector<int>& groupOfTile, int groups) const {
    std::vector<LiveRangeBytes> out;
    if (groups <= 0)
        return out;
    auto st = file_.database().prepare(
        "SELECT first_step, last_step, per_tile FROM variable WHERE always_live = 0 "
        "AND first_step IS NOT NULL AND last_step IS NOT NULL ORDER BY id");
    PerTile perTile;
    inFile(path(), [&] {
        while (st.step()) {
            const auto b = st.blob(2);
            TileSeries::decode(b.data(), b.size(), perTile);
            LiveRangeBytes r{st.int64(0), st.int64(1),
                             std::vector<std::uint64_t>(static_cast<std::size_t>(groups), 0)};
            bool any = false;
            const std::size_t n = std::min(perTile.size(), groupOfTile.size());
            for (std::size_t t = 0; t < n; ++t) {
                const int g = groupOfTile[t];
                if (g >= 0 && g < groups && perTile[t]) {
                    r.bytesPerGroup[static_cast<std::size_t>(g)] += perTile[t];
                    any = true;
                }
            }
            if (any && r.lastStep >= r.firstStep)
                out.push_back(std::move(r));
        }
    });
    return out;
}

PerTile ProfileReader::alwaysLiveBytesPerTile() const {
    PerTile out(target_.numTiles(), 0);
    auto st = file_.database().prepare("SELECT category_id, per_tile FROM tile_memory");
    inFile(path(), [&] {
        while (st.step()) {
            const std::int64_t category = st.int64(0);
            const bool always = std::any_of(categories_.begin(), categories_.end(), [&](auto& c) {
                return c.id == category && c.liveness == "always";
            });
            if (!always)
                continue;
            const auto b = st.blob(1);
            TileSeries::accumulate(b.data(), b.size(), out);
        }
    });
    return out;
}

} // namespace tilescope::report
