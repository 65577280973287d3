#include "tilescope/report/ProfileReader.hpp"

#include "ProfileReaderDetail.hpp"
#include "VariableRows.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/TileSeries.hpp"
#include "types/TileAllocationCodec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <memory>

namespace tilescope::report {
using detail::collectRows;
using detail::inFile;
using detail::optionalInt;
using detail::scalar;
using detail::u64;

ProfileReader::ProfileReader(const std::string& path) : ProfileReader(ReportFile(path)) {}
ProfileReader::~ProfileReader() = default;
ProfileReader::ProfileReader(ProfileReader&&) noexcept = default;
ProfileReader& ProfileReader::operator=(ProfileReader&& other) noexcept {
    // Member-wise assignment would close this connection before finalizing its statements.
    if (this != &other) {
        std::destroy_at(this);
        std::construct_at(this, std::move(other));
    }
    return *this;
}

ProfileReader::ProfileReader(ReportFile file) : file_(std::move(file)) {
    if (file_.kind() != FileKind::Profile)
        throw ReportError(file_.path(), "is a host trace (.pvti), not a profile report");
    load();
}

void ProfileReader::load() {
    auto& db = file_.database();
    auto t = db.prepare("SELECT type, ipu_version, num_ipus, tiles_per_ipu, bytes_per_tile, "
                        "clock_hz, replicas, worker_contexts, exchange_bytes_per_cycle "
                        "FROM target WHERE id = 1");
    if (!t.step())
        throw ReportError(path(), "report has no target (the writer stopped before "
                                  "compilation started)");
    target_.type = t.text(0);
    target_.ipuVersion = t.text(1);
    const auto numIpus = t.int64(2), tilesPerIpu = t.int64(3);
    if (numIpus < 1 || numIpus > 1024 || tilesPerIpu < 1 || tilesPerIpu > 65536)
        throw ReportError(path(), fmt::format("file is damaged (implausible target: {} IPUs x "
                                              "{} tiles)",
                                              numIpus, tilesPerIpu));
    target_.numIpus = static_cast<std::uint32_t>(numIpus);
    target_.tilesPerIpu = static_cast<std::uint32_t>(tilesPerIpu);
    target_.bytesPerTile = u64(t, 4);
    target_.clockHz = t.real(5);
    target_.replicas = static_cast<std::uint32_t>(t.int64(6));
    target_.workerContexts = static_cast<std::uint32_t>(t.int64(7));
    target_.exchangeBytesPerCycle = static_cast<std::uint32_t>(t.int64(8));
    auto r = db.prepare("SELECT id, name, interleaved, start_offset, size_bytes FROM "
                        "memory_region ORDER BY id");
    while (r.step())
        target_.regions.push_back({r.int64(0), r.text(1), r.int64(2) != 0, u64(r, 3), u64(r, 4)});
    auto c = db.prepare("SELECT id, name, label, grp, liveness FROM memory_category ORDER BY id");
    while (c.step())
        categories_.push_back({c.int64(0), c.text(1), c.text(2), c.text(3), c.text(4)});
    try {
        runLodBase_ = std::max<std::uint64_t>(
            1, std::stoull(file_.metadataValue("run_lod_base_cycles", "4096")));
    } catch (const std::exception&) {
        throw ReportError(path(), "file is damaged (invalid run_lod_base_cycles in metadata)");
    }
    livenessLodBase_ = Schema::kLivenessLodBaseSteps;
}

std::vector<EngineOption> ProfileReader::engineOptions() const {
    std::vector<EngineOption> out;
    auto st = file_.database().prepare(
        "SELECT name, value, source, applies FROM engine_option ORDER BY name");
    while (st.step())
        out.push_back({st.text(0), st.text(1), st.text(2), st.int64(3) != 0});
    return out;
}

ProfileCounts ProfileReader::counts() const {
    auto& db = file_.database();
    ProfileCounts c;
    c.programs = scalar(db, "SELECT coalesce(max(id), 0) FROM program");
    c.steps = scalar(db, "SELECT coalesce(max(id) + 1, 0) FROM step");
    c.computeSets = scalar(db, "SELECT coalesce(max(id), 0) FROM compute_set");
    c.vertexTypes = scalar(db, "SELECT coalesce(max(id), 0) FROM vertex_type");
    c.variables = scalar(db, "SELECT coalesce(max(id), 0) FROM variable");
    c.operations = scalar(db, "SELECT coalesce(max(id), 0) FROM operation");
    c.runs = scalar(db, "SELECT coalesce(max(id), 0) FROM run");
    c.runSteps = scalar(db, "SELECT coalesce(max(id), 0) FROM run_step");
    // The writer stores the total; summing every compute set is the fallback for files written
    // before it did, and it reads the whole table (a remote open would fetch all of it).
    const std::string stored = file_.metadataValue("total_vertices");
    const auto [end, ec] =
        std::from_chars(stored.data(), stored.data() + stored.size(), c.vertices);
    if (stored.empty() || ec != std::errc() || end != stored.data() + stored.size() ||
        c.vertices < 0)
        c.vertices = scalar(db, "SELECT coalesce(sum(num_vertices), 0) FROM compute_set");
    return c;
}

std::string ProfileReader::name(std::int64_t nameId) const {
    auto st = file_.database().prepare("SELECT text FROM name WHERE id = ?");
    return st.bind(1, nameId).step() ? st.text(0) : std::string();
}

std::vector<TileMemoryRow> ProfileReader::tileMemoryTotals() const {
    std::vector<TileMemoryRow> out;
    auto st = file_.database().prepare("SELECT category_id, region_id, total_bytes, "
                                       "max_tile_bytes FROM tile_memory ORDER BY 1, 2");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), u64(st, 2), u64(st, 3)});
    return out;
}

