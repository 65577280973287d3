#include "ProfileWriterImpl.hpp"
#include "lod/LivenessPyramid.hpp"
#include "types/TileAllocationCodec.hpp"

#include <algorithm>

namespace tilescope::report {
namespace {

std::string defaultPhase(std::string_view kind) {
    if (kind == "DoExchange" || kind == "GlobalExchange")
        return "exchange";
    if (kind == "Sync")
        return "sync";
    if (kind.starts_with("StreamCopy"))
        return "stream";
    return "compute";
}

} // namespace

using detail::bindOptional;
using detail::phaseOf;

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

void ProfileWriter::commit() {
    impl_->session.countRows(impl_->runSteps.flush());
    impl_->session.commit();
}

void ProfileWriter::close() {
    auto& im = *impl_;
    if (im.run)
        im.misuse("close() while a run is open");
    im.session.close();
}

} // namespace tilescope::report
