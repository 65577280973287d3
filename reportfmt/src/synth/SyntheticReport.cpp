#include "tilescope/report/SyntheticReport.hpp"

#include "SyntheticHostTrace.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ProfileWriter.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <random>
#include <stdexcept>

namespace tilescope::report {
namespace {
// Tiles per die column, as the simulator's Mk1 and Mk2 targets model them.
constexpr std::uint32_t kTilesPerColumn = 32;

// The generated program is a sequence of layers. Each layer works on a contiguous range of tiles
// and lowers to groups of (OnTileExecute, DoExchange or GlobalExchange, Sync) steps; the first and
// last layers also stream data from and to the host. Temporaries of a layer are live only inside
// it, weights are always live. Memory per category is scaled to a budget (a fraction of a tile) so
// the layout looks like a real program that fits, unless an out-of-memory report was asked for.

using Runs = std::vector<TileSeries::Run>;

struct TileRange {
    std::uint64_t first = 0;
    std::uint64_t count = 0;
};

/// Runs of a range holding `value`, with a lighter last tile as linear mappings produce.
Runs rangeRuns(TileRange r, std::uint64_t tiles, std::uint64_t value, std::uint64_t lastValue) {
    Runs runs;
    runs.push_back({r.first, 0});
    if (r.count > 1)
        runs.push_back({r.count - 1, value});
    runs.push_back({1, r.count ? lastValue : 0});
    runs.push_back({tiles - r.first - r.count, 0});
    return runs;
}

/// Difference array: O(1) range adds, one pass to materialise.
struct RangeAccumulator {
    std::vector<std::int64_t> diff;
    explicit RangeAccumulator(std::uint64_t n) : diff(n + 1, 0) {}
    void add(TileRange r, std::int64_t v) {
        diff[r.first] += v;
        diff[r.first + r.count] -= v;
    }
    PerTile values() const {
        PerTile out(diff.size() - 1);
        std::int64_t acc = 0;
        for (std::size_t i = 0; i + 1 < diff.size(); ++i) {
            acc += diff[i];
            out[i] = static_cast<std::uint64_t>(std::max<std::int64_t>(0, acc));
        }
        return out;
    }
};

/// Scales a raw per-tile series so its fullest tile gets `budget` bytes (4-byte aligned).
PerTile scaleTo(const PerTile& raw, double budget) {
    const std::uint64_t peak = raw.empty() ? 0 : *std::max_element(raw.begin(), raw.end());
    PerTile out(raw.size(), 0);
    if (peak == 0)
        return out;
    const double k = budget / static_cast<double>(peak);
    for (std::size_t i = 0; i < raw.size(); ++i)
        out[i] = static_cast<std::uint64_t>(static_cast<double>(raw[i]) * k) / 4 * 4;
    return out;
}

struct VertexKind {
    const char* name;
    std::uint64_t stateBytes;
    std::uint64_t codeBytes;
};

constexpr std::array<VertexKind, 10> kVertexKinds{{
    {"poplin::ConvPartial1x1Out<half,float,true,false,8>", 48, 2816},
    {"poplin::ReduceAdd<float,half>", 24, 1024},
    {"popops::ScaledAdd2D<half,half,true>", 20, 704},
    {"popops::BroadcastScalar2DData<popops::expr::BinaryOpType::MULTIPLY,half>", 16, 512},
    {"popops::Reduce<popops::ReduceAdd,float,float,false,0>", 28, 1344},
    {"popnn::NonLinearity1D<half,popnn::NonLinearityType::GELU>", 12, 896},
    {"popops::Cast1D<float,half>", 12, 384},
    {"popops::MultiSlice<half,true>", 32, 960},
    {"popnn::SoftmaxStable<half>", 20, 1152},
    {"poplar_rt::DstStridedCopy64BitMultiAccess", 16, 288},
}};

constexpr std::array<const char*, 6> kLayerKinds{
    {"Dense", "Attention", "LayerNorm", "Softmax", "Gelu", "Embedding"}};

// Fractions of a tile's memory given to each category on the fullest tile.
struct Budgets {
    double vertexCode = 0.06, vertexState = 0.04, descriptors = 0.02, fieldData = 0.03;
    double controlCode = 0.05, internalExchange = 0.04, hostExchange = 0.01;
    double globalExchange = 0.01, exchangeBuffers = 0.02, stack = 0.02;
    double alwaysLive = 0.25, notAlwaysLive = 0.15, constants = 0.01, gapFraction = 0.015;
};

struct Layer {
    TileRange tiles;
    std::string name;
    std::int64_t programId = 0;
    std::int64_t firstStep = 0;
    std::int64_t lastStep = 0;
};

/// A variable before scaling: its layer, raw size per tile and (temporaries) live range.
struct PlannedVariable {
    std::size_t layer = 0;
    std::uint64_t raw = 0;
    std::int64_t first = 0, last = 0;
};

struct GeneratedStep {
    std::int64_t id = 0;
    std::string phase;
    std::uint64_t cycles = 0; // slowest tile
    std::uint32_t activeTiles = 0;
    double balance = 1.0;
    std::string perTileBlob;
    PerTile perIpu;
};

void validate(const SyntheticSpec& s) {
    if (s.ipus < 1 || s.ipus > 1024)
        throw std::invalid_argument(fmt::format("--ipus must be 1..1024 (got {})", s.ipus));
    if (s.tilesPerIpu < 1 || s.tilesPerIpu > 65536)
        throw std::invalid_argument(
            fmt::format("--tiles-per-ipu must be 1..65536 (got {})", s.tilesPerIpu));
    if (s.steps < 6)
        throw std::invalid_argument(fmt::format("--steps must be at least 6 (got {})", s.steps));
    if (s.ipuVersion != "ipu1" && s.ipuVersion != "ipu2")
        throw std::invalid_argument("--ipu-version must be ipu1 or ipu2 (got '" + s.ipuVersion +
                                    "')");
    if (s.hostEvents > 0 && s.hostThreads == 0)
        throw std::invalid_argument("--host-threads must be at least 1 when host events are asked");
}

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

class SyntheticReportBuilder {
public:
    SyntheticReportBuilder(const std::filesystem::path& dir, const SyntheticSpec& spec,
                           const std::function<void(double)>& progress)
        : spec_(spec), target_(makeTarget(spec)), tiles_(target_.numTiles()), rng_(spec.seed),
          writer_(dir / "profile.pop"), progress_(progress) {}

