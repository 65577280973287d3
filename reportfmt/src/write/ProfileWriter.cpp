#include "tilescope/report/ProfileWriter.hpp"

#include "RowBatch.hpp"
#include "WriterSession.hpp"
#include "lod/LivenessPyramid.hpp"
#include "lod/RunPyramid.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/TileSeries.hpp"
#include "types/TileAllocationCodec.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace tilescope::report {
namespace {

enum class Phase : std::uint8_t { Compute, Exchange, Sync, Stream };

Phase phaseOf(std::string_view phase) {
    if (phase == "exchange")
        return Phase::Exchange;
    if (phase == "sync")
        return Phase::Sync;
    if (phase == "stream")
        return Phase::Stream;
    return Phase::Compute;
}

std::string defaultPhase(std::string_view kind) {
    if (kind == "DoExchange" || kind == "GlobalExchange")
        return "exchange";
    if (kind == "Sync")
        return "sync";
    if (kind.starts_with("StreamCopy"))
        return "stream";
    return "compute";
}

template <typename T> void bindOptional(sql::Statement& st, int i, const std::optional<T>& v) {
    if (v)
        st.bind(i, static_cast<std::int64_t>(*v));
    else
        st.bindNull(i);
}

} // namespace

struct ProfileWriter::Impl {
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

ProfileWriter::ProfileWriter(const std::filesystem::path& path, ProfileWriterOptions options)
    : impl_(std::make_unique<Impl>(path, options)) {}

ProfileWriter::~ProfileWriter() = default;

const std::string& ProfileWriter::path() const {
    return impl_->session.path();
}

void ProfileWriter::setMetadata(std::string_view key, std::string_view value) {
    impl_->session.setMetadata(key, value);
}

void ProfileWriter::setEngineOptions(const std::vector<EngineOption>& options) {
    auto& db = impl_->session.db();
    db.exec("DELETE FROM engine_option");
    auto st = db.prepare(
        "INSERT OR REPLACE INTO engine_option(name, value, source, applies) VALUES(?,?,?,?)");
    for (const auto& o : options)
        st.bind(1, o.name).bind(2, o.value).bind(3, o.source).bind(4, o.applies ? 1 : 0).run();
}

void ProfileWriter::setTarget(const TargetInfo& t) {
    auto& im = *impl_;
    if (im.haveTarget)
        im.misuse("setTarget() called twice");
    if (t.numIpus == 0 || t.tilesPerIpu == 0 || t.bytesPerTile == 0)
        im.misuse("target with zero IPUs, tiles or bytes per tile");
    auto& db = im.session.db();
    db.prepare("INSERT INTO target(id, type, ipu_version, num_ipus, tiles_per_ipu, bytes_per_tile, "
               "clock_hz, replicas, worker_contexts, exchange_bytes_per_cycle) "
               "VALUES(1,?,?,?,?,?,?,?,?,?)")
        .bind(1, t.type)
        .bind(2, t.ipuVersion)
        .bind(3, std::int64_t{t.numIpus})
        .bind(4, std::int64_t{t.tilesPerIpu})
        .bind(5, t.bytesPerTile)
        .bind(6, t.clockHz)
        .bind(7, std::int64_t{t.replicas})
        .bind(8, std::int64_t{t.workerContexts})
        .bind(9, std::int64_t{t.exchangeBytesPerCycle})
        .run();
    std::vector<MemoryRegion> regions = t.regions;
    if (regions.empty())
        regions.push_back({1, "non_interleaved", false, 0, t.bytesPerTile});
    auto reg = db.prepare("INSERT INTO memory_region(id, name, interleaved, start_offset, "
                          "size_bytes) VALUES(?,?,?,?,?)");
    std::int64_t nextId = 1;
    for (auto& r : regions) {
        if (r.id == 0)
            r.id = nextId;
        nextId = r.id + 1;
        reg.bind(1, r.id).bind(2, r.name).bind(3, r.interleaved ? 1 : 0).bind(4, r.startOffset);
        reg.bind(5, r.sizeBytes).run();
        im.regionIds[r.name] = r.id;
    }
    auto cat =
        db.prepare("INSERT INTO memory_category(id, name, label, grp, liveness) VALUES(?,?,?,?,?)");
    for (const auto& c : standardMemoryCategories())
        cat.bind(1, c.id)
            .bind(2, c.name)
            .bind(3, c.label)
            .bind(4, c.group)
            .bind(5, c.liveness)
            .run();
    im.target = t;
    im.target.regions = regions;
    im.haveTarget = true;
}

void ProfileWriter::setTilePlacement(const TilePlacement& p) {
    auto& im = *impl_;
    im.requireTarget("setTilePlacement()");
    if (const std::string problem = p.problem(im.target.numIpus, im.target.tilesPerIpu);
        !problem.empty())
        im.misuse(problem);
    const auto encode = [](const std::vector<std::uint32_t>& v) {
        return TileSeries::encode(std::vector<std::uint64_t>(v.begin(), v.end()));
    };
    im.session.db()
        .prepare("INSERT OR REPLACE INTO tile_placement(id, die_columns, die_rows, die_x, die_y) "
                 "VALUES(1,?,?,?,?)")
        .bind(1, std::int64_t{p.columns})
        .bind(2, std::int64_t{p.rows})
        .bindBlob(3, encode(p.x))
        .bindBlob(4, encode(p.y))
        .run();
}

void ProfileWriter::setTileMemory(std::string_view category, std::string_view region,
                                  const PerTile& bytes) {
    auto& im = *impl_;
    im.requireTarget("setTileMemory()");
    std::int64_t categoryId = 0;
    try {
        categoryId = memoryCategoryId(category);
    } catch (const std::out_of_range& e) {
        im.misuse(e.what());
    }
    const auto it = im.regionIds.find(std::string(region));
    if (it == im.regionIds.end())
        im.misuse(fmt::format("unknown memory region '{}'", region));
    if (bytes.size() != im.target.numTiles())
        im.checkTiles(bytes, "tile memory");
    std::uint64_t total = 0, maxTile = 0;
    for (auto b : bytes) {
        total += b;
        maxTile = std::max(maxTile, b);
    }
    auto st = im.session.db().prepare(
        "INSERT OR REPLACE INTO tile_memory(category_id, region_id, total_bytes, max_tile_bytes, "
        "per_tile) VALUES(?,?,?,?,?)");
    st.bind(1, categoryId).bind(2, it->second).bind(3, total).bind(4, maxTile);
    im.bindSeries(st, 5, bytes, im.blobA);
    st.run();
}

void ProfileWriter::setTileAllocations(std::uint32_t tile,
                                       const std::vector<TileAllocation>& allocations) {
    auto& im = *impl_;
    im.requireTarget("setTileAllocations()");
    if (tile >= im.target.numTiles())
        im.misuse(fmt::format("tile memory map of tile {}: the target has {} tiles", tile,
                              im.target.numTiles()));
    const auto categories = standardMemoryCategories().size();
    for (const auto& a : allocations) {
        const bool knownRegion =
            std::any_of(im.target.regions.begin(), im.target.regions.end(),
                        [&](const MemoryRegion& r) { return r.id == a.regionId; });
        if (!knownRegion)
            im.misuse(fmt::format("tile {} allocation at {}: unknown memory region id {}", tile,
                                  a.address, a.regionId));
        if (a.categoryId < 1 || static_cast<std::size_t>(a.categoryId) > categories)
            im.misuse(fmt::format("tile {} allocation at {}: unknown memory category id {}", tile,
                                  a.address, a.categoryId));
        if (im.target.bytesPerTile && a.address + a.bytes > 2 * im.target.bytesPerTile)
            im.misuse(fmt::format("tile {} allocation at {} of {} bytes lies far past the tile's "
                                  "{} bytes",
                                  tile, a.address, a.bytes, im.target.bytesPerTile));
    }
    std::vector<TileAllocation> sorted = allocations;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.address < b.address; });
    im.session.db()
        .prepare("INSERT OR REPLACE INTO tile_allocation(tile, allocations) VALUES(?,?)")
        .bind(1, std::int64_t{tile})
        .bindBlob(2, detail::encodeTileAllocations(sorted))
        .run();
    im.session.countRows(1);
}

