// A synthetic report's programs, steps and runs: the layers planned over tiles, each lowered to
// groups of steps, and the runs that replay them.

#include "SyntheticReportBuilder.hpp"

#include <fmt/format.h>

namespace tilescope::report::synthetic {
namespace {

// Tiles per die column, as the simulator's Mk1 and Mk2 targets model them.
constexpr std::uint32_t kTilesPerColumn = 32;

TargetInfo makeTarget(const SyntheticSpec& s) {
    TargetInfo t;
    t.type = "IPU_MODEL";
    t.ipuVersion = s.ipuVersion;
    t.numIpus = s.ipus;
    t.tilesPerIpu = s.tilesPerIpu;
    const bool mk2 = s.ipuVersion == "ipu2";
    t.bytesPerTile = mk2 ? 624 * 1024 : 256 * 1024;
    t.clockHz = mk2 ? 1.33e9 : 1.6e9;
    t.workerContexts = 6;
    t.exchangeBytesPerCycle = 4;
    const std::uint64_t nonInterleaved = mk2 ? 192 * 1024 : 96 * 1024;
    t.regions = {{1, "non_interleaved", false, 0, nonInterleaved},
                 {2, "interleaved", true, nonInterleaved, t.bytesPerTile - nonInterleaved}};
    return t;
}

} // namespace

Runs rangeRuns(TileRange r, std::uint64_t tiles, std::uint64_t value, std::uint64_t lastValue) {
    Runs runs;
    runs.push_back({r.first, 0});
    if (r.count > 1)
        runs.push_back({r.count - 1, value});
    runs.push_back({1, r.count ? lastValue : 0});
    runs.push_back({tiles - r.first - r.count, 0});
    return runs;
}

SyntheticReportBuilder::SyntheticReportBuilder(const std::filesystem::path& dir,
                                               const SyntheticSpec& spec,
                                               const std::function<void(double)>& progress)
    : spec_(spec), target_(makeTarget(spec)), tiles_(target_.numTiles()), rng_(spec.seed),
      writer_(dir / "profile.pop"), progress_(progress) {}

void SyntheticReportBuilder::build() {
    writer_.setMetadata("engine_name", "synthetic");
    writer_.setMetadata("command_line",
                        fmt::format("tilescope-cli synth --ipus {} "
                                    "--tiles-per-ipu {} --steps {} --seed {}",
                                    spec_.ipus, spec_.tilesPerIpu, spec_.steps, spec_.seed));
    writer_.setMetadata("poplar_version", "TileScope synthetic 0.1.0");
    writer_.setEngineOptions({{"autoReport.all", "true", "api", true},
                              {"autoReport.directory", "./report", "api", true},
                              {"debug.computeInstrumentationLevel",
                               spec_.perTileCycles ? "tile" : "ipu", "default", true}});
    writer_.setTarget(target_);
    // The floor plan the simulator models, so physical order works on generated reports.
    writer_.setTilePlacement(
        TilePlacement::spineColumns(target_.numIpus, target_.tilesPerIpu, kTilesPerColumn));
    planLayers();
    writeVertexTypes();
    writeProgramsAndSteps();
    writeVariables();
    writeSteps();
    writeTileMemory();
    writer_.finishCompilation(spec_.outOfMemory);
    writeRuns();
    writer_.close();
}

std::uint64_t SyntheticReportBuilder::uniform(std::uint64_t lo, std::uint64_t hi) {
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng_);
}

void SyntheticReportBuilder::report(double fraction) {
    if (progress_)
        progress_(std::min(1.0, fraction));
}

void SyntheticReportBuilder::planLayers() {
    const std::uint64_t stepsPerLayer = std::clamp<std::uint64_t>(spec_.steps / 8, 6, 60);
    const std::uint64_t layers = std::max<std::uint64_t>(1, spec_.steps / stepsPerLayer);
    for (std::uint64_t l = 0; l < layers; ++l) {
        Layer layer;
        const std::uint64_t count = std::max<std::uint64_t>(1, tiles_ * uniform(30, 100) / 100);
        layer.tiles = {uniform(0, tiles_ - count), count};
        layer.name = fmt::format("layer{}/{}", l, kLayerKinds[l % kLayerKinds.size()]);
        layers_.push_back(layer);
    }
}

