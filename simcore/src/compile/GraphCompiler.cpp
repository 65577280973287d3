#include "tilescope/sim/GraphCompiler.hpp"

#include "OperationRecords.hpp"
#include "VertexRecords.hpp"
#include "poplar/exceptions.hpp"
#include "pvti/pvti.hpp"
#include "tilescope/sim/LivenessAnalysis.hpp"
#include "tilescope/sim/ProgramLowering.hpp"
#include "tilescope/sim/TileMemoryLayout.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <set>
#include <tuple>

namespace tilescope::sim {

using capture::CompileRecords;
using capture::MemoryCategory;
using capture::PerTile;

namespace {

// The compiler's passes on the host trace (pvti), inside the Engine's "compile" event.
pvti::TraceChannel compileChannel = {"poplar"};

/// The pass under way on the host trace: next() ends it and begins the following one.
class CompilePhase {
public:
    explicit CompilePhase(const char* label) : label_(label) {
        pvti::Tracepoint::begin(&compileChannel, label_);
    }
    ~CompilePhase() { pvti::Tracepoint::end(&compileChannel, label_); }
    CompilePhase(const CompilePhase&) = delete;
    CompilePhase& operator=(const CompilePhase&) = delete;
    void next(const char* label) {
        pvti::Tracepoint::end(&compileChannel, label_);
        label_ = label;
        pvti::Tracepoint::begin(&compileChannel, label_);
    }

private:
    const char* label_;
};

std::int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string vertexName(const GraphModel& m, std::uint32_t id) {
    const auto& v = m.vertices[id];
    return "vertex " + std::to_string(id) + " of type '" + m.vertexTypes.at(v.type).name +
           "' in compute set '" + m.computeSets[v.computeSet].name + "'";
}

void checkMappings(const GraphModel& m) {
    for (const auto& var : m.variables) {
        auto it = std::find(var.tileOf.begin(), var.tileOf.end(), kUnmapped);
        if (it != var.tileOf.end()) {
            const auto unmapped = static_cast<std::size_t>(
                std::count(var.tileOf.begin(), var.tileOf.end(), kUnmapped));
            throw poplar::invalid_tile_mapping(
                std::string(var.isConstant ? "Constant" : "Tensor") + " '" + var.name + "' has " +
                std::to_string(unmapped) + " of its " + std::to_string(var.numElements) +
                " elements not mapped to a tile (first: element " +
                std::to_string(it - var.tileOf.begin()) + "); call Graph::setTileMapping");
        }
    }
    for (std::uint32_t id = 0; id < m.vertices.size(); ++id) {
        const auto& v = m.vertices[id];
        if (v.tile == kUnmapped)
            throw poplar::invalid_tile_mapping(vertexName(m, id) + " is not mapped to a tile; call "
                                                                   "Graph::setTileMapping");
        const auto& type = m.vertexTypes.at(v.type);
        for (std::size_t f = 0; f < type.fields.size(); ++f) {
            const auto& fd = type.fields[f];
            if (!fd.isEdge())
                continue;
            const auto& items = v.fields[f].items;
            if (fd.shape != abi::FieldShape::List && (items.empty() || !items[0]))
                throw poplar::graph_connection_error("Field '" + fd.name + "' of " +
                                                     vertexName(m, id) + " is not connected");
            for (std::size_t i = 0; i < items.size(); ++i)
                if (!items[i])
                    throw poplar::graph_connection_error(
                        "Element " + std::to_string(i) + " of field '" + fd.name + "' of " +
                        vertexName(m, id) + " is not connected (field size " +
                        std::to_string(items.size()) + ")");
        }
    }
}

void checkProgram(const GraphModel& m, const void* identity, const ProgramNode& n,
                  std::set<const ProgramNode*>& seen) {
    if (!seen.insert(&n).second)
        return;
    using capture::ProgramKind;
    if (n.graph && n.graph != identity)
        throw poplar::control_program_error("Program '" + n.name +
                                            "' uses a compute set, stream or function of "
                                            "another graph than the Engine's");
    if (n.kind == ProgramKind::StreamCopy &&
        n.stream >= (n.remote ? m.remoteBuffers.size() : m.streams.size()))
        throw poplar::control_program_error("Program '" + n.name + "' copies through an unknown " +
                                            (n.remote ? "remote buffer" : "stream"));
    if (n.kind == ProgramKind::Call && n.function >= m.functions.size())
        throw poplar::control_program_error("Call of an unknown function");
    for (const auto* t : {&n.predicate, &n.source, &n.destination, &n.offset, &n.cycleCounter})
        if (*t)
            for (const auto& r : (*t)->ranges)
                if (r.variable >= m.variables.size())
                    throw poplar::control_program_error("Program '" + n.name + "' uses tensor '" +
                                                        (*t)->name + "' of another graph");
    for (const auto& c : n.children)
        checkProgram(m, identity, *c, seen);
    if (n.kind == ProgramKind::Call)
        checkProgram(m, identity, *m.functions[n.function].body, seen);
}

/// Packs not-always-live variables of one tile: variables whose live ranges overlap get disjoint
/// addresses, others may share. Returns the pool size; `offsets` (if given) receives each
/// variable's offset in the pool, in the order given.
using LiveRangeBytes = std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>; // first,last,bytes
std::uint64_t packNotAlwaysLive(const std::vector<LiveRangeBytes>& vars, std::uint64_t alignment,
                                std::vector<std::uint64_t>* offsets = nullptr) {
    std::vector<std::size_t> order(vars.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t ia, std::size_t ib) {
        const auto& a = vars[ia];
        const auto& b = vars[ib];
        return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b)
                                                : std::get<2>(a) > std::get<2>(b);
    });
    struct Placed {
        std::uint32_t first, last;
        std::uint64_t offset, end;
    };
    std::vector<Placed> placed;
    std::uint64_t poolSize = 0;
    if (offsets)
        offsets->assign(vars.size(), 0);
    for (std::size_t i : order) {
        const auto& [first, last, bytes] = vars[i];
        const std::uint64_t size = (bytes + alignment - 1) / alignment * alignment;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> busy;
        for (const auto& p : placed)
            if (p.first <= last && first <= p.last)
                busy.emplace_back(p.offset, p.end);
        std::sort(busy.begin(), busy.end());
        std::uint64_t offset = 0;
        for (const auto& [b, e] : busy) {
            if (offset + size <= b)
                break;
            offset = std::max(offset, e);
        }
        placed.push_back({first, last, offset, offset + size});
        if (offsets)
            (*offsets)[i] = offset;
        // The pool ends at its last byte in use (not the padding after it), so that a tile's
        // memory counted to its highest allocation equals its layout.
        poolSize = std::max(poolSize, offset + bytes);
    }
    return poolSize;
}