std::int64_t ProfileWriter::addComputeSet(const ComputeSetRecord& cs) {
    auto& im = *impl_;
    auto st = im.session.db().prepare(
        "INSERT INTO compute_set(name_id, debug_id, num_vertices) VALUES(?,?,?)");
    st.bind(1, im.session.intern(cs.name));
    bindOptional(st, 2, im.session.internOptional(cs.debugPath));
    st.bind(3, cs.numVertices).run();
    im.totalVertices += static_cast<std::int64_t>(cs.numVertices);
    im.session.countRows(1);
    return im.session.db().lastInsertRowid();
}

std::int64_t ProfileWriter::addVertexType(const VertexTypeRecord& vt) {
    auto& im = *impl_;
    im.session.db()
        .prepare("INSERT INTO vertex_type(name_id, state_bytes, code_bytes) VALUES(?,?,?)")
        .bind(1, im.session.intern(vt.name))
        .bind(2, vt.stateBytes)
        .bind(3, vt.codeBytes)
        .run();
    return im.session.db().lastInsertRowid();
}

void ProfileWriter::addVertexInstances(const VertexInstancesRecord& vi) {
    auto& im = *impl_;
    im.requireTarget("addVertexInstances()");
    im.checkTiles(vi.perTile, "vertex instances per tile");
    auto st = im.session.db().prepare("INSERT INTO vertex_instances(compute_set_id, "
                                      "vertex_type_id, count, per_tile) VALUES(?,?,?,?)");
    st.bind(1, vi.computeSetId).bind(2, vi.vertexTypeId).bind(3, vi.count);
    PerTile empty(im.target.numTiles(), 0);
    if (!vi.perTileEncoded.empty())
        im.bindEncoded(st, 4, vi.perTileEncoded, "vertex instances per tile");
    else
        im.bindSeries(st, 4, vi.perTile.empty() ? empty : vi.perTile, im.blobA);
    st.run();
    im.session.countRows(1);
}