bool ProfileReader::hasTileAllocations() const {
    auto st = file_.database().prepare("SELECT EXISTS(SELECT 1 FROM tile_allocation)");
    return st.step() && st.int64(0) != 0;
}

std::vector<TileAllocation> ProfileReader::tileAllocations(std::uint32_t tile) const {
    auto st = file_.database().prepare("SELECT allocations FROM tile_allocation WHERE tile = ?");
    st.bind(1, std::int64_t{tile});
    if (!st.step())
        return {};
    const auto blob = st.blob(0);
    std::vector<TileAllocation> out;
    inFile(path(), [&] { out = detail::decodeTileAllocations(blob); });
    return out;
}

std::map<std::int64_t, std::string>
ProfileReader::variableNames(const std::vector<std::int64_t>& ids) const {
    std::map<std::int64_t, std::string> out;
    auto st = file_.database().prepare(
        "SELECT n.text FROM variable v JOIN name n ON n.id = v.name_id WHERE v.id = ?");
    for (auto id : ids) {
        if (out.count(id))
            continue;
        st.bind(1, id);
        if (st.step())
            out.emplace(id, st.text(0));
        st.reset();
    }
    return out;
}

TilePlacement ProfileReader::tilePlacement() const {
    TilePlacement p;
    auto st = file_.database().prepare(
        "SELECT die_columns, die_rows, die_x, die_y FROM tile_placement WHERE id = 1");
    if (!st.step())
        return p;
    const auto columns = st.int64(0), rows = st.int64(1);
    if (columns < 1 || rows < 1 || columns > 65536 || rows > 65536)
        throw ReportError(path(), fmt::format("file is damaged (tile placement has a die grid "
                                              "of {} x {} cells)",
                                              columns, rows));
    p.columns = std::uint32_t(columns);
    p.rows = std::uint32_t(rows);
    const auto decode = [&](int column, std::vector<std::uint32_t>& out) {
        const auto b = st.blob(column);
        PerTile v;
        inFile(path(), [&] { v = TileSeries::decode(b.data(), b.size()); });
        out.resize(v.size());
        for (std::size_t i = 0; i < v.size(); ++i)
            out[i] = std::uint32_t(std::min<std::uint64_t>(v[i], UINT32_MAX));
    };
    decode(2, p.x);
    decode(3, p.y);
    if (const std::string problem = p.problem(target_.numIpus, target_.tilesPerIpu);
        !problem.empty())
        throw ReportError(path(), "file is damaged (" + problem + ")");
    return p;
}

PerTile ProfileReader::tileMemory(std::int64_t categoryId, std::int64_t regionId) const {
    auto st = file_.database().prepare(
        "SELECT per_tile FROM tile_memory WHERE category_id = ? AND region_id = ?");
    PerTile out(target_.numTiles(), 0);
    if (st.bind(1, categoryId).bind(2, regionId).step()) {
        std::fill(out.begin(), out.end(), 0);
        const auto b = st.blob(0);
        inFile(path(), [&] { TileSeries::accumulate(b.data(), b.size(), out); });
    }
    return out;
}