/// Where a variable's bytes are: (tile, bytes) for every tile holding some of it.
using VariableTiles = std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>>;

/// Fills the variable records (bytes per tile, liveness) and the not-always-live bytes per step.
VariableTiles recordVariables(const GraphModel& m, const TileMappingRuns& runs,
                              const Liveness& liveness, CompileRecords& rec) {
    const std::uint32_t numTiles = m.target.numTiles();
    for (auto& s : rec.steps)
        s.notAlwaysLiveBytesPerTile.assign(numTiles, 0);
    VariableTiles varTiles(m.variables.size());
    for (std::uint32_t v = 0; v < m.variables.size(); ++v) {
        const auto& var = m.variables[v];
        capture::VariableRecord vr;
        vr.name = var.name;
        vr.elementType = std::string(elementTypeName(var.type));
        vr.shape.assign(var.shape.begin(), var.shape.end());
        vr.numElements = var.numElements;
        vr.elementBytes = elementSize(var.type);
        vr.isConstant = var.isConstant;
        vr.alwaysLive = liveness.alwaysLive[v];
        vr.bytesPerTile.assign(numTiles, 0);
        runs.forEachRun(v, 0, var.numElements,
                        [&](std::uint32_t tile, std::uint64_t begin, std::uint64_t end) {
                            vr.bytesPerTile[tile] += (end - begin) * vr.elementBytes;
                        });
        for (std::uint32_t t = 0; t < numTiles; ++t)
            if (vr.bytesPerTile[t])
                varTiles[v].emplace_back(t, vr.bytesPerTile[t]);
        const auto& live = liveness.liveSteps[v];
        if (!vr.alwaysLive && !live.empty()) {
            vr.firstLiveStep = live.front();
            vr.lastLiveStep = live.back();
            for (auto s : live)
                for (const auto& [t, b] : varTiles[v])
                    rec.steps[s].notAlwaysLiveBytesPerTile[t] += b;
        }
        rec.variables.push_back(std::move(vr));
    }
    return varTiles;
}