std::int64_t ProfileWriter::addProgram(const ProgramRecord& p) {
    auto& im = *impl_;
    im.checkTiles(p.codePerTile, "program code per tile");
    auto& st = im.insertProgram;
    bindOptional(st, 1, p.parentId);
    st.bind(2, p.position).bind(3, p.kind).bind(4, im.session.intern(p.name));
    bindOptional(st, 5, im.session.internOptional(p.debugPath));
    bindOptional(st, 6, p.computeSetId);
    bindOptional(st, 7, p.repeatCount);
    bindOptional(st, 8, p.calleeId);
    st.bind(9, p.codeBytes);
    im.bindSeries(st, 10, p.codePerTile, im.blobA);
    st.run();
    im.session.countRows(1);
    return im.session.db().lastInsertRowid();
}

void ProfileWriter::addControlProgram(const ControlProgram& cp) {
    auto& im = *impl_;
    // idx is the table's key: say which two programs clash rather than SQLite's UNIQUE error.
    const auto [it, added] = im.controlProgramNames.emplace(cp.index, cp.name);
    if (!added)
        im.misuse("control program " + std::to_string(cp.index) + " ('" + cp.name +
                  "') has the index of '" + it->second +
                  "'; entry points and functions share one index sequence (functions follow the "
                  "entry points)");
    im.session.db()
        .prepare("INSERT INTO control_program(idx, program_id, is_function, name_id) "
                 "VALUES(?,?,?,?)")
        .bind(1, cp.index)
        .bind(2, cp.programId)
        .bind(3, cp.isFunction ? 1 : 0)
        .bind(4, im.session.intern(cp.name))
        .run();
}

std::int64_t ProfileWriter::addStep(const StepRecord& s) {
    auto& im = *impl_;
    im.checkTiles(s.estimatedPerTile, "step cycle estimates per tile");
    const std::int64_t id = static_cast<std::int64_t>(im.stepPhases.size());
    const std::string phase = s.phase.empty() ? defaultPhase(s.kind) : s.phase;
    auto& st = im.insertStep;
    st.bind(1, id).bind(2, s.programId).bind(3, s.kind).bind(4, phase);
    bindOptional(st, 5, s.computeSetId);
    st.bind(6, s.exchangeBytes).bind(7, s.estimatedCycles);
    if (!s.estimatedPerTileEncoded.empty())
        im.bindEncoded(st, 8, s.estimatedPerTileEncoded, "step cycle estimates per tile");
    else
        im.bindSeries(st, 8, s.estimatedPerTile, im.blobA);
    st.bind(9, s.notAlwaysLiveBytes).bind(10, s.maxTileNotAlwaysLiveBytes);
    st.run();
    im.stepPhases.push_back(phaseOf(phase));
    im.session.countRows(1);
    return id;
}

