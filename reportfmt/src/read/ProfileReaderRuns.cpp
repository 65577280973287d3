// ProfileReader's queries of engine runs: the runs, their executed steps (by sequence, by cycle,
// as spans of a cycle window) and the execution-trace pyramids run_lod and run_ipu_lod.
#include "ProfileReaderDetail.hpp"
#include "lod/RunPyramid.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::report {
using detail::inFile;
using detail::optionalInt;
using detail::u64;

std::vector<RunRecord> ProfileReader::runs() const {
    std::vector<RunRecord> out;
    auto& db = file_.database();
    auto st = db.prepare("SELECT id, program_index, host_start_ns, host_end_ns, first_row, "
                         "num_steps, total_cycles FROM run ORDER BY id");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.int64(2), optionalInt(st, 3), st.int64(4),
                       u64(st, 5), u64(st, 6)});
    // A run still being written (or cut off by a killed writer) owns every row after first_row.
    for (auto& r : out) {
        if (r.hostEndNs)
            continue;
        auto last = db.prepare("SELECT max(id), max(start_cycle + cycles) FROM run_step "
                               "WHERE id >= ? AND run_id = ?");
        last.bind(1, r.firstRow).bind(2, r.id);
        if (last.step() && !last.isNull(0)) {
            r.numSteps = static_cast<std::uint64_t>(last.int64(0) - r.firstRow + 1);
            r.totalCycles = u64(last, 1);
        }
    }
    return out;
}

std::vector<RunStepRecord> ProfileReader::runSteps(const RunRecord& run, std::int64_t firstSeq,
                                                   std::int64_t count, bool withPerTile) const {
    std::vector<RunStepRecord> out;
    firstSeq = std::max<std::int64_t>(0, firstSeq);
    const std::int64_t end = std::min<std::int64_t>(firstSeq + std::max<std::int64_t>(0, count),
                                                    static_cast<std::int64_t>(run.numSteps));
    if (end <= firstSeq)
        return out;
    auto st = file_.database().prepare(
        "SELECT id, step_id, start_cycle, cycles, active_tiles, tile_balance, per_ipu, per_tile "
        "FROM run_step WHERE id >= ? AND id < ? ORDER BY id");
    st.bind(1, run.firstRow + firstSeq).bind(2, run.firstRow + end);
    inFile(path(), [&] {
        while (st.step()) {
            RunStepRecord r;
            r.row = st.int64(0);
            r.stepId = st.int64(1);
            r.startCycle = u64(st, 2);
            r.cycles = u64(st, 3);
            r.activeTiles = static_cast<std::uint32_t>(st.int64(4));
            r.tileBalance = st.real(5);
            if (!st.isNull(6)) {
                const auto b = st.blob(6);
                r.perIpu = TileSeries::decode(b.data(), b.size());
            }
            if (withPerTile && !st.isNull(7)) {
                const auto b = st.blob(7);
                r.perTile = TileSeries::decode(b.data(), b.size());
            }
            out.push_back(std::move(r));
        }
    });
    return out;
}

std::int64_t ProfileReader::runStepAtCycle(const RunRecord& run, std::uint64_t cycle) const {
    // Steps are stored in execution order with non-decreasing start cycles, so rowid order is
    // time order: a binary search costs log2(steps) point reads and needs no index.
    auto st = file_.database().prepare("SELECT start_cycle FROM run_step WHERE id = ?");
    std::int64_t lo = 0, hi = static_cast<std::int64_t>(run.numSteps) - 1, found = 0;
    while (lo <= hi) {
        const std::int64_t mid = lo + (hi - lo) / 2;
        st.bind(1, run.firstRow + mid);
        const bool ok = st.step();
        const std::uint64_t start = ok ? u64(st, 0) : 0;
        st.reset();
        if (!ok)
            throw ReportError(path(), "file is damaged (a run's steps are missing)");
        if (start <= cycle) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return found;
}

std::vector<RunStepSpan> ProfileReader::runStepSpans(const RunRecord& run, std::uint64_t fromCycle,
                                                     std::uint64_t toCycle,
                                                     std::int64_t limit) const {
    return detail::runStepsInCycleWindow(
        file_.database(), run, fromCycle, toCycle, limit,
        [&](std::uint64_t cycle) { return runStepAtCycle(run, cycle); },
        "SELECT r.id, r.step_id, r.start_cycle, r.cycles, r.tile_balance, s.phase, s.program_id "
        "FROM run_step r LEFT JOIN step s ON s.id = r.step_id",
        [&](const sql::Statement& row) {
            return RunStepSpan{row.int64(0) - run.firstRow,
                               row.int64(1),
                               u64(row, 2),
                               u64(row, 3),
                               row.real(4),
                               row.text(5),
                               row.isNull(6) ? -1 : row.int64(6)};
        });
}

std::optional<std::pair<std::int64_t, std::int64_t>>
ProfileReader::runLodBuckets(std::int64_t level, std::uint64_t fromCycle,
                             std::uint64_t toCycle) const {
    if (level < 0 || level > 40)
        return std::nullopt;
    const double width =
        static_cast<double>(runLodBase_) * std::pow(4.0, static_cast<double>(level));
    return std::pair{static_cast<std::int64_t>(static_cast<double>(fromCycle) / width),
                     static_cast<std::int64_t>(static_cast<double>(toCycle) / width)};
}

std::vector<RunLodRow> ProfileReader::runLod(const RunRecord& run, std::int64_t level,
                                             std::uint64_t fromCycle, std::uint64_t toCycle) const {
    std::vector<RunLodRow> out;
    const auto buckets = runLodBuckets(level, fromCycle, toCycle);
    if (!buckets)
        return out;
    const auto [firstBucket, lastBucket] = *buckets;
    auto st = file_.database().prepare(
        "SELECT level, bucket, first_row, steps, compute_cycles, exchange_cycles, sync_cycles, "
        "stream_cycles, max_step_cycles FROM run_lod WHERE run_id = ? AND level = ? "
        "AND bucket BETWEEN ? AND ? ORDER BY bucket");
    st.bind(1, run.id).bind(2, level).bind(3, firstBucket).bind(4, lastBucket);
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.int64(2), u64(st, 3), u64(st, 4), u64(st, 5),
                       u64(st, 6), u64(st, 7), u64(st, 8)});
    return out;
}

