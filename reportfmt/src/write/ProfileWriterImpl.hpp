// What ProfileWriter.cpp (the compilation's tables) and ProfileWriterRuns.cpp (runs, their
// level-of-detail pyramid and blocks) share: the writer's state and its checks.
#pragma once

#include "RowBatch.hpp"
#include "WriterSession.hpp"
#include "lod/RunPyramid.hpp"
#include "tilescope/report/ProfileWriter.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <fmt/format.h>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tilescope::report::detail {

enum class Phase : std::uint8_t { Compute, Exchange, Sync, Stream };

inline Phase phaseOf(std::string_view phase) {
    if (phase == "exchange")
        return Phase::Exchange;
    if (phase == "sync")
        return Phase::Sync;
    if (phase == "stream")
        return Phase::Stream;
    return Phase::Compute;
}

template <typename T> void bindOptional(sql::Statement& st, int i, const std::optional<T>& v) {
    if (v)
        st.bind(i, static_cast<std::int64_t>(*v));
    else
        st.bindNull(i);
}

} // namespace tilescope::report::detail

namespace tilescope::report {

struct ProfileWriter::Impl {
    using Phase = detail::Phase;
    detail::WriterSession session;
    ProfileWriterOptions options;
    TargetInfo target;
    bool haveTarget = false;
    std::unordered_map<std::string, std::int64_t> regionIds;
    std::vector<Phase> stepPhases;
    std::int64_t totalVertices = 0; // stored at finishCompilation(): readers need not sum it
    std::unordered_map<std::int64_t, std::string> controlProgramNames; // by idx, for the check

    sql::Statement insertProgram, insertStep, insertVariable;
    detail::RowBatch runSteps; // the hot path: multi-row inserts, flushed before every commit
    detail::RowBatch lodRows;
    detail::RowBatch ipuLodRows;
    std::string blobA;

    // The run being written.
    std::optional<RunRecord> run;
    std::uint64_t lastStartCycle = 0;
    detail::RunPyramid pyramid; // run_lod and run_ipu_lod of the run, level 0 until endRun()
    std::int64_t nextRow = 1;

    Impl(const std::filesystem::path& path, ProfileWriterOptions o)
        : session(path, FileKind::Profile, o.replaceExisting, o.rowsPerTransaction), options(o) {
        auto& db = session.db();
        insertProgram = db.prepare(
            "INSERT INTO program(parent_id, position, kind, name_id, debug_id, compute_set_id, "
            "repeat_count, callee_id, code_bytes, code_per_tile) VALUES(?,?,?,?,?,?,?,?,?,?)");
        insertStep = db.prepare(
            "INSERT INTO step(id, program_id, kind, phase, compute_set_id, exchange_bytes, "
            "estimated_cycles, estimated_per_tile, not_always_live_bytes, "
            "max_tile_not_always_live_bytes) VALUES(?,?,?,?,?,?,?,?,?,?)");
        insertVariable =
            db.prepare("INSERT INTO variable(name_id, debug_id, element_type, num_elements, bytes, "
                       "category_id, region_id, always_live, first_step, last_step, per_tile) "
                       "VALUES(?,?,?,?,?,?,?,?,?,?,?)");
        runSteps = detail::RowBatch(db, "run_step",
                                    "id, run_id, step_id, start_cycle, cycles, active_tiles, "
                                    "tile_balance, per_ipu, per_tile",
                                    9);
        lodRows = detail::RowBatch(db, "run_lod",
                                   "run_id, level, bucket, first_row, steps, compute_cycles, "
                                   "exchange_cycles, sync_cycles, stream_cycles, max_step_cycles",
                                   10);
        ipuLodRows = detail::RowBatch(db, "run_ipu_lod", "run_id, level, bucket, busy", 4);
        auto st = db.prepare("SELECT coalesce(max(id), 0) + 1 FROM run_step");
        st.step();
        nextRow = st.int64(0);
    }

    [[noreturn]] void misuse(const std::string& what) const {
        throw ReportError(session.path(), "writer: " + what);
    }

    void requireTarget(const char* what) const {
        if (!haveTarget)
            misuse(std::string(what) + " before setTarget()");
    }

    void checkTiles(const PerTile& v, const char* what) const {
        if (!v.empty() && v.size() != target.numTiles())
            misuse(fmt::format("{} has {} entries, the target has {} tiles", what, v.size(),
                               target.numTiles()));
    }

    ~Impl() {
        try { // a writer destroyed without close() keeps every step it was given
            runSteps.flush();
        } catch (...) { // never throw from a destructor; committed data stays
        }
    }

    // Binds a pre-encoded blob after checking it covers exactly the target's tiles.
    void bindEncoded(sql::Statement& st, int i, const std::string& blob, const char* what) {
        checkEncoded(blob, what);
        st.bindBlob(i, blob);
    }

    void checkEncoded(const std::string& blob, const char* what) const {
        std::size_t n = 0;
        try {
            n = TileSeries::count(blob.data(), blob.size());
        } catch (const ReportError& e) {
            misuse(fmt::format("{}: {}", what, e.problem()));
        }
        if (n != target.numTiles())
            misuse(fmt::format("{} has {} entries, the target has {} tiles", what, n,
                               target.numTiles()));
    }

    void bindSeries(sql::Statement& st, int i, const PerTile& v, std::string& buf) {
        if (v.empty()) {
            st.bindNull(i);
            return;
        }
        buf.clear();
        TileSeries::encode(v, buf);
        st.bindBlob(i, buf);
    }

    void writeRunLod() {
        const std::uint32_t ipus = pyramid.ipus();
        pyramid.takeLevels(run->numSteps, [&](std::int64_t lv, const std::vector<RunLodRow>& level,
                                              const std::vector<std::uint64_t>& busy) {
            for (const RunLodRow& r : level) {
                lodRows.value(run->id).value(lv).value(r.bucket).value(r.firstRow);
                lodRows.value(r.steps).value(r.computeCycles).value(r.exchangeCycles);
                lodRows.value(r.syncCycles).value(r.streamCycles).value(r.maxStepCycles);
                lodRows.endRow();
            }
            // Only when steps carried per-IPU cycles (busy is empty otherwise).
            for (std::size_t k = 0; k < level.size() && !busy.empty(); ++k) {
                ipuLodRows.value(run->id).value(lv).value(level[k].bucket);
                detail::encodeIpuBusy(std::span(busy).subspan(k * ipus, ipus),
                                      ipuLodRows.blobSlot());
                ipuLodRows.endRow();
            }
        });
        lodRows.flush();
        ipuLodRows.flush();
    }
};

} // namespace tilescope::report