/// Adds the exchanges' temporaries as not-always-live variables after the graph's own.
void recordTemporaries(const std::vector<ExchangeTemporary>& temporaries, VariableTiles& varTiles,
                       CompileRecords& rec) {
    for (const auto& tmp : temporaries) {
        capture::VariableRecord vr;
        vr.name = tmp.name;
        vr.elementType = tmp.elementType;
        vr.elementBytes = tmp.elementBytes;
        vr.alwaysLive = false;
        vr.firstLiveStep = tmp.firstStep;
        vr.lastLiveStep = tmp.lastStep;
        vr.bytesPerTile = tmp.bytesPerTile;
        auto& tiles = varTiles.emplace_back();
        std::uint64_t total = 0;
        for (std::uint32_t t = 0; t < tmp.bytesPerTile.size(); ++t)
            if (tmp.bytesPerTile[t]) {
                tiles.emplace_back(t, tmp.bytesPerTile[t]);
                total += tmp.bytesPerTile[t];
                for (auto s = tmp.firstStep; s <= tmp.lastStep; ++s)
                    rec.steps[s].notAlwaysLiveBytesPerTile[t] += tmp.bytesPerTile[t];
            }
        vr.numElements = total / std::max<std::uint32_t>(tmp.elementBytes, 1);
        vr.shape = {vr.numElements};
        rec.variables.push_back(std::move(vr));
    }
}

/// What the vertices require of the variables their edges connect to: the alignment (bytes) and
/// whether the data must lie in interleaved memory (Vector<T, Layout, MinAlign, Interleaved>, as
/// PopLibs declares the AMP vertices' partials). Indexed by graph variable.
struct VariableConstraints {
    std::vector<std::uint32_t> alignment;
    std::vector<bool> interleaved;
};

VariableConstraints variableConstraints(const GraphModel& m) {
    VariableConstraints c;
    c.alignment.assign(m.variables.size(), 0);
    c.interleaved.assign(m.variables.size(), false);
    for (const auto& v : m.vertices) {
        const auto& type = m.vertexTypes.at(v.type);
        for (std::size_t f = 0; f < type.fields.size() && f < v.fields.size(); ++f) {
            const auto& field = type.fields[f];
            if (!field.isEdge() || (!field.interleaved && field.minAlign == 0))
                continue;
            for (const auto& item : v.fields[f].items) {
                if (!item)
                    continue;
                std::uint32_t last = UINT32_MAX; // a view's ranges mostly repeat one variable
                for (const auto& r : item->ranges) {
                    if (r.variable == last)
                        continue;
                    last = r.variable;
                    c.alignment[r.variable] = std::max(c.alignment[r.variable], field.minAlign);
                    if (field.interleaved)
                        c.interleaved[r.variable] = true;
                }
            }
        }
    }
    return c;
}