std::int64_t ProfileWriter::addVariable(const VariableRecord& v) {
    auto& im = *impl_;
    im.requireTarget("addVariable()");
    im.checkTiles(v.perTile, "variable bytes per tile");
    auto& st = im.insertVariable;
    st.bind(1, im.session.intern(v.name));
    bindOptional(st, 2, im.session.internOptional(v.debugPath));
    st.bind(3, v.elementType).bind(4, v.numElements).bind(5, v.bytes).bind(6, v.categoryId);
    st.bind(7, v.regionId).bind(8, v.alwaysLive ? 1 : 0);
    bindOptional(st, 9, v.alwaysLive ? std::nullopt : v.firstStep);
    bindOptional(st, 10, v.alwaysLive ? std::nullopt : v.lastStep);
    if (!v.perTileEncoded.empty()) {
        im.bindEncoded(st, 11, v.perTileEncoded, "variable bytes per tile");
    } else {
        PerTile empty;
        if (v.perTile.empty())
            empty.assign(im.target.numTiles(), 0);
        im.bindSeries(st, 11, v.perTile.empty() ? empty : v.perTile, im.blobA);
    }
    st.run();
    im.session.countRows(1);
    return im.session.db().lastInsertRowid();
}

std::int64_t ProfileWriter::addOperation(const OperationRecord& op) {
    auto& im = *impl_;
    auto& db = im.session.db();
    auto st =
        db.prepare("INSERT INTO operation(name_id, debug_path_id, layer, flops) VALUES(?,?,?,?)");
    st.bind(1, im.session.intern(op.name));
    bindOptional(st, 2, im.session.internOptional(op.debugPath));
    st.bind(3, op.layer);
    bindOptional(st, 4, op.flops);
    st.run();
    const std::int64_t id = db.lastInsertRowid();
    auto lp = db.prepare("INSERT OR IGNORE INTO operation_program VALUES(?,?)");
    for (auto p : op.programIds)
        lp.bind(1, id).bind(2, p).run();
    auto lv = db.prepare("INSERT OR IGNORE INTO operation_variable VALUES(?,?)");
    for (auto v : op.variableIds)
        lv.bind(1, id).bind(2, v).run();
    if (!op.debugJson.empty() && op.debugJson != "{}") {
        db.prepare("INSERT INTO operation_debug(operation_id, info) VALUES(?,?)")
            .bind(1, id)
            .bind(2, op.debugJson)
            .run();
        im.session.countRows(1);
    }
    im.session.countRows(1 + op.programIds.size() + op.variableIds.size());
    return id;
}

void ProfileWriter::finishCompilation(bool outOfMemory) {
    auto& im = *impl_;
    im.requireTarget("finishCompilation()");
    im.session.setMetadata("compile_status", outOfMemory ? "out_of_memory" : "ok");
    im.session.setMetadata("run_lod_base_cycles", std::to_string(im.options.lodBaseCycles));
    im.session.setMetadata("total_vertices", std::to_string(im.totalVertices));
    detail::buildLivenessPyramid(im.session.db(), "main");
    im.session.commit();
}

std::int64_t ProfileWriter::beginRun(std::int64_t programIndex, std::int64_t hostStartNs) {
    auto& im = *impl_;
    if (im.run)
        im.misuse("beginRun() while a run is open");
    RunRecord r;
    r.programIndex = programIndex;
    r.hostStartNs = hostStartNs;
    r.firstRow = im.nextRow;
    auto& db = im.session.db();
    db.prepare("INSERT INTO run(program_index, host_start_ns, host_end_ns, first_row, num_steps, "
               "total_cycles) VALUES(?,?,NULL,?,0,0)")
        .bind(1, programIndex)
        .bind(2, hostStartNs)
        .bind(3, r.firstRow)
        .run();
    r.id = db.lastInsertRowid();
    im.run = r;
    im.pyramid =
        detail::RunPyramid(im.options.lodBaseCycles, im.haveTarget ? im.target.numIpus : 0);
    return r.id;
}