PerTile ProfileReader::tileMemoryTotal(bool includeGaps) const {
    const std::int64_t gap = memoryCategoryId("gap");
    auto st = file_.database().prepare("SELECT category_id, per_tile FROM tile_memory");
    PerTile out(target_.numTiles(), 0);
    while (st.step()) {
        if (!includeGaps && st.int64(0) == gap)
            continue;
        const auto b = st.blob(1);
        inFile(path(), [&] { TileSeries::accumulate(b.data(), b.size(), out); });
    }
    return out;
}

std::vector<ControlProgram> ProfileReader::controlPrograms() const {
    std::vector<ControlProgram> out;
    auto st = file_.database().prepare(
        "SELECT c.idx, c.program_id, c.is_function, n.text FROM control_program c "
        "LEFT JOIN name n ON n.id = c.name_id ORDER BY c.is_function, c.idx");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.int64(2) != 0, st.text(3)});
    return out;
}

namespace {

constexpr const char* kProgramColumns =
    "SELECT p.id, p.parent_id, p.position, p.kind, n.text, d.text, p.compute_set_id, "
    "p.repeat_count, p.callee_id, p.code_bytes FROM program p LEFT JOIN name n ON n.id = p.name_id "
    "LEFT JOIN name d ON d.id = p.debug_id ";

ProgramRecord programFrom(const sql::Statement& st) {
    ProgramRecord p;
    p.id = st.int64(0);
    p.parentId = optionalInt(st, 1);
    p.position = st.int64(2);
    p.kind = st.text(3);
    p.name = st.text(4);
    p.debugPath = st.text(5);
    p.computeSetId = optionalInt(st, 6);
    p.repeatCount = optionalInt(st, 7);
    p.calleeId = optionalInt(st, 8);
    p.codeBytes = u64(st, 9);
    return p;
}

} // namespace

std::optional<ProgramRecord> ProfileReader::program(std::int64_t id) const {
    auto st = file_.database().prepare(std::string(kProgramColumns) + "WHERE p.id = ?");
    if (!st.bind(1, id).step())
        return std::nullopt;
    return programFrom(st);
}

std::vector<ProgramRecord> ProfileReader::children(std::optional<std::int64_t> parentId) const {
    std::vector<ProgramRecord> out;
    auto st =
        file_.database().prepare(std::string(kProgramColumns) +
                                 (parentId ? "WHERE p.parent_id = ? ORDER BY p.position"
                                           : "WHERE p.parent_id IS NULL ORDER BY p.position"));
    if (parentId)
        st.bind(1, *parentId);
    while (st.step())
        out.push_back(programFrom(st));
    return out;
}

std::optional<ProgramRecord> ProfileReader::findProgram(const std::string& text,
                                                        std::int64_t afterId) const {
    std::string pattern = "%";
    for (char c : text) {
        if (c == '%' || c == '_' || c == '\\')
            pattern += '\\';
        pattern += c;
    }
    pattern += '%';
    auto st = file_.database().prepare(std::string(kProgramColumns) +
                                       "WHERE p.id > ? AND n.text LIKE ? ESCAPE '\\' "
                                       "ORDER BY p.id LIMIT 1");
    st.bind(1, afterId).bind(2, std::string_view(pattern));
    if (!st.step())
        return std::nullopt;
    return programFrom(st);
}

namespace {

constexpr const char* kStepColumns =
    "SELECT id, program_id, kind, phase, compute_set_id, exchange_bytes, estimated_cycles, "
    "not_always_live_bytes, max_tile_not_always_live_bytes, estimated_per_tile FROM step ";

StepRecord stepFrom(const sql::Statement& st, bool withPerTile) {
    StepRecord s = detail::stepColumnsFrom(st);
    if (withPerTile && !st.isNull(9)) {
        const auto b = st.blob(9);
        s.estimatedPerTile = TileSeries::decode(b.data(), b.size());
    }
    return s;
}

} // namespace

std::vector<StepRecord> ProfileReader::steps(std::int64_t first, std::int64_t count,
                                             bool withPerTile) const {
    std::vector<StepRecord> out;
    auto st = file_.database().prepare(std::string(kStepColumns) +
                                       "WHERE id >= ? AND id < ? ORDER BY id");
    st.bind(1, first).bind(2, first + std::max<std::int64_t>(0, count));
    out = collectRows(path(), st,
                      [&](const sql::Statement& row) { return stepFrom(row, withPerTile); });
    return out;
}