void SyntheticReportBuilder::writeVertexTypes() {
    for (const auto& k : kVertexKinds)
        vertexTypeIds_.push_back(writer_.addVertexType({0, k.name, k.stateBytes, k.codeBytes}));
}

void SyntheticReportBuilder::addLeaf(Layer& layer, std::int64_t position, const std::string& kind,
                                     std::uint64_t& left) {
    auto& L = layer;
    ProgramRecord p;
    p.parentId = L.programId;
    p.position = position;
    p.kind = kind;
    std::vector<std::string> stepKinds;
    TileRange range = L.tiles;
    std::uint64_t cycles = 0, lastCycles = 0, exchangeBytes = 0;
    if (kind == "Execute") {
        const auto vt = uniform(0, kVertexKinds.size() - 1);
        const std::uint64_t perTile = uniform(1, 6);
        ComputeSetRecord cs{0, fmt::format("{}/cs{}", L.name, position),
                            fmt::format("model/{}/{}", L.name, kVertexKinds[vt].name),
                            perTile * range.count};
        p.computeSetId = writer_.addComputeSet(cs);
        p.name = cs.name;
        VertexInstancesRecord vi;
        vi.computeSetId = *p.computeSetId;
        vi.vertexTypeId = vertexTypeIds_[vt];
        vi.count = cs.numVertices;
        vi.perTileEncoded = TileSeries::encodeRuns(rangeRuns(range, tiles_, perTile, perTile));
        writer_.addVertexInstances(vi);
        vertexState_.add(range, static_cast<std::int64_t>(perTile * kVertexKinds[vt].stateBytes));
        vertexCount_.add(range, static_cast<std::int64_t>(perTile));
        vertexPresence_[vt].add(range, 1);
        cycles = uniform(200, 6000);
        lastCycles = cycles * 6 / 10;
        stepKinds = {"OnTileExecute"};
    } else if (kind == "Copy") {
        const bool global = spec_.ipus > 1 && uniform(0, 9) == 0;
        const std::uint64_t bytes = uniform(16, 1024) * 4;
        exchangeBytes = bytes * range.count;
        cycles = bytes / target_.exchangeBytesPerCycle + (global ? 600 : 30);
        lastCycles = cycles;
        p.name = fmt::format("{}/{}", L.name, global ? "globalExchange" : "exchange");
        stepKinds = {global ? "GlobalExchange" : "DoExchange"};
        (global ? globalExchange_ : internalExchange_).add(range, 1);
    } else if (kind == "Sync") {
        range = {0, tiles_};
        cycles = lastCycles = spec_.ipus > 1 ? 900 : 150;
        p.name = fmt::format("{}/sync", L.name);
        stepKinds = {"Sync"};
    } else { // StreamCopy
        const std::uint64_t bytes = uniform(256, 4096) * 4;
        exchangeBytes = bytes * range.count;
        cycles = lastCycles = bytes / 2 + 2000;
        p.name = fmt::format("{}/hostStream", L.name);
        stepKinds = {"StreamCopyBegin", "StreamCopyMid", "StreamCopyEnd"};
        hostExchange_.add(range, 1);
    }
    p.debugPath = "model/" + p.name;
    const std::int64_t programId = writer_.addProgram(p);
    for (const auto& sk : stepKinds) {
        if (left == 0)
            break;
        --left;
        const bool mid = sk == "StreamCopyMid";
        const std::uint64_t c = sk.starts_with("StreamCopy") && !mid ? 120 : cycles;
        const std::uint64_t cLast = sk.starts_with("StreamCopy") && !mid ? 120 : lastCycles;
        StepRecord s;
        s.programId = programId;
        s.kind = sk;
        s.computeSetId = p.computeSetId;
        s.exchangeBytes = mid ? exchangeBytes
                              : (sk == "DoExchange" || sk == "GlobalExchange" ? exchangeBytes : 0);
        s.estimatedCycles = std::max(c, cLast);
        s.estimatedPerTileEncoded = TileSeries::encodeRuns(rangeRuns(range, tiles_, c, cLast));
        GeneratedStep g;
        g.cycles = s.estimatedCycles;
        g.activeTiles = static_cast<std::uint32_t>(range.count);
        g.balance = range.count ? static_cast<double>(c * (range.count - 1) + cLast) /
                                      static_cast<double>(range.count * g.cycles)
                                : 1.0;
        g.perTileBlob = s.estimatedPerTileEncoded;
        g.perIpu.assign(spec_.ipus, 0);
        for (std::uint64_t t = range.first; t < range.first + range.count;
             t += target_.tilesPerIpu - t % target_.tilesPerIpu)
            g.perIpu[t / target_.tilesPerIpu] = g.cycles;
        // Written once the temporaries' live ranges give the not-always-live figures.
        g.id = static_cast<std::int64_t>(pendingSteps_.size());
        pendingSteps_.push_back(std::move(s));
        steps_.push_back(std::move(g));
    }
}