void ProfileWriter::addRunStep(const RunStepRecord& s) {
    auto& im = *impl_;
    if (!im.run)
        im.misuse("addRunStep() outside a run");
    if (s.stepId < 0 || static_cast<std::size_t>(s.stepId) >= im.stepPhases.size())
        im.misuse(fmt::format("run step refers to unknown step {}", s.stepId));
    RunRecord& run = *im.run;
    const std::uint64_t runEnd = run.totalCycles;
    if (run.numSteps > 0 && s.startCycle < im.lastStartCycle)
        im.misuse(fmt::format("run step starting at cycle {} comes after one starting at {}",
                              s.startCycle, im.lastStartCycle));
    im.lastStartCycle = s.startCycle;
    im.checkTiles(s.perTile, "run step cycles per tile");

    std::uint32_t active = s.activeTiles;
    double balance = s.tileBalance;
    if (!s.perTile.empty()) {
        std::uint64_t maxC = 0, sum = 0;
        active = 0;
        for (auto c : s.perTile) {
            if (c) {
                ++active;
                sum += c;
                maxC = std::max(maxC, c);
            }
        }
        balance = maxC ? static_cast<double>(sum) / (static_cast<double>(active) * maxC) : 1.0;
    }
    // Everything that can throw comes before the row enters the batch.
    if (!s.perTileEncoded.empty())
        im.checkEncoded(s.perTileEncoded, "run step cycles per tile");
    auto& row = im.runSteps;
    row.value(im.nextRow).value(run.id).value(s.stepId).value(s.startCycle).value(s.cycles);
    row.value(std::int64_t{active}).value(balance);
    if (s.perIpu.empty())
        row.null();
    else
        TileSeries::encode(s.perIpu, row.blobSlot());
    if (!s.perTileEncoded.empty())
        row.blob(s.perTileEncoded);
    else if (s.perTile.empty())
        row.null();
    else
        TileSeries::encode(s.perTile, row.blobSlot());

    RunLodRow& b = im.pyramid.addStep(im.nextRow, s.startCycle, s.cycles, s.perIpu);
    switch (im.stepPhases[static_cast<std::size_t>(s.stepId)]) {
    case Phase::Compute:
        b.computeCycles += s.cycles;
        break;
    case Phase::Exchange:
        b.exchangeCycles += s.cycles;
        break;
    case Phase::Sync:
        b.syncCycles += s.cycles;
        break;
    case Phase::Stream:
        b.streamCycles += s.cycles;
        break;
    }

    ++im.nextRow;
    ++run.numSteps;
    run.totalCycles = std::max(runEnd, s.startCycle + s.cycles);
    im.session.countRows(row.endRow());
}

void ProfileWriter::endRun(std::int64_t hostEndNs, std::uint64_t deviceCycles) {
    auto& im = *impl_;
    if (!im.run)
        im.misuse("endRun() without beginRun()");
    im.session.countRows(im.runSteps.flush());
    im.writeRunLod();
    im.run->totalCycles = std::max(im.run->totalCycles, deviceCycles);
    im.session.db()
        .prepare("UPDATE run SET host_end_ns = ?, num_steps = ?, total_cycles = ? WHERE id = ?")
        .bind(1, hostEndNs)
        .bind(2, im.run->numSteps)
        .bind(3, im.run->totalCycles)
        .bind(4, im.run->id)
        .run();
    im.run.reset();
    im.session.commit();
}

void ProfileWriter::commit() {
    impl_->session.countRows(impl_->runSteps.flush());
    impl_->session.commit();
}

void ProfileWriter::addBlocks(std::int64_t runIndex, const std::vector<BlockRecord>& blocks) {
    auto& im = *impl_;
    if (blocks.empty())
        return;
    if (!im.haveTarget)
        im.misuse("addBlocks() before setTarget()");
    auto st = im.session.db().prepare(
        "INSERT INTO block(run_index, run_start, tile, kind, program_id, step_id, cycles_from, "
        "cycles_to, dropped) VALUES(?,?,?,?,?,?,?,?,?)");
    const std::uint64_t tiles = std::uint64_t{im.target.numIpus} * im.target.tilesPerIpu;
    for (const auto& b : blocks) {
        if (b.tile >= tiles || b.cyclesTo < b.cyclesFrom || b.cyclesFrom < b.runStartCycle)
            im.misuse(fmt::format("block on tile {} from cycle {} to {}: the target has {} tiles "
                                  "and a block lies within its run",
                                  b.tile, b.cyclesFrom, b.cyclesTo, tiles));
        st.bind(1, runIndex)
            .bind(2, b.runStartCycle)
            .bind(3, static_cast<std::int64_t>(b.tile))
            .bind(4, static_cast<std::int64_t>(b.kind));
        bindOptional(st, 5, b.programId);
        bindOptional(st, 6, b.stepId);
        st.bind(7, b.cyclesFrom).bind(8, b.cyclesTo).bind(9, b.dropped).run();
    }
    im.session.countRows(blocks.size());
}

void ProfileWriter::close() {
    auto& im = *impl_;
    if (im.run)
        im.misuse("close() while a run is open");
    im.session.close();
}

} // namespace tilescope::report