    void build() {
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

private:
    std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi) {
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng_);
    }

    void report(double fraction) {
        if (progress_)
            progress_(std::min(1.0, fraction));
    }

    void planLayers() {
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

    void writeVertexTypes() {
        for (const auto& k : kVertexKinds)
            vertexTypeIds_.push_back(writer_.addVertexType({0, k.name, k.stateBytes, k.codeBytes}));
    }

    // Adds one leaf program and its lowered steps; returns the steps' cycles for the runs.
    void addLeaf(Layer& layer, std::int64_t position, const std::string& kind,
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
            vertexState_.add(range,
                             static_cast<std::int64_t>(perTile * kVertexKinds[vt].stateBytes));
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
            s.exchangeBytes =
                mid ? exchangeBytes
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

    void writeSteps() {
        for (std::size_t i = 0; i < pendingSteps_.size(); ++i) {
            StepRecord& s = pendingSteps_[i];
            s.notAlwaysLiveBytes = nalTotal_[i];
            s.maxTileNotAlwaysLiveBytes = nalMaxTile_[i];
            writer_.addStep(s);
        }
        pendingSteps_.clear();
        pendingSteps_.shrink_to_fit();
    }

    void writeProgramsAndSteps() {
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
            report(0.3 * static_cast<double>(spec_.steps - left) /
                   static_cast<double>(spec_.steps));
        }
    }

    void writeVariables() {
        const std::uint64_t wanted = spec_.variables
                                         ? spec_.variables
                                         : std::clamp<std::uint64_t>(spec_.steps / 2, 8, 20000);
        const std::uint64_t alwaysLive = std::max<std::uint64_t>(1, wanted / 4);
        const std::uint64_t temporaries = std::max<std::uint64_t>(1, wanted - alwaysLive);
        const double capacity = static_cast<double>(target_.bytesPerTile);

        // Always-live weights: raw sizes first, then one scale so the fullest tile meets budget.
        using Planned = PlannedVariable;
        std::vector<Planned> weights;
        RangeAccumulator rawWeights(tiles_);
        for (std::uint64_t i = 0; i < alwaysLive; ++i) {
            Planned p{static_cast<std::size_t>(uniform(0, layers_.size() - 1)), uniform(64, 4096)};
            rawWeights.add(layers_[p.layer].tiles, static_cast<std::int64_t>(p.raw));
            weights.push_back(p);
        }
        const PerTile raw = rawWeights.values();
        const double weightScale = budgets_.alwaysLive * capacity /
                                   static_cast<double>(*std::max_element(raw.begin(), raw.end()));
        RangeAccumulator alwaysLiveBytes(tiles_);
        for (std::size_t i = 0; i < weights.size(); ++i) {
            const Layer& L = layers_[weights[i].layer];
            const std::uint64_t perTile = std::max<std::uint64_t>(
                8, static_cast<std::uint64_t>(weights[i].raw * weightScale) / 8 * 8);
            addVariable(fmt::format("{}/weights{}", L.name, i), L.tiles, perTile, true, 0, 0);
            alwaysLiveBytes.add(L.tiles, static_cast<std::int64_t>(perTile));
        }
        if (spec_.outOfMemory) {
            // A deliberately oversized always-live tensor on the first tiles.
            const TileRange over{0, std::min<std::uint64_t>(8, tiles_)};
            const auto perTile = static_cast<std::uint64_t>(0.75 * capacity) / 8 * 8;
            addVariable("oversized/embedding", over, perTile, true, 0, 0);
            alwaysLiveBytes.add(over, static_cast<std::int64_t>(perTile));
        }
        alwaysLive_ = alwaysLiveBytes.values();

        // Temporaries: each lives inside its layer; the layer's peak is found by a sweep over its
        // steps, and one global scale keeps the worst layer within budget.
        std::vector<std::vector<Planned>> byLayer(layers_.size());
        for (std::uint64_t i = 0; i < temporaries; ++i) {
            const auto l = static_cast<std::size_t>(uniform(0, layers_.size() - 1));
            const Layer& L = layers_[l];
            const auto a = static_cast<std::int64_t>(uniform(
                static_cast<std::uint64_t>(L.firstStep), static_cast<std::uint64_t>(L.lastStep)));
            const auto b = static_cast<std::int64_t>(
                uniform(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(L.lastStep)));
            byLayer[l].push_back({l, uniform(64, 2048), a, b});
        }
        std::uint64_t worstRawPeak = 1;
        for (std::size_t l = 0; l < layers_.size(); ++l)
            worstRawPeak = std::max(worstRawPeak, layerPeak(byLayer[l]));
        const double tempScale =
            budgets_.notAlwaysLive * capacity / static_cast<double>(worstRawPeak);

        std::vector<std::uint64_t> liveAtStep(steps_.size(), 0); // per tile, within the layer range
        std::vector<std::uint64_t> layerPeakBytes(layers_.size(), 0);
        for (std::size_t l = 0; l < layers_.size(); ++l) {
            const Layer& L = layers_[l];
            for (auto& p : byLayer[l]) {
                p.raw = std::max<std::uint64_t>(8, static_cast<std::uint64_t>(p.raw * tempScale) /
                                                       8 * 8);
                addVariable(fmt::format("{}/tmp{}", L.name, variableCount_), L.tiles, p.raw, false,
                            p.first, p.last);
                for (std::int64_t s = p.first; s <= p.last; ++s)
                    liveAtStep[static_cast<std::size_t>(s)] += p.raw;
            }
            std::uint64_t peak = 0;
            for (std::int64_t s = L.firstStep; s <= L.lastStep; ++s)
                peak = std::max(peak, liveAtStep[static_cast<std::size_t>(s)]);
            layerPeakBytes[l] = peak;
        }
        // Per-tile peak: the largest layer peak among the layers using the tile.
        notAlwaysLivePeak_.assign(tiles_, 0);
        for (std::size_t l = 0; l < layers_.size(); ++l) {
            const auto& r = layers_[l].tiles;
            for (std::uint64_t t = r.first; t < r.first + r.count; ++t)
                notAlwaysLivePeak_[t] = std::max(notAlwaysLivePeak_[t], layerPeakBytes[l]);
        }
        // Liveness per step now known: rewrite the steps' figures.
        for (std::size_t l = 0; l < layers_.size(); ++l) {
            const Layer& L = layers_[l];
            for (std::int64_t s = L.firstStep; s <= L.lastStep; ++s) {
                const std::uint64_t perTile = liveAtStep[static_cast<std::size_t>(s)];
                nalTotal_.push_back(perTile * L.tiles.count);
                nalMaxTile_.push_back(perTile);
            }
        }
        report(0.45);
    }

    static std::uint64_t layerPeak(const std::vector<PlannedVariable>& vars) {
        std::vector<std::pair<std::int64_t, std::int64_t>> events;
        for (const auto& v : vars) {
            events.push_back({v.first, static_cast<std::int64_t>(v.raw)});
            events.push_back({v.last + 1, -static_cast<std::int64_t>(v.raw)});
        }
        std::sort(events.begin(), events.end());
        std::int64_t cur = 0, peak = 0;
        for (const auto& e : events) {
            cur += e.second;
            peak = std::max(peak, cur);
        }
        return static_cast<std::uint64_t>(peak);
    }

    void addVariable(const std::string& name, TileRange r, std::uint64_t perTile, bool alwaysLive,
                     std::int64_t first, std::int64_t last) {
        VariableRecord v;
        v.name = name;
        v.debugPath = "model/" + name;
        v.elementType = variableCount_ % 3 == 0 ? "float" : "half";
        const std::uint64_t typeSize = v.elementType == "float" ? 4 : 2;
        v.bytes = perTile * r.count;
        v.numElements = v.bytes / typeSize;
        v.categoryId =
            memoryCategoryId(alwaysLive ? "always_live_variables" : "not_always_live_variables");
        v.regionId = 2;
        v.alwaysLive = alwaysLive;
        if (!alwaysLive) {
            v.firstStep = first;
            v.lastStep = last;
        }
        v.perTileEncoded = TileSeries::encodeRuns(rangeRuns(r, tiles_, perTile, perTile));
        writer_.addVariable(v);
        ++variableCount_;
    }

    void writeTileMemory() {
        const double cap = static_cast<double>(target_.bytesPerTile);
        const PerTile vertexCount = vertexCount_.values();
        RangeAccumulator codeRaw(tiles_);
        for (std::size_t vt = 0; vt < kVertexKinds.size(); ++vt) {
            const PerTile present = vertexPresence_[vt].values();
            for (std::uint64_t t = 0; t < tiles_; ++t)
                if (present[t])
                    codeRaw.add({t, 1}, static_cast<std::int64_t>(kVertexKinds[vt].codeBytes));
        }
        PerTile any(tiles_, 0);
        const PerTile cover = layerCover_.values();
        for (std::uint64_t t = 0; t < tiles_; ++t)
            any[t] = cover[t] ? 1 : 0;

        auto scaledByCount = [&](const PerTile& counts, double budget) {
            return scaleTo(counts, budget * cap);
        };
        std::vector<std::pair<std::string, PerTile>> low = {
            {"vertex_code", scaleTo(codeRaw.values(), budgets_.vertexCode * cap)},
            {"vertex_state", scaleTo(vertexState_.values(), budgets_.vertexState * cap)},
            {"vertex_descriptors", scaledByCount(vertexCount, budgets_.descriptors)},
            {"vertex_field_data", scaledByCount(vertexCount, budgets_.fieldData)},
            {"control_code", scaledByCount(cover, budgets_.controlCode)},
            {"internal_exchange_code",
             scaledByCount(internalExchange_.values(), budgets_.internalExchange)},
            {"host_exchange_code", scaledByCount(hostExchange_.values(), budgets_.hostExchange)},
            {"global_exchange_code",
             scaledByCount(globalExchange_.values(), budgets_.globalExchange)},
            {"exchange_buffers", scaledByCount(any, budgets_.exchangeBuffers)},
            {"stack", scaledByCount(any, budgets_.stack)},
        };
        PerTile lowGap(tiles_, 0), highGap(tiles_, 0);
        for (auto& [name, bytes] : low) {
            writer_.setTileMemory(name, "non_interleaved", bytes);
            for (std::uint64_t t = 0; t < tiles_; ++t)
                lowGap[t] += bytes[t];
        }
        const PerTile constants = scaledByCount(any, budgets_.constants);
        writer_.setTileMemory("always_live_variables", "interleaved", alwaysLive_);
        writer_.setTileMemory("not_always_live_variables", "interleaved", notAlwaysLivePeak_);
        writer_.setTileMemory("constants", "interleaved", constants);
        for (std::uint64_t t = 0; t < tiles_; ++t) {
            lowGap[t] =
                static_cast<std::uint64_t>(static_cast<double>(lowGap[t]) * budgets_.gapFraction) /
                4 * 4;
            highGap[t] =
                static_cast<std::uint64_t>(
                    static_cast<double>(alwaysLive_[t] + notAlwaysLivePeak_[t] + constants[t]) *
                    budgets_.gapFraction) /
                4 * 4;
        }
        writer_.setTileMemory("gap", "non_interleaved", lowGap);
        writer_.setTileMemory("gap", "interleaved", highGap);
        report(0.5);
    }

    void writeRuns() {
        const std::int64_t base =
            1'780'000'000'000'000'000; // fixed epoch keeps output deterministic
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
                    report(0.5 +
                           0.4 * (r + static_cast<double>(i) / static_cast<double>(steps_.size())) /
                               spec_.runs);
            }
            hostNs += static_cast<std::int64_t>(static_cast<double>(cycle) * nsPerCycle) + 50'000;
            writer_.endRun(hostNs);
            hostNs += 1'000'000;
        }
    }