std::vector<StepRecord> ProfileReader::stepsOfProgram(std::int64_t programId) const {
    std::vector<StepRecord> out;
    auto st =
        file_.database().prepare(std::string(kStepColumns) + "WHERE program_id = ? ORDER BY id");
    st.bind(1, programId);
    while (st.step())
        out.push_back(stepFrom(st, false));
    return out;
}

std::vector<std::uint64_t> ProfileReader::stepNotAlwaysLiveBytes(std::int64_t first,
                                                                 std::int64_t count) const {
    std::vector<std::uint64_t> out;
    auto st = file_.database().prepare(
        "SELECT not_always_live_bytes FROM step WHERE id >= ? AND id < ? ORDER BY id");
    st.bind(1, first).bind(2, first + std::max<std::int64_t>(0, count));
    while (st.step())
        out.push_back(u64(st, 0));
    return out;
}

std::vector<LivenessLodRow> ProfileReader::livenessLod(std::int64_t level, std::int64_t firstStep,
                                                       std::int64_t lastStep) const {
    std::vector<LivenessLodRow> out;
    auto st = file_.database().prepare(
        "SELECT level, bucket, first_step, last_step, min_not_always_live_bytes, "
        "max_not_always_live_bytes, max_tile_not_always_live_bytes FROM liveness_lod "
        "WHERE level = ? AND last_step >= ? AND first_step <= ? ORDER BY bucket");
    st.bind(1, level).bind(2, firstStep).bind(3, lastStep);
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.int64(2), st.int64(3), u64(st, 4), u64(st, 5),
                       u64(st, 6)});
    return out;
}

std::int64_t ProfileReader::livenessLodLevelFor(double stepsPerBucket) const {
    auto st = file_.database().prepare("SELECT DISTINCT level FROM liveness_lod ORDER BY level");
    std::int64_t best = -1;
    while (st.step()) {
        const std::int64_t lv = st.int64(0);
        if (static_cast<double>(livenessLodBase_) * std::pow(4.0, static_cast<double>(lv)) <=
            stepsPerBucket)
            best = lv;
    }
    return best;
}

namespace detail {

std::string variableRowQuery(bool withPerTile, const std::string& rest) {
    return std::string("SELECT v.id, n.text, d.text, v.element_type, v.num_elements, v.bytes, "
                       "v.category_id, v.region_id, v.always_live, v.first_step, v.last_step, ") +
           (withPerTile ? "v.per_tile" : "NULL") +
           " FROM variable v LEFT JOIN name n ON n.id = v.name_id "
           "LEFT JOIN name d ON d.id = v.debug_id " +
           rest;
}

VariableRecord variableRowFrom(const sql::Statement& st, bool withPerTile) {
    VariableRecord v;
    v.id = st.int64(0);
    v.name = st.text(1);
    v.debugPath = st.text(2);
    v.elementType = st.text(3);
    v.numElements = u64(st, 4);
    v.bytes = u64(st, 5);
    v.categoryId = st.int64(6);
    v.regionId = st.int64(7);
    v.alwaysLive = st.int64(8) != 0;
    v.firstStep = optionalInt(st, 9);
    v.lastStep = optionalInt(st, 10);
    if (withPerTile) {
        const auto b = st.blob(11);
        v.perTile = TileSeries::decode(b.data(), b.size());
    }
    return v;
}

} // namespace detail

std::vector<VariableRecord> ProfileReader::variablesLiveAt(std::int64_t stepId,
                                                           bool withPerTile) const {
    std::vector<VariableRecord> out;
    auto st = file_.database().prepare(detail::variableRowQuery(
        withPerTile, "WHERE v.first_step <= ?1 AND v.last_step >= ?1 AND v.always_live = 0 "
                     "ORDER BY v.bytes DESC, v.id"));
    st.bind(1, stepId);
    out = collectRows(path(), st, [&](const sql::Statement& row) {
        return detail::variableRowFrom(row, withPerTile);
    });
    return out;
}

PerTile ProfileReader::notAlwaysLiveBytesAt(std::int64_t stepId) const {
    PerTile out(target_.numTiles(), 0);
    auto st = file_.database().prepare(
        "SELECT per_tile FROM variable WHERE first_step <= ?1 AND last_step >= ?1 "
        "AND always_live = 0");
    st.bind(1, stepId);
    inFile(path(), [&] {
        while (st.step()) {
            const auto b = st.blob(0);
            TileSeries::accumulate(b.data(), b.size(), out);
        }
    });
    return out;
}

