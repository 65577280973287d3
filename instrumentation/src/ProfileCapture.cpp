#include "tilescope/capture/ProfileCapture.hpp"

#include "tilescope/capture/PoplibsOptionDefaults.hpp"
#include "tilescope/capture/TraceOptions.hpp"
#include "tilescope/report/ProfileWriter.hpp"
#include "tilescope/report/SweepMetadata.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <unordered_map>

namespace tilescope::capture {
namespace {

static_assert(static_cast<int>(BlockKind::Overflow) ==
                      static_cast<int>(report::BlockKind::Overflow) &&
                  kNumBlockKinds == report::kNumBlockKinds,
              "the capture and report block kinds share their numbering");

std::uint64_t sum(const PerTile& v) {
    return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
}
std::uint64_t maxOf(const PerTile& v) {
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

report::TargetInfo targetOf(const TargetRecord& t) {
    report::TargetInfo out;
    out.type = t.type;
    out.ipuVersion = t.architecture;
    out.numIpus = t.numIpus;
    out.tilesPerIpu = t.tilesPerIpu;
    out.replicas = t.replicas;
    out.bytesPerTile = t.bytesPerTile;
    out.clockHz = t.clockHz;
    out.workerContexts = t.workerContexts;
    out.exchangeBytesPerCycle = t.exchangeBytesPerCycle;
    std::int64_t id = 1;
    for (const auto& r : t.regions)
        out.regions.push_back({id++, std::string(memoryRegionName(r.kind)),
                               r.kind == MemoryRegionKind::Interleaved, r.startOffset,
                               r.sizeBytes});
    return out;
}

/// How the run was configured from outside the program: a sweep's variant (set by
/// `tilescope-cli sweep`) and TILESCOPE_POPLIBS_OPTIONS, so that a report says what it measured.
void writeEnvironmentMetadata(report::ProfileWriter& w) {
    if (const char* variant = std::getenv("TILESCOPE_SWEEP_VARIANT"); variant && *variant)
        w.setMetadata(report::kSweepVariantKey, variant);
    if (const char* settings = std::getenv("TILESCOPE_SWEEP_SETTINGS"); settings && *settings)
        w.setMetadata(report::kSweepSettingsKey, settings);
    try {
        const auto defaults = PoplibsOptionDefaults::fromEnvironment();
        if (!defaults.empty())
            w.setMetadata(report::kPoplibsOptionDefaultsKey, defaults.toJson());
    } catch (const OptionsError&) {
        // The operations that read it refuse it with the reason; the report keeps the raw text.
        w.setMetadata(report::kPoplibsOptionDefaultsKey, std::getenv(kPoplibsOptionsVariable));
    }
}

} // namespace

struct ProfileCapture::Writer {
    report::ProfileWriter out;
    std::unordered_map<std::string, std::int64_t> regionIds;
    explicit Writer(const std::filesystem::path& file) : out(file) {}
};

ProfileCapture::ProfileCapture(ProfileCaptureSettings settings) : settings_(std::move(settings)) {
    writer_ = std::make_unique<Writer>(settings_.file);
    auto& w = writer_->out;
    w.setMetadata("engine_name", settings_.engineName);
    w.setMetadata("command_line", settings_.commandLine);
    if (!settings_.poplarVersion.empty())
        w.setMetadata("poplar_version", settings_.poplarVersion);
    w.setMetadata("runs_total", "0");
    writeEnvironmentMetadata(w);
    w.setEngineOptions(settings_.options);
    w.commit();
}

ProfileCapture::~ProfileCapture() {
    try {
        close();
    } catch (...) { // the committed profile stays; never throw from a destructor
    }
}

void ProfileCapture::writeCompilation(const CompileRecords& r) {
    auto& w = writer_->out;
    const report::TargetInfo target = targetOf(r.target);
    w.setTarget(target);
    if (!r.target.placement.empty())
        w.setTilePlacement(r.target.placement);
    for (const auto& region : target.regions)
        writer_->regionIds[region.name] = region.id;
    tilesPerIpu_ = r.target.tilesPerIpu;
    numIpus_ = r.target.numIpus;

    for (std::size_t c = 0; c < kNumMemoryCategories; ++c)
        for (const auto& region : r.target.regions) {
            const PerTile& bytes = r.memory.of(static_cast<MemoryCategory>(c), region.kind);
            if (!bytes.empty())
                w.setTileMemory(memoryCategoryName(static_cast<MemoryCategory>(c)),
                                memoryRegionName(region.kind), bytes);
        }
    if (!r.tilesOutOfMemory.empty()) {
        std::string tiles;
        for (auto t : r.tilesOutOfMemory)
            tiles += (tiles.empty() ? "" : ",") + std::to_string(t);
        w.setMetadata("tiles_out_of_memory", tiles);
    }
    w.setMetadata("num_edges", std::to_string(r.numEdges));
    w.setMetadata("ipu_code_compiled", r.ipuCodeCompiled ? "true" : "false");
    if (r.compileEndNs > r.compileStartNs)
        w.setMetadata("compile_ns", std::to_string(r.compileEndNs - r.compileStartNs));

    if (settings_.graphProfile) {
        std::vector<std::int64_t> computeSetIds;
        for (const auto& cs : r.computeSets)
            computeSetIds.push_back(w.addComputeSet({0, cs.name, "", cs.numVertices}));
        std::vector<std::int64_t> vertexTypeIds;
        for (const auto& vt : r.vertexTypes)
            vertexTypeIds.push_back(w.addVertexType({0, vt.name, vt.stateBytes, vt.codeBytes}));
        for (const auto& vi : r.vertexInstances) {
            if (vi.computeSet >= computeSetIds.size() || vi.vertexType >= vertexTypeIds.size())
                continue; // the records refer to a set or type they do not list: nothing to link
            report::VertexInstancesRecord rec;
            rec.computeSetId = computeSetIds[vi.computeSet];
            rec.vertexTypeId = vertexTypeIds[vi.vertexType];
            rec.count = vi.count;
            rec.perTile = vi.perTile;
            w.addVertexInstances(rec);
        }

        // Programs: functions first (Call nodes refer to them), then entry points; each tree
        // depth-first so parents get their ids before their children.
        std::vector<std::int64_t> programIds(r.programs.size(), -1);
        std::vector<std::int64_t> functionRoots(r.functions.size(), -1);
        std::function<std::int64_t(std::uint32_t, std::optional<std::int64_t>, std::int64_t)> add =
            [&](std::uint32_t node, std::optional<std::int64_t> parent, std::int64_t position) {
                const ProgramNodeRecord& p = r.programs.at(node);
                report::ProgramRecord rec;
                rec.parentId = parent;
                rec.position = position;
                rec.kind = std::string(programKindName(p.kind));
                rec.name = p.name;
                if (p.computeSet >= 0 &&
                    static_cast<std::size_t>(p.computeSet) < computeSetIds.size())
                    rec.computeSetId = computeSetIds[static_cast<std::size_t>(p.computeSet)];
                if (p.repeatCount >= 0)
                    rec.repeatCount = p.repeatCount;
                if (p.callee >= 0 && static_cast<std::size_t>(p.callee) < functionRoots.size() &&
                    functionRoots[static_cast<std::size_t>(p.callee)] >= 0)
                    rec.calleeId = functionRoots[static_cast<std::size_t>(p.callee)];
                rec.codeBytes = sum(p.codeBytesPerTile);
                rec.codePerTile = p.codeBytesPerTile;
                const std::int64_t id = w.addProgram(rec);
                if (programIds[node] < 0)
                    programIds[node] = id;
                std::int64_t childPosition = 0;
                for (auto child : p.children)
                    add(child, id, childPosition++);
                return id;
            };
        // control_program.idx is unique across both kinds: entry points keep their
        // Engine::run index, functions are numbered after them.
        const auto numEntryPoints = static_cast<std::int64_t>(r.entryPoints.size());
        for (std::size_t f = 0; f < r.functions.size(); ++f) {
            functionRoots[f] = add(r.functions[f].program, std::nullopt, 0);
            w.addControlProgram({numEntryPoints + static_cast<std::int64_t>(f), functionRoots[f],
                                 true, r.functions[f].name});
        }
        for (std::size_t e = 0; e < r.entryPoints.size(); ++e)
            w.addControlProgram(
                {static_cast<std::int64_t>(e),
                 add(r.entryPoints[e].program, std::nullopt, static_cast<std::int64_t>(e)), false,
                 r.entryPoints[e].name});

        programIds_ = programIds;
        for (const auto& s : r.steps) {
            report::StepRecord rec;
            rec.programId = s.program < programIds.size() && programIds[s.program] >= 0
                                ? programIds[s.program]
                                : 0;
            rec.kind = std::string(stepKindName(s.kind));
            if (s.computeSet >= 0 && static_cast<std::size_t>(s.computeSet) < computeSetIds.size())
                rec.computeSetId = computeSetIds[static_cast<std::size_t>(s.computeSet)];
            rec.exchangeBytes = sum(s.exchangeBytesPerTile);
            rec.estimatedCycles = maxOf(s.estimatedCyclesPerTile);
            rec.estimatedPerTile = s.estimatedCyclesPerTile;
            rec.notAlwaysLiveBytes = sum(s.notAlwaysLiveBytesPerTile);
            rec.maxTileNotAlwaysLiveBytes = maxOf(s.notAlwaysLiveBytesPerTile);
            w.addStep(rec);
        }

        std::vector<std::int64_t> variableIds;
        const std::vector<VariableRecord> none;
        for (const auto& v : settings_.variables ? r.variables : none) {
            report::VariableRecord rec;
            rec.name = v.name;
            rec.elementType = v.elementType;
            rec.numElements = v.numElements;
            rec.bytes = v.numElements * v.elementBytes;
            const MemoryCategory category = v.isConstant   ? MemoryCategory::Constants
                                            : v.alwaysLive ? MemoryCategory::AlwaysLiveVariables
                                                           : MemoryCategory::NotAlwaysLiveVariables;
            rec.categoryId = report::memoryCategoryId(memoryCategoryName(category));
            const auto region = writer_->regionIds.find(std::string(memoryRegionName(v.region)));
            rec.regionId =
                region != writer_->regionIds.end() ? region->second : target.regions.front().id;
            rec.alwaysLive = v.alwaysLive || v.isConstant;
            if (!rec.alwaysLive && v.firstLiveStep >= 0) {
                rec.firstStep = v.firstLiveStep;
                rec.lastStep = v.lastLiveStep;
            }
            rec.perTile = v.bytesPerTile;
            variableIds.push_back(w.addVariable(rec));
        }

        // The tile memory map: every tile's allocations at their addresses.
        for (std::size_t t = 0; t < r.tileAllocations.size(); ++t) {
            const auto& tileAllocations = r.tileAllocations[t];
            if (tileAllocations.empty())
                continue;
            std::vector<report::TileAllocation> allocations;
            allocations.reserve(tileAllocations.size());
            for (const auto& a : tileAllocations) {
                report::TileAllocation rec;
                rec.address = a.address;
                rec.bytes = a.bytes;
                const auto region =
                    writer_->regionIds.find(std::string(memoryRegionName(a.region)));
                rec.regionId =
                    region != writer_->regionIds.end() ? region->second : target.regions.front().id;
                rec.categoryId = report::memoryCategoryId(memoryCategoryName(a.category));
                if (a.variable >= 0 && static_cast<std::size_t>(a.variable) < variableIds.size())
                    rec.variableId = variableIds[static_cast<std::size_t>(a.variable)];
                if (a.firstLiveStep >= 0) {
                    rec.firstStep = a.firstLiveStep;
                    rec.lastStep = a.lastLiveStep;
                }
                allocations.push_back(rec);
            }
            w.setTileAllocations(static_cast<std::uint32_t>(t), allocations);
        }

        // Operations link to the programs and variables written above; variables are only
        // linked when outputLoweredVars stored them.
        const std::vector<OperationRecord> noOperations;
        for (const auto& op : settings_.debugInfo ? r.operations : noOperations) {
            report::OperationRecord rec;
            rec.name = op.name;
            rec.debugPath = op.debugPath;
            rec.layer = op.layer;
            rec.debugJson = op.debugJson;
            if (settings_.flopEstimates)
                rec.flops = op.flops;
            for (auto p : op.programs)
                if (p < programIds.size() && programIds[p] >= 0)
                    rec.programIds.push_back(programIds[p]);
            for (auto v : op.variables)
                if (v < variableIds.size())
                    rec.variableIds.push_back(variableIds[v]);
            w.addOperation(rec);
        }
    }
    w.finishCompilation(!r.tilesOutOfMemory.empty());
    compiled_ = true;
}

void ProfileCapture::writeRun(const RunRecord& run) {
    ++runsSeen_;
    auto& w = writer_->out;
    w.setMetadata("runs_total", std::to_string(runsSeen_));
    // Lightweight profiling keeps every run's blocks, however many runs are stored in full.
    if (compiled_ && settings_.executionProfile && !run.blocks.empty()) {
        std::vector<report::BlockRecord> blocks;
        blocks.reserve(run.blocks.size());
        for (const auto& b : run.blocks) {
            report::BlockRecord rec;
            rec.tile = b.tile;
            rec.kind = static_cast<report::BlockKind>(b.kind); // the same order, see ProfileBlocks
            if (b.program >= 0 && static_cast<std::size_t>(b.program) < programIds_.size() &&
                programIds_[static_cast<std::size_t>(b.program)] >= 0)
                rec.programId = programIds_[static_cast<std::size_t>(b.program)];
            if (b.step >= 0)
                rec.stepId = b.step;
            rec.cyclesFrom = b.cyclesFrom;
            rec.cyclesTo = b.cyclesTo;
            rec.dropped = b.dropped;
            rec.runStartCycle = run.blockCycleBase;
            blocks.push_back(rec);
        }
        w.addBlocks(static_cast<std::int64_t>(runsSeen_ - 1), blocks);
    }
    if (!compiled_ || !settings_.executionProfile || runsSeen_ > settings_.storedRuns) {
        w.commit();
        return;
    }
    w.beginRun(run.programIndex, run.hostStartNs);
    const bool perTile = settings_.instrumentationLevel != "ipu";
    report::RunStepRecord rec;
    for (const auto& step : run.steps) {
        const auto& cycles = step.perTileCycles();
        rec.stepId = step.step;
        rec.startCycle = step.startCycle;
        rec.cycles = maxOf(cycles);
        rec.perIpu.assign(numIpus_, 0);
        for (std::size_t t = 0; t < cycles.size() && tilesPerIpu_ > 0; ++t) {
            auto& ipu = rec.perIpu[t / tilesPerIpu_];
            ipu = std::max(ipu, cycles[t]);
        }
        rec.perTile = perTile ? cycles : report::PerTile{};
        if (!perTile) {
            std::uint32_t active = 0;
            std::uint64_t total = 0;
            for (auto c : cycles)
                if (c) {
                    ++active;
                    total += c;
                }
            rec.activeTiles = active;
            rec.tileBalance = rec.cycles && active ? static_cast<double>(total) /
                                                         (static_cast<double>(active) * rec.cycles)
                                                   : 1.0;
        }
        w.addRunStep(rec);
    }
    w.endRun(run.hostEndNs, run.totalCycles);
}

void ProfileCapture::close() {
    if (writer_) {
        writer_->out.close();
        writer_.reset();
    }
}

} // namespace tilescope::capture