    SyntheticSpec spec_;
    TargetInfo target_;
    std::uint64_t tiles_;
    std::mt19937_64 rng_;
    ProfileWriter writer_;
    std::function<void(double)> progress_;
    Budgets budgets_;

    std::vector<Layer> layers_;
    std::vector<std::int64_t> vertexTypeIds_;
    std::vector<StepRecord> pendingSteps_;
    std::vector<GeneratedStep> steps_;
    std::vector<std::uint64_t> nalTotal_, nalMaxTile_;
    PerTile alwaysLive_, notAlwaysLivePeak_;
    std::uint64_t variableCount_ = 0;
    RangeAccumulator vertexState_{tiles_}, vertexCount_{tiles_}, layerCover_{tiles_};
    RangeAccumulator internalExchange_{tiles_}, hostExchange_{tiles_}, globalExchange_{tiles_};
    std::vector<RangeAccumulator> vertexPresence_ =
        std::vector<RangeAccumulator>(kVertexKinds.size(), RangeAccumulator(tiles_));
};

} // namespace

SyntheticOutput generateSyntheticReport(const std::filesystem::path& dir, const SyntheticSpec& spec,
                                        const std::function<void(double)>& progress) {
    validate(spec);
    SyntheticOutput out;
    out.profile = dir / "profile.pop";
    SyntheticReportBuilder(dir, spec, progress).build();
    if (spec.hostEvents > 0) {
        out.hostTrace = dir / "host.pvti";
        writeSyntheticHostTrace(out.hostTrace, spec, progress);
    }
    if (progress)
        progress(1.0);
    return out;
}

} // namespace tilescope::report