/// Lays out every tile's memory, fills the memory records, each variable's region and address
/// on each tile, the tile memory map and the list of tiles out of memory.
void layoutTiles(const GraphModel& m, const CostModel& costs, const TileMemoryLayout& layout,
                 const LoweredCode& code, const VariableTiles& varTiles,
                 const TileVertexData& vertexData, CompileRecords& rec) {
    const bool compileCode = m.target.compileIpuCode;
    const std::uint32_t numTiles = m.target.numTiles();
    const VariableConstraints constraints = variableConstraints(m);
    const auto numGraphVariables = static_cast<std::uint32_t>(m.variables.size());
    const auto wantsInterleaved = [&](std::uint32_t v) {
        return v < numGraphVariables && constraints.interleaved[v];
    };
    const auto alignmentOf = [&](std::uint32_t v) {
        const std::uint64_t wanted = v < numGraphVariables ? constraints.alignment[v] : 0;
        return std::max<std::uint64_t>(costs.variableAlignment, wanted);
    };
    // The tile holding most of each variable decides the region reported for it.
    // Graph variables first, then the exchanges' temporaries (not always live). Not-always-live
    // parts go to one of two pools per tile: the interleaved one (their vertices require it) and
    // the other; within a pool, parts whose live ranges do not overlap share addresses.
    const auto numVariables = static_cast<std::uint32_t>(rec.variables.size());
    std::vector<std::uint32_t> mainTile(numVariables, 0);
    struct Pool {
        std::vector<LiveRangeBytes> ranges;
        std::vector<std::uint32_t> variables;
        std::uint64_t alignment = 1;
    };
    std::vector<std::array<Pool, 2>> pools(numTiles);
    std::vector<std::vector<std::uint32_t>> alwaysLiveOnTile(numTiles);
    for (std::uint32_t v = 0; v < numVariables; ++v) {
        const auto& vr = rec.variables[v];
        std::uint64_t most = 0;
        for (const auto& [t, b] : varTiles[v])
            if (b > most) {
                most = b;
                mainTile[v] = t;
            }
        for (const auto& [t, b] : varTiles[v]) {
            if (vr.alwaysLive) {
                alwaysLiveOnTile[t].push_back(v);
            } else if (vr.firstLiveStep >= 0) {
                auto& pool = pools[t][wantsInterleaved(v) ? 1 : 0];
                pool.ranges.emplace_back(static_cast<std::uint32_t>(vr.firstLiveStep),
                                         static_cast<std::uint32_t>(vr.lastLiveStep), b);
                pool.variables.push_back(v);
                pool.alignment = std::max(pool.alignment, alignmentOf(v));
            }
        }
    }

    for (auto& category : rec.memory.bytes)
        for (auto& region : category)
            region.assign(numTiles, 0);
    rec.tileAllocations.assign(numTiles, {});
    const std::uint64_t stack =
        costs.supervisorStackBytes + costs.workerStackBytes * m.target.numWorkerContexts;
    std::vector<TileMemoryItem> items;
    for (std::uint32_t t = 0; t < numTiles; ++t) {
        items.clear();
        const auto codeItem = [&](MemoryCategory c, std::uint64_t b) {
            items.push_back({c, b, costs.codeAlignment, false});
        };
        // Code exists only when IPU code is compiled (IPUModel::compileIPUCode, hardware).
        const std::uint64_t codeScale = compileCode ? 1 : 0;
        codeItem(MemoryCategory::ControlCode, codeScale * code.controlCode[t]);
        codeItem(MemoryCategory::ControlTable, codeScale * code.controlTable[t]);
        for (auto type : vertexData.typesOnTile[t])
            codeItem(MemoryCategory::VertexCode, rec.vertexTypes[type].codeBytes);
        codeItem(MemoryCategory::InternalExchangeCode, codeScale * code.internalExchangeCode[t]);
        codeItem(MemoryCategory::HostExchangeCode, codeScale * code.hostExchangeCode[t]);
        codeItem(MemoryCategory::GlobalExchangeCode, codeScale * code.globalExchangeCode[t]);
        codeItem(MemoryCategory::Instrumentation, code.instrumentation[t]);
        codeItem(MemoryCategory::VertexState, vertexData.memory[t].state);
        codeItem(MemoryCategory::VertexDescriptors, vertexData.memory[t].descriptors);
        codeItem(MemoryCategory::VertexFieldData, vertexData.memory[t].fieldData);
        codeItem(MemoryCategory::CopyDescriptors, code.copyDescriptors[t]);
        codeItem(MemoryCategory::HostExchangePacketHeaders, code.hostPacketHeaders[t]);
        codeItem(MemoryCategory::GlobalExchangePacketHeaders, code.globalPacketHeaders[t]);
        // Stack only where workers or the supervisor run vertices.
        if (!vertexData.typesOnTile[t].empty())
            items.push_back({MemoryCategory::Stack, stack, costs.variableAlignment, false});
        const std::size_t firstVariableItem = items.size();
        for (auto v : alwaysLiveOnTile[t]) {
            const auto bytes = rec.variables[v].bytesPerTile[t];
            items.push_back({rec.variables[v].isConstant ? MemoryCategory::Constants
                                                         : MemoryCategory::AlwaysLiveVariables,
                             bytes, alignmentOf(v), wantsInterleaved(v)});
        }
        const std::size_t firstPoolItem = items.size();
        std::array<std::vector<std::uint64_t>, 2> poolOffsets;
        for (std::size_t p = 0; p < 2; ++p) {
            const auto& pool = pools[t][p];
            const auto size = packNotAlwaysLive(pool.ranges, pool.alignment, &poolOffsets[p]);
            items.push_back(
                {MemoryCategory::NotAlwaysLiveVariables, size, pool.alignment, p == 1, true});
        }
        const auto usage = layout.place(items);

        // The tile memory map and each variable part's address (debug.loweredVarDumpFile).
        auto& allocations = rec.tileAllocations[t];
        for (std::size_t i = 0; i < firstVariableItem; ++i)
            if (items[i].bytes)
                allocations.push_back(
                    {usage.itemStarts[i], items[i].bytes, usage.itemRegions[i], items[i].category});
        for (std::size_t i = 0; i < alwaysLiveOnTile[t].size(); ++i) {
            const auto v = alwaysLiveOnTile[t][i];
            auto& vr = rec.variables[v];
            const auto item = firstVariableItem + i;
            vr.placements.push_back({t, usage.itemStarts[item], vr.bytesPerTile[t]});
            if (vr.bytesPerTile[t])
                allocations.push_back({usage.itemStarts[item], vr.bytesPerTile[t],
                                       usage.itemRegions[item], items[item].category, v});
            if (mainTile[v] == t)
                vr.region = usage.itemRegions[item];
        }
        for (std::size_t p = 0; p < 2; ++p) {
            const auto item = firstPoolItem + p;
            const auto& pool = pools[t][p];
            for (std::size_t i = 0; i < pool.variables.size(); ++i) {
                const auto v = pool.variables[i];
                auto& vr = rec.variables[v];
                const auto address = usage.itemStarts[item] + poolOffsets[p][i];
                vr.placements.push_back({t, address, vr.bytesPerTile[t]});
                if (vr.bytesPerTile[t])
                    allocations.push_back({address, vr.bytesPerTile[t], usage.itemRegions[item],
                                           MemoryCategory::NotAlwaysLiveVariables, v,
                                           vr.firstLiveStep, vr.lastLiveStep});
                if (mainTile[v] == t)
                    vr.region = usage.itemRegions[item];
            }
        }
        std::stable_sort(allocations.begin(), allocations.end(),
                         [](const auto& a, const auto& b) { return a.address < b.address; });
        for (std::size_t c = 0; c < capture::kNumMemoryCategories; ++c)
            for (std::size_t r = 0; r < capture::kNumMemoryRegions; ++r)
                rec.memory.bytes[c][r][t] = usage.bytes[c][r];
        if (usage.total > m.target.bytesPerTile || usage.overflow > 0)
            rec.tilesOutOfMemory.push_back(t);
    }
}

} // namespace