std::int64_t ProfileReader::runLodLevelFor(const RunRecord& run, double cyclesPerBucket) const {
    auto st =
        file_.database().prepare("SELECT max(level) FROM run_lod WHERE run_id = ? AND level <= ?");
    if (cyclesPerBucket < static_cast<double>(runLodBase_))
        return -1;
    const auto wanted = static_cast<std::int64_t>(
        std::floor(std::log(cyclesPerBucket / static_cast<double>(runLodBase_)) / std::log(4.0)));
    st.bind(1, run.id).bind(2, wanted);
    if (st.step() && !st.isNull(0))
        return st.int64(0);
    return -1;
}

std::vector<RunIpuLodRow> ProfileReader::runIpuLod(const RunRecord& run, std::int64_t level,
                                                   std::uint64_t fromCycle,
                                                   std::uint64_t toCycle) const {
    std::vector<RunIpuLodRow> out;
    const auto buckets = runLodBuckets(level, fromCycle, toCycle);
    if (!buckets)
        return out;
    const auto [firstBucket, lastBucket] = *buckets;
    if (!cached_)
        cached_ = std::make_unique<CachedStatements>();
    auto& db = file_.database();
    if (file_.formatVersion() < 3 && !cached_->ipuPyramidsBuilt.count(run.id) &&
        detail::buildRunIpuPyramid(db, "temp", run.id))
        cached_->ipuPyramidsBuilt.insert(run.id);
    // Two range scans merged here: a join would seek run_ipu_lod once per bucket, which costs
    // several times the scan for the thousands of buckets of a zoomed-out window.
    if (!cached_->runLodSteps)
        cached_->runLodSteps.emplace(
            db.prepare("SELECT bucket, steps FROM run_lod WHERE run_id = ? AND level = ? "
                       "AND bucket BETWEEN ? AND ? ORDER BY bucket"));
    if (!cached_->runIpuLod)
        cached_->runIpuLod.emplace(
            db.prepare("SELECT bucket, busy FROM run_ipu_lod WHERE run_id = ? AND level = ? "
                       "AND bucket BETWEEN ? AND ? ORDER BY bucket"));
    auto& steps = *cached_->runLodSteps;
    auto& busy = *cached_->runIpuLod;
    for (sql::Statement* st : {&steps, &busy}) {
        st->reset();
        st->bind(1, run.id).bind(2, level).bind(3, firstBucket).bind(4, lastBucket);
    }
    inFile(path(), [&] {
        bool haveBusy = busy.step();
        while (steps.step()) {
            RunIpuLodRow r{level, steps.int64(0), u64(steps, 1), {}};
            while (haveBusy && busy.int64(0) < r.bucket)
                haveBusy = busy.step();
            if (haveBusy && busy.int64(0) == r.bucket) {
                const auto b = busy.blob(1);
                r.busyCycles = detail::decodeIpuBusy(b.data(), b.size());
            }
            out.push_back(std::move(r));
        }
    });
    steps.reset();
    busy.reset();
    return out;
}

} // namespace tilescope::report