void SyntheticReportBuilder::writeSteps() {
    for (std::size_t i = 0; i < pendingSteps_.size(); ++i) {
        StepRecord& s = pendingSteps_[i];
        s.notAlwaysLiveBytes = nalTotal_[i];
        s.maxTileNotAlwaysLiveBytes = nalMaxTile_[i];
        writer_.addStep(s);
    }
    pendingSteps_.clear();
    pendingSteps_.shrink_to_fit();
}

void SyntheticReportBuilder::writeProgramsAndSteps() {
    ProgramRecord root;
    root.kind = "Sequence";
    root.name = "main";
    const std::int64_t rootId = writer_.addProgram(root);
    writer_.addControlProgram({0, rootId, false, "main"});
    std::uint64_t left = spec_.steps;
    for (std::size_t l = 0; l < layers_.size() && left > 0; ++l) {
        Layer& layer = layers_[l];
        ProgramRecord seq;
        seq.parentId = rootId;
        seq.position = static_cast<std::int64_t>(l);
        seq.kind = "Sequence";
        seq.name = layer.name;
        seq.debugPath = "model/" + layer.name;
        layer.programId = writer_.addProgram(seq);
        layer.firstStep = static_cast<std::int64_t>(steps_.size());
        const bool lastLayer = l + 1 == layers_.size();
        const std::uint64_t layerSteps =
            lastLayer ? left : std::min(left, spec_.steps / layers_.size());
        std::uint64_t layerLeft = layerSteps;
        // The program streams its input in first and its result out last.
        const std::uint64_t reserve = lastLayer && layerLeft >= 7 ? 3 : 0;
        std::int64_t position = 0;
        if (l == 0 && layerLeft >= reserve + 4)
            addLeaf(layer, position++, "StreamCopy", layerLeft);
        static const char* kPattern[] = {"Execute", "Copy", "Sync"};
        for (std::int64_t k = 0; layerLeft > reserve; ++k)
            addLeaf(layer, position++, kPattern[k % 3], layerLeft);
        if (reserve)
            addLeaf(layer, position++, "StreamCopy", layerLeft);
        left -= layerSteps;
        layer.lastStep = static_cast<std::int64_t>(steps_.size()) - 1;
        layerCover_.add(layer.tiles, 1);
        report(0.3 * static_cast<double>(spec_.steps - left) / static_cast<double>(spec_.steps));
    }
}

void SyntheticReportBuilder::writeRuns() {
    const std::int64_t base = 1'780'000'000'000'000'000; // fixed epoch keeps output deterministic
    std::int64_t hostNs = base;
    const double nsPerCycle = 1e9 / target_.clockHz;
    for (std::uint32_t r = 0; r < spec_.runs; ++r) {
        writer_.beginRun(0, hostNs);
        std::uint64_t cycle = 0;
        RunStepRecord rs;
        for (std::size_t i = 0; i < steps_.size(); ++i) {
            const GeneratedStep& g = steps_[i];
            rs.stepId = static_cast<std::int64_t>(i);
            rs.startCycle = cycle;
            rs.cycles = g.cycles;
            rs.activeTiles = g.activeTiles;
            rs.tileBalance = g.balance;
            rs.perIpu = g.perIpu;
            rs.perTileEncoded = spec_.perTileCycles ? g.perTileBlob : std::string();
            writer_.addRunStep(rs);
            cycle += g.cycles;
            if ((i & 0xffff) == 0)
                report(0.5 + 0.4 *
                                 (r + static_cast<double>(i) / static_cast<double>(steps_.size())) /
                                 spec_.runs);
        }
        hostNs += static_cast<std::int64_t>(static_cast<double>(cycle) * nsPerCycle) + 50'000;
        writer_.endRun(hostNs);
        hostNs += 1'000'000;
    }
}

} // namespace tilescope::report::synthetic
