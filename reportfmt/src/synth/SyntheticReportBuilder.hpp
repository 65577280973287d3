#pragma once
// The builder of a synthetic report and the plan it works from (SyntheticReport.cpp): programs,
// steps and runs in SyntheticReportBuilder.cpp, variables and tile memory in
// SyntheticReportMemory.cpp.

#include "tilescope/report/ProfileWriter.hpp"
#include "tilescope/report/SyntheticReport.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <algorithm>
#include <array>
#include <random>

namespace tilescope::report::synthetic {

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
Runs rangeRuns(TileRange r, std::uint64_t tiles, std::uint64_t value, std::uint64_t lastValue);

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

struct VertexKind {
    const char* name;
    std::uint64_t stateBytes;
    std::uint64_t codeBytes;
};

inline constexpr std::array<VertexKind, 10> kVertexKinds{{
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

inline constexpr std::array<const char*, 6> kLayerKinds{
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

/// Writes one synthetic report: plans the layers, then writes programs and steps, variables,
/// tile memory and runs, reporting its progress as it goes.
class SyntheticReportBuilder {
public:
    SyntheticReportBuilder(const std::filesystem::path& dir, const SyntheticSpec& spec,
                           const std::function<void(double)>& progress);

    void build();

private:
    std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi);
    void report(double fraction);

    // Programs, steps and runs (SyntheticReportBuilder.cpp).
    void planLayers();
    void writeVertexTypes();
    // Adds one leaf program and its lowered steps; returns the steps' cycles for the runs.
    void addLeaf(Layer& layer, std::int64_t position, const std::string& kind, std::uint64_t& left);
    void writeSteps();
    void writeProgramsAndSteps();
    void writeRuns();

    // Variables and tile memory (SyntheticReportMemory.cpp).
    void writeVariables();
    static std::uint64_t layerPeak(const std::vector<PlannedVariable>& vars);
    void addVariable(const std::string& name, TileRange r, std::uint64_t perTile, bool alwaysLive,
                     std::int64_t first, std::int64_t last);
    void writeTileMemory();

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

} // namespace tilescope::report::synthetic
