#pragma once
// Value types of a profile report, shared by ProfileWriter and ProfileReader. Units: bytes, cycles,
// host nanoseconds since the Unix epoch. Per-tile vectors are indexed by global tile number
// (ipu * tilesPerIpu + tile on that IPU).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::report {

using PerTile = std::vector<std::uint64_t>;

/// One contiguous range of a tile's memory; Mk2 tiles have an interleaved and a non-interleaved
/// region, and vectors that need interleaved access must sit in the former.
struct MemoryRegion {
    std::int64_t id = 0;
    std::string name; // "interleaved", "non_interleaved"
    bool interleaved = false;
    std::uint64_t startOffset = 0;
    std::uint64_t sizeBytes = 0;
};

/// The device a report was compiled for.
struct TargetInfo {
    // IPU_MODEL (IPUModel devices), IPU (hardware), or "IPU (simulated)": a simulated IPU
    // hardware device from DeviceManager (TILESCOPE_SIMULATED_IPUS).
    std::string type = "IPU_MODEL";
    std::string ipuVersion = "ipu2";
    /// IPUs of one replica: a report profiles one replica (its tiles are the report's tiles);
    /// the program ran on numIpus x replicas IPUs.
    std::uint32_t numIpus = 1;
    std::uint32_t tilesPerIpu = 1472;
    std::uint64_t bytesPerTile = 624 * 1024;
    double clockHz = 1.33e9;
    std::uint32_t replicas = 1;
    std::uint32_t workerContexts = 6;
    std::uint32_t exchangeBytesPerCycle = 4;
    std::vector<MemoryRegion> regions;

    /// Tiles of one replica (the report's per-tile figures).
    std::uint32_t numTiles() const { return numIpus * tilesPerIpu; }
    /// Every IPU the program ran on, all replicas together.
    std::uint32_t totalIpus() const { return numIpus * (replicas ? replicas : 1); }
};

/// A memory category of the format. The ids are stable and listed in the README; `grp` groups them
/// for summaries (code, data, exchange, variables, stack, gap) and `liveness` says whether bytes in
/// the category are reserved for the whole program ("always"), only while live ("not_always"), or
/// neither ("none", for gaps).
struct MemoryCategory {
    std::int64_t id = 0;
    std::string name;
    std::string label;
    std::string group;
    std::string liveness;
};

/// The fixed category list (ids 1..N in this order).
const std::vector<MemoryCategory>& standardMemoryCategories();
/// Id of a standard category by name; throws std::out_of_range if unknown.
std::int64_t memoryCategoryId(std::string_view name);

/// Memory of one category in one region over all tiles.
struct TileMemoryRow {
    std::int64_t categoryId = 0;
    std::int64_t regionId = 0;
    std::uint64_t totalBytes = 0;
    std::uint64_t maxTileBytes = 0;
};

/// An engine option and where its value came from ("default", "api", "env"); `applies` is false
/// for options accepted for compatibility that a simulator cannot honour.
struct EngineOption {
    std::string name;
    std::string value;
    std::string source = "api";
    bool applies = true;
};

/// A node of the program tree: control programs (Sequence, Repeat, If, ...) and the programs that
/// lower to BSP steps (Execute, Copy, StreamCopy, Sync, ...).
struct ProgramRecord {
    std::int64_t id = 0; // assigned by the writer
    std::optional<std::int64_t> parentId;
    std::int64_t position = 0; // index among the parent's children
    std::string kind;
    std::string name;
    std::string debugPath;
    std::optional<std::int64_t> computeSetId;
    std::optional<std::int64_t> repeatCount;
    std::optional<std::int64_t> calleeId; // Call: the function's root program
    std::uint64_t codeBytes = 0;
    PerTile codePerTile; // empty when not recorded
};

/// An engine entry point (`Engine::run(index)`) or a function. `index` is unique over both kinds:
/// entry points 0..n-1, then functions n, n+1, ...
struct ControlProgram {
    std::int64_t index = 0;
    std::int64_t programId = 0;
    bool isFunction = false;
    std::string name;
};