std::vector<ComputeSetRecord> ProfileReader::computeSets(std::int64_t offset,
                                                         std::int64_t limit) const {
    std::vector<ComputeSetRecord> out;
    auto st = file_.database().prepare(
        "SELECT c.id, n.text, d.text, c.num_vertices FROM compute_set c "
        "LEFT JOIN name n ON n.id = c.name_id LEFT JOIN name d ON d.id = c.debug_id "
        "WHERE c.id > ? ORDER BY c.id LIMIT ?");
    st.bind(1, offset).bind(2, limit);
    while (st.step())
        out.push_back({st.int64(0), st.text(1), st.text(2), u64(st, 3)});
    return out;
}

std::vector<VertexTypeRecord> ProfileReader::vertexTypes() const {
    std::vector<VertexTypeRecord> out;
    auto st = file_.database().prepare("SELECT v.id, n.text, v.state_bytes, v.code_bytes FROM "
                                       "vertex_type v LEFT JOIN name n ON n.id = v.name_id "
                                       "ORDER BY v.id");
    while (st.step())
        out.push_back({st.int64(0), st.text(1), u64(st, 2), u64(st, 3)});
    return out;
}

std::vector<VertexInstancesRecord>
ProfileReader::vertexInstances(std::optional<std::int64_t> computeSetId, bool withPerTile) const {
    std::vector<VertexInstancesRecord> out;
    auto st = file_.database().prepare(
        computeSetId ? "SELECT compute_set_id, vertex_type_id, count, per_tile FROM "
                       "vertex_instances WHERE compute_set_id = ? ORDER BY vertex_type_id"
                     : "SELECT compute_set_id, vertex_type_id, count, per_tile FROM "
                       "vertex_instances ORDER BY compute_set_id, vertex_type_id");
    if (computeSetId)
        st.bind(1, *computeSetId);
    inFile(path(), [&] {
        while (st.step()) {
            VertexInstancesRecord r;
            r.computeSetId = st.int64(0);
            r.vertexTypeId = st.int64(1);
            r.count = u64(st, 2);
            if (withPerTile) {
                const auto b = st.blob(3);
                r.perTile = TileSeries::decode(b.data(), b.size());
            }
            out.push_back(std::move(r));
        }
    });
    return out;
}

std::vector<VariableRecord> ProfileReader::variables(std::int64_t offset, std::int64_t limit,
                                                     bool withPerTile) const {
    std::vector<VariableRecord> out;
    auto st = file_.database().prepare(
        detail::variableRowQuery(withPerTile, "WHERE v.id > ? ORDER BY v.id LIMIT ?"));
    st.bind(1, offset).bind(2, limit);
    out = collectRows(path(), st, [&](const sql::Statement& row) {
        return detail::variableRowFrom(row, withPerTile);
    });
    return out;
}

std::vector<VariableRecord> ProfileReader::largestAlwaysLiveVariables(std::int64_t limit) const {
    std::vector<VariableRecord> out;
    auto st = file_.database().prepare(
        detail::variableRowQuery(false, "WHERE v.always_live = 1 ORDER BY v.bytes DESC LIMIT ?"));
    st.bind(1, limit);
    while (st.step())
        out.push_back(detail::variableRowFrom(st, false));
    return out;
}

std::vector<OperationRecord> ProfileReader::operations(std::int64_t offset,
                                                       std::int64_t limit) const {
    std::vector<OperationRecord> out;
    auto& db = file_.database();
    auto st =
        db.prepare(std::string(detail::kOperationColumns) + "WHERE o.id > ? ORDER BY o.id LIMIT ?");
    auto progs = db.prepare("SELECT program_id FROM operation_program WHERE operation_id = ?");
    auto vars = db.prepare("SELECT variable_id FROM operation_variable WHERE operation_id = ?");
    st.bind(1, offset).bind(2, limit);
    while (st.step()) {
        OperationRecord o = detail::operationColumnsFrom(st);
        progs.bind(1, o.id);
        while (progs.step())
            o.programIds.push_back(progs.int64(0));
        progs.reset();
        vars.bind(1, o.id);
        while (vars.step())
            o.variableIds.push_back(vars.int64(0));
        vars.reset();
        out.push_back(std::move(o));
    }
    return out;
}

} // namespace tilescope::report