std::unique_ptr<CompiledGraph> GraphCompiler::compile(std::shared_ptr<const GraphModel> modelPtr,
                                                      const std::vector<ProgramNodePtr>& programs,
                                                      const CompileOptions& options) {
    const GraphModel& m = *modelPtr;
    const auto& costs = options.costs;
    auto out = std::make_unique<CompiledGraph>();
    out->model = modelPtr;
    auto& rec = out->records;
    rec.compileStartNs = nowNs();
    const auto& target = m.target;
    const TileMemoryLayout layout(target);
    rec.target.type = target.deviceType;
    rec.target.architecture = target.architecture;
    rec.target.numIpus = target.numIpus;
    rec.target.replicas = std::max(1u, m.replicationFactor);
    rec.target.tilesPerIpu = target.tilesPerIpu;
    rec.target.bytesPerTile = target.bytesPerTile;
    rec.target.workerContexts = target.numWorkerContexts;
    rec.target.exchangeBytesPerCycle = target.exchangeBytesPerCycle;
    rec.target.clockHz = target.tileClockHz;
    rec.target.regions = layout.regions();
    rec.target.placement = report::TilePlacement::spineColumns(target.numIpus, target.tilesPerIpu,
                                                               target.tilesPerColumn);

    CompilePhase phase("compile: checks");
    checkMappings(m);
    std::set<const ProgramNode*> seen;
    for (const auto& p : programs)
        checkProgram(m, options.graphIdentity ? options.graphIdentity : &m, *p, seen);

    phase.next("compile: lowering");
    // Vertices of each compute set grouped by tile, in tile then vertex order.
    out->computeSetGroups.resize(m.computeSets.size());
    for (std::uint32_t cs = 0; cs < m.computeSets.size(); ++cs) {
        std::vector<std::uint32_t> ids = m.computeSets[cs].vertices;
        std::stable_sort(ids.begin(), ids.end(),
                         [&](auto a, auto b) { return m.vertices[a].tile < m.vertices[b].tile; });
        auto& groups = out->computeSetGroups[cs];
        for (auto id : ids) {
            const auto tile = static_cast<std::uint32_t>(m.vertices[id].tile);
            if (groups.empty() || groups.back().tile != tile)
                groups.push_back({tile, {}});
            groups.back().vertices.push_back(id);
        }
        rec.computeSets.push_back({m.computeSets[cs].name, m.computeSets[cs].vertices.size()});
    }

    ProgramLowering lowering(m, costs, options.instrument, *out);
    for (const auto& p : programs)
        lowering.lowerEntryPoint(p);
    phase.next("compile: liveness");
    const Liveness liveness = LivenessAnalysis::run(m, lowering);

    phase.next("compile: records");
    auto varTiles = recordVariables(m, lowering.tileMappingRuns(), liveness, rec);
    recordOperations(m, lowering, rec);
    recordTemporaries(lowering.temporaries(), varTiles, rec);
    rec.ipuCodeCompiled = target.compileIpuCode;
    if (!rec.ipuCodeCompiled) // no code was generated, so no program carries any
        for (auto& p : rec.programs)
            std::fill(p.codeBytesPerTile.begin(), p.codeBytesPerTile.end(), 0);
    for (const auto& [node, record] : lowering.programRecords())
        out->recordOfNode[node] = record;
    const auto vertexData = recordVertices(m, costs, lowering.onTileCopySets(), rec);
    phase.next("compile: memory layout");
    if (options.blocks.enabled()) {
        // The block buffers and edge code exist only on the tiles that record blocks.
        LoweredCode code = lowering.code();
        const auto blocks = BlockRecorder(*out, options.blocks).memory();
        for (std::uint32_t t = 0; t < target.numTiles(); ++t) {
            code.instrumentation[t] += blocks.bufferBytes[t];
            code.controlCode[t] += blocks.edgeCodeBytes[t];
        }
        layoutTiles(m, costs, layout, code, varTiles, vertexData, rec);
    } else {
        layoutTiles(m, costs, layout, lowering.code(), varTiles, vertexData, rec);
    }
    rec.compileEndNs = nowNs();
    return out;
}

} // namespace tilescope::sim