/// A lowered BSP step, in program order; its index is the "program step" of liveness charts.
struct StepRecord {
    std::int64_t id = 0; // assigned by the writer: 0, 1, 2, ...
    std::int64_t programId = 0;
    std::string kind;  // OnTileExecute, DoExchange, GlobalExchange, StreamCopyBegin|Mid|End, Sync
    std::string phase; // compute, exchange, sync, stream
    std::optional<std::int64_t> computeSetId;
    std::uint64_t exchangeBytes = 0;
    std::uint64_t estimatedCycles = 0;           // slowest tile
    PerTile estimatedPerTile;                    // empty when not recorded
    std::string estimatedPerTileEncoded;         // writer input alternative: a TileSeries blob
    std::uint64_t notAlwaysLiveBytes = 0;        // summed over tiles
    std::uint64_t maxTileNotAlwaysLiveBytes = 0; // the fullest tile at this step
};

struct ComputeSetRecord {
    std::int64_t id = 0;
    std::string name;
    std::string debugPath;
    std::uint64_t numVertices = 0;
};

struct VertexTypeRecord {
    std::int64_t id = 0;
    std::string name;
    std::uint64_t stateBytes = 0; // per instance
    std::uint64_t codeBytes = 0;  // per tile that holds at least one instance
};

struct VertexInstancesRecord {
    std::int64_t computeSetId = 0;
    std::int64_t vertexTypeId = 0;
    std::uint64_t count = 0;
    PerTile perTile;
    std::string perTileEncoded; // writer input alternative: a TileSeries blob
};

/// A tensor variable after layout. Not-always-live variables carry their live range in step ids
/// (inclusive); always-live ones leave it empty.
struct VariableRecord {
    std::int64_t id = 0;
    std::string name;
    std::string debugPath;
    std::string elementType;
    std::uint64_t numElements = 0;
    std::uint64_t bytes = 0;
    std::int64_t categoryId = 0;
    std::int64_t regionId = 0;
    bool alwaysLive = true;
    std::optional<std::int64_t> firstStep;
    std::optional<std::int64_t> lastStep;
    PerTile perTile;
    std::string perTileEncoded; // writer input alternative: a TileSeries blob
};

/// One object at its address in a tile's memory (the tile memory map, format v6): code or data
/// of a memory category, or part of a variable. Addresses count from the bottom of the tile's
/// memory, as the target's regions do. Not-always-live parts carry their live steps and may share
/// addresses with parts whose steps do not overlap.
struct TileAllocation {
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
    std::int64_t regionId = 0;
    std::int64_t categoryId = 0;
    std::optional<std::int64_t> variableId; ///< the variable table's id
    std::optional<std::int64_t> firstStep;  ///< not-always-live parts: live steps, inclusive
    std::optional<std::int64_t> lastStep;
};

/// A user-level operation (a PopLibs call, a layer) and what it created.
struct OperationRecord {
    std::int64_t id = 0;
    std::string name;
    std::string debugPath;
    std::string layer;
    std::optional<std::uint64_t> flops;
    std::vector<std::int64_t> programIds;
    std::vector<std::int64_t> variableIds;
    /// Debug information (format v5): the DebugInfo's values as a JSON object, e.g.
    /// {"api":"matMul","args":{...},"outputs":{...}} for a PopLibs call; empty when not recorded.
    std::string debugJson;
};

/// One execution of an engine program.
struct RunRecord {
    std::int64_t id = 0;
    std::int64_t programIndex = 0;
    std::int64_t hostStartNs = 0;
    std::optional<std::int64_t> hostEndNs; // empty while the run is being written
    std::int64_t firstRow = 0;
    std::uint64_t numSteps = 0;
    std::uint64_t totalCycles = 0;
};

/// One executed step of a run. `cycles` is the step's duration on the slowest IPU; `perIpu` and
/// `perTile` are stored when the instrumentation level records them.
struct RunStepRecord {
    std::int64_t row = 0; // assigned by the writer
    std::int64_t stepId = 0;
    std::uint64_t startCycle = 0;
    std::uint64_t cycles = 0;
    std::uint32_t activeTiles = 0;
    double tileBalance = 1.0; // mean / max busy cycles over active tiles
    PerTile perIpu;
    PerTile perTile;
    /// Writer input alternative to perTile: a TileSeries blob (then activeTiles and tileBalance
    /// are taken as given).
    std::string perTileEncoded;
};

/// Aggregate of consecutive run steps in one bucket of cycles (level-of-detail pyramid).
struct RunLodRow {
    std::int64_t level = 0;
    std::int64_t bucket = 0;
    std::int64_t firstRow = 0;
    std::uint64_t steps = 0;
    std::uint64_t computeCycles = 0;
    std::uint64_t exchangeCycles = 0;
    std::uint64_t syncCycles = 0;
    std::uint64_t streamCycles = 0;
    std::uint64_t maxStepCycles = 0;
};

} // namespace tilescope::report
