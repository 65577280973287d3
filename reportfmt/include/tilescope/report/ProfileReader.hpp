#pragma once

#include "tilescope/report/ProfileBlocks.hpp"
#include "tilescope/report/ProfileTypes.hpp"
#include "tilescope/report/ReportFile.hpp"
#include "tilescope/report/TilePlacement.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilescope::report {

/// Row counts of the main entities, each read in O(log n) (rowid bounds), never by scanning.
struct ProfileCounts {
    std::int64_t programs = 0;
    std::int64_t steps = 0;
    std::int64_t computeSets = 0;
    std::int64_t vertexTypes = 0;
    std::int64_t vertices = 0;
    std::int64_t variables = 0;
    std::int64_t operations = 0;
    std::int64_t runs = 0;
    std::int64_t runSteps = 0;
};

/// Aggregate of consecutive program steps of the liveness chart (level-of-detail pyramid).
struct LivenessLodRow {
    std::int64_t level = 0;
    std::int64_t bucket = 0; // covers steps [bucket * 4^level * base, (bucket + 1) * ...)
    std::int64_t firstStep = 0;
    std::int64_t lastStep = 0;
    std::uint64_t minNotAlwaysLiveBytes = 0;
    std::uint64_t maxNotAlwaysLiveBytes = 0;
    std::uint64_t maxTileNotAlwaysLiveBytes = 0;
};

/// An executed step as the execution trace draws it: where it starts and ends in the run and the
/// phase of its program step, without the per-IPU and per-tile series.
struct RunStepSpan {
    std::int64_t seq = 0; // position within the run
    std::int64_t stepId = 0;
    std::uint64_t startCycle = 0;
    std::uint64_t cycles = 0;
    double tileBalance = 1.0;
    std::string phase;           // compute, exchange, sync, stream
    std::int64_t programId = -1; // the program lowered to the step (-1: unknown)
};

/// An operation with totals over what it created (its programs' lowered steps and code, its
/// variables), for the Operations view; `operation.programIds`/`variableIds` are left empty.
struct OperationTotals {
    OperationRecord operation;
    std::uint64_t steps = 0;
    std::uint64_t estimatedCycles = 0; // summed over its programs' steps (slowest tile each)
    std::uint64_t codeBytes = 0;       // its programs' code, all tiles
    std::uint64_t variableBytes = 0;   // its variables, all tiles
};

/// A lowered step with the name of the program it was lowered from.
struct NamedStep {
    StepRecord step;
    std::string program;
};

/// One BSP phase of a run, summed over its executed steps (ProfileReader::runPhaseTotals).
/// `tileBusyCycles` counts, per step, active tiles x tile balance x the step's cycles: the cycles
/// the tiles spent working, since the balance is mean / max busy cycles over the active tiles and
/// a step lasts as long as its slowest tile.
struct RunPhaseTotals {
    std::string phase; // compute, exchange, sync, stream
    std::uint64_t steps = 0;
    std::uint64_t cycles = 0;
    double tileBusyCycles = 0;
    double balanceWeightedCycles = 0; // sum of tile balance x cycles
    std::uint64_t exchangeBytes = 0;  // bytes the steps move (stream: to and from the host)
};

/// An executed step with the program that lowered to it, for charts nested by program.
struct RunStepProgram {
    std::int64_t seq = 0;
    std::int64_t stepId = 0;
    std::int64_t programId = 0;
    std::uint64_t startCycle = 0;
    std::uint64_t cycles = 0;
};

/// A run_lod bucket with the program of the first step that starts in it.
struct RunLodProgram {
    std::int64_t bucket = 0;
    std::uint64_t steps = 0;
    std::int64_t programId = 0;
};

/// A bucket of a run's execution-trace pyramid with each IPU's busy cycles in it: run_ipu_lod read
/// beside run_lod (same levels and buckets), for per-IPU rows zoomed out. Each IPU's figure sums
/// its own cycles (RunStepRecord::perIpu) over the steps starting in the bucket.
struct RunIpuLodRow {
    std::int64_t level = 0;
    std::int64_t bucket = 0; // covers cycles [bucket * w, (bucket + 1) * w), w = base * 4^level
    std::uint64_t steps = 0;
    std::vector<std::uint64_t> busyCycles; // one per IPU; empty: the run has no per-IPU cycles
};

/// A program on the path from a root of the program tree, for flame rows.
struct ProgramPathEntry {
    std::int64_t id = 0;
    std::string kind;
    std::string name;
};

/// A program with its parent (-1: a root), for resolving many flame paths a tree level at a time.
struct ProgramNode {
    std::int64_t id = 0;
    std::int64_t parentId = -1;
    std::string kind;
    std::string name;
};

/// A lowered step matched by a step filter (ProfileReader::stepsMatching): its phase and the
/// bytes it moves, so that a run's matching figures need no further lookup per executed step.
struct StepMatch {
    std::int64_t stepId = 0;
    std::string phase;
    std::uint64_t exchangeBytes = 0;
};

/// Vertex instances of one (compute set, vertex type) pair counted on a set of tiles only.
struct VertexInstancesOnTiles {
    std::int64_t computeSetId = 0;
    std::string computeSet;
    std::int64_t vertexTypeId = 0;
    std::uint64_t count = 0;        // instances on the tiles
    std::uint64_t holdingTiles = 0; // tiles among them with at least one instance
};

/// A step that moves data (an exchange or a stream copy) seen from a set of tiles: the tiles
/// among them that take part (estimated cycles in the step) and the slowest one's cycles. The
/// report keeps a step's bytes over all tiles only, not per tile.
struct ExchangeOnTiles {
    NamedStep step;
    std::uint64_t tiles = 0;     // tiles of the set taking part
    std::uint64_t maxCycles = 0; // estimated cycles of the slowest of them
    bool perTileRecorded = true; // false: the step has no per-tile series (tiles unknown)
};

/// A not-always-live variable's live range and its bytes summed per group of tiles (an IPU, or a
/// set of selected tiles).
struct LiveRangeBytes {
    std::int64_t firstStep = 0;
    std::int64_t lastStep = 0;
    std::vector<std::uint64_t> bytesPerGroup;
};

/// Typed, lazy reader of a profile report. Opening validates the file (see ReportFile) and reads
/// the small tables (metadata, target, regions); everything else is read on demand in pages, so
/// memory and open time do not grow with the report. Not thread-safe: use one reader per thread.
/// All failures, including damage found while reading, are ReportErrors naming the file.
class ProfileReader {
public:
    explicit ProfileReader(const std::string& path);
    explicit ProfileReader(ReportFile file);
    ~ProfileReader();
    ProfileReader(ProfileReader&&) noexcept;
    ProfileReader& operator=(ProfileReader&&) noexcept;

    const ReportFile& file() const { return file_; }
    const std::string& path() const { return file_.path(); }
    bool outOfMemory() const { return file_.metadataValue("compile_status") == "out_of_memory"; }
    /// True once the compile profile has been committed.
    bool hasCompilation() const { return !file_.metadataValue("compile_status").empty(); }

    const TargetInfo& target() const { return target_; }
    /// Each tile's cell on its die; empty when the report records none (files before format v4,
    /// or writers that know no placement). Read on demand: a few kilobytes.
    TilePlacement tilePlacement() const;
    std::vector<EngineOption> engineOptions() const;
    const std::vector<MemoryCategory>& memoryCategories() const { return categories_; }
    ProfileCounts counts() const;
    std::string name(std::int64_t nameId) const;

    // Memory per tile.
    std::vector<TileMemoryRow> tileMemoryTotals() const;
    /// Bytes per tile of one category in one region (zeros when the report has no such row).
    PerTile tileMemory(std::int64_t categoryId, std::int64_t regionId) const;
    /// Bytes per tile summed over every category and region, optionally with gaps.
    PerTile tileMemoryTotal(bool includeGaps) const;

    // Program tree.
    std::vector<ControlProgram> controlPrograms() const;
    std::optional<ProgramRecord> program(std::int64_t id) const;
    /// Children in order; `parentId` empty gives the roots.
    std::vector<ProgramRecord> children(std::optional<std::int64_t> parentId) const;
    /// The first program after `afterId` (in id order) whose name contains `text`, ignoring
    /// ASCII case; a scan of the program table, for the app's tree search.
    std::optional<ProgramRecord> findProgram(const std::string& text, std::int64_t afterId) const;

    // Lowered steps and liveness.
    std::vector<StepRecord> steps(std::int64_t first, std::int64_t count,
                                  bool withPerTile = false) const;
    std::vector<StepRecord> stepsOfProgram(std::int64_t programId) const;
    /// Not-always-live bytes (all tiles) of steps [first, first + count), one per step: the
    /// liveness chart's raw series without the per-tile blobs that steps() reads.
    std::vector<std::uint64_t> stepNotAlwaysLiveBytes(std::int64_t first, std::int64_t count) const;
    std::vector<LivenessLodRow> livenessLod(std::int64_t level, std::int64_t firstStep,
                                            std::int64_t lastStep) const;
    /// The coarsest level whose buckets are at most `stepsPerBucket` steps wide (-1: raw steps).
    std::int64_t livenessLodLevelFor(double stepsPerBucket) const;
    std::int64_t livenessLodBase() const { return livenessLodBase_; }
    /// Not-always-live variables live at the step, largest first.
    std::vector<VariableRecord> variablesLiveAt(std::int64_t stepId,
                                                bool withPerTile = false) const;
    /// Not-always-live bytes per tile at the step, from the live ranges.
    PerTile notAlwaysLiveBytesAt(std::int64_t stepId) const;

    // Compute sets, vertices, variables, operations.
    std::vector<ComputeSetRecord> computeSets(std::int64_t offset, std::int64_t limit) const;
    std::vector<VertexTypeRecord> vertexTypes() const;
    std::vector<VertexInstancesRecord> vertexInstances(std::optional<std::int64_t> computeSetId,
                                                       bool withPerTile = false) const;
    /// Instances of every (compute set, vertex type) pair on tiles [first, first + count) of each
    /// range, pairs with none there left out: one scan decoding only the ranges of each blob.
    std::vector<VertexInstancesOnTiles> vertexInstancesOnTiles(
        const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ranges) const;
    std::vector<VariableRecord> variables(std::int64_t offset, std::int64_t limit,
                                          bool withPerTile = false) const;
    /// Always-live variables, largest first.
    std::vector<VariableRecord> largestAlwaysLiveVariables(std::int64_t limit) const;
    std::vector<OperationRecord> operations(std::int64_t offset, std::int64_t limit) const;
    /// The operation with its debug information; throws ReportError when there is none of `id`.
    OperationRecord operation(std::int64_t id) const;
    /// Operations that created program `programId` (innermost last: in id order), with their
    /// debug information; none when the report has no operations (ProfileReaderDebugInfo.cpp).
    std::vector<OperationRecord> operationsOfProgram(std::int64_t programId) const;
    /// Operations that created variable `variableId`, as operationsOfProgram.
    std::vector<OperationRecord> operationsOfVariable(std::int64_t variableId) const;
    /// Operations after id `offset` in id order, at most `limit`, with their totals (one query;
    /// see ProfileReaderOperations.cpp).
    std::vector<OperationTotals> operationTotals(std::int64_t offset, std::int64_t limit) const;
    /// Lowered steps of the operation's programs, in step order.
    std::vector<NamedStep> operationSteps(std::int64_t operationId) const;
    /// Variables the operation created, largest first.
    std::vector<VariableRecord> operationVariables(std::int64_t operationId,
                                                   bool withPerTile = false) const;
    /// Steps that move data (exchange_bytes > 0: exchanges and stream copies), largest first.
    std::vector<NamedStep> largestExchangeSteps(std::int64_t limit) const;
    /// Steps that move data in which tiles [first, first + count) of each range take part, in
    /// step order: one scan decoding only those ranges of each step's per-tile cycles. Steps
    /// without a per-tile series come with perTileRecorded false (they may or may not).
    std::vector<ExchangeOnTiles>
    exchangeStepsOnTiles(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ranges) const;
    /// Variables of every kind, largest first.
    std::vector<VariableRecord> largestVariables(std::int64_t limit) const;

    // Execution.
    std::vector<RunRecord> runs() const;
    /// Steps of a run by position (0-based sequence within the run).
    std::vector<RunStepRecord> runSteps(const RunRecord& run, std::int64_t firstSeq,
                                        std::int64_t count, bool withPerTile = false) const;
    /// Position of the last step starting at or before `cycle` (0 if none), by binary search.
    std::int64_t runStepAtCycle(const RunRecord& run, std::uint64_t cycle) const;
    /// Steps of a run that overlap cycles [fromCycle, toCycle), in order, at most `limit`.
    std::vector<RunStepSpan> runStepSpans(const RunRecord& run, std::uint64_t fromCycle,
                                          std::uint64_t toCycle, std::int64_t limit) const;
    std::vector<RunLodRow> runLod(const RunRecord& run, std::int64_t level, std::uint64_t fromCycle,
                                  std::uint64_t toCycle) const;
    std::uint64_t runLodBaseCycles() const { return runLodBase_; }
    /// Coarsest stored level whose buckets are at most `cyclesPerBucket` wide (-1: raw steps).
    std::int64_t runLodLevelFor(const RunRecord& run, double cyclesPerBucket) const;
    /// The run_lod buckets of a level overlapping cycles [fromCycle, toCycle] with each IPU's busy
    /// cycles from run_ipu_lod (busyCycles empty where the run has none). In files older than v3
    /// the first call for a run computes its buckets from its steps (one scan of the run).
    std::vector<RunIpuLodRow> runIpuLod(const RunRecord& run, std::int64_t level,
                                        std::uint64_t fromCycle, std::uint64_t toCycle) const;

    // Execution analysis (ProfileReaderExecution.cpp).
    /// Totals per phase of a run, one scan of its executed steps without the per-tile series.
    std::vector<RunPhaseTotals> runPhaseTotals(const RunRecord& run) const;
    /// Steps of a run overlapping cycles [fromCycle, toCycle) with their programs, at most `limit`.
    std::vector<RunStepProgram> runStepPrograms(const RunRecord& run, std::uint64_t fromCycle,
                                                std::uint64_t toCycle, std::int64_t limit) const;
    /// run_lod buckets of a level overlapping [fromCycle, toCycle] with their first step's program.
    std::vector<RunLodProgram> runLodPrograms(const RunRecord& run, std::int64_t level,
                                              std::uint64_t fromCycle, std::uint64_t toCycle) const;
    /// The programs from a root down to `programId` (empty if there is no such program).
    std::vector<ProgramPathEntry> programPath(std::int64_t programId) const;
    /// The programs among `ids` that exist, with their parents (one query per 500 ids).
    std::vector<ProgramNode> programNodes(const std::vector<std::int64_t>& ids) const;
    /// Per-tile cycles of steps [firstSeq, firstSeq + count) of a run, only tiles [firstTile,
    /// firstTile + tileCount) of each (decoded without expanding the whole series); one vector
    /// per step in order, empty where the step has no per-tile series.
    std::vector<std::vector<std::uint64_t>>
    runStepTileCycles(const RunRecord& run, std::int64_t firstSeq, std::int64_t count,
                      std::uint32_t firstTile, std::uint32_t tileCount) const;
    /// Cycles of each IPU in steps [firstSeq, firstSeq + count) of a run, only the per-IPU series
    /// decoded; one vector per step in order, empty where the step has none recorded.
    std::vector<std::vector<std::uint64_t>>
    runStepIpuCycles(const RunRecord& run, std::int64_t firstSeq, std::int64_t count) const;
    /// Lowered steps whose program name or step kind contains `text` (ASCII case ignored; empty
    /// matches all) and whose phase is one of `phases` (empty: any), in id order.
    std::vector<StepMatch> stepsMatching(const std::string& text,
                                         const std::vector<std::string>& phases) const;
    /// Every not-always-live variable's live range with its bytes summed per group, where
    /// `groupOfTile[t]` is the group of global tile t (negative: not counted) and groups are
    /// 0..groups-1. Variables with no bytes in any group are left out.
    std::vector<LiveRangeBytes> notAlwaysLiveRangesByGroup(const std::vector<int>& groupOfTile,
                                                           int groups) const;
    /// Always-live bytes per tile: every category whose liveness is "always", in every region.
    PerTile alwaysLiveBytesPerTile() const;

    // Lightweight profiling (ProfileReaderBlocks.cpp); none in files before format v5.
    std::uint64_t numBlocks() const;
    /// Tiles that recorded at least one block, in order.
    std::vector<std::uint32_t> blockTiles() const;
    /// Blocks of one tile (or of all, by tile), by first cycle with enclosing blocks first.
    std::vector<BlockRecord> blocks(std::optional<std::uint32_t> tile = std::nullopt) const;
    /// Blocks of Engine::run call `runIndex` on any tile overlapping run-relative cycles
    /// [fromCycle, toCycle), by tile and first cycle, at most `limit`; each block's program name
    /// in `names` (parallel; the kind's name where there is no program).
    std::vector<BlockRecord> blocksOfRun(std::int64_t runIndex, std::uint64_t fromCycle,
                                         std::uint64_t toCycle, std::int64_t limit,
                                         std::vector<std::string>* names = nullptr) const;
    /// Count, min, mean and max cycles per block kind and program name, over all tiles.
    std::vector<BlockStatistics> blockStatistics() const;

private:
    void load();
    /// A run_step series column (`per_tile` or `per_ipu`) of steps [firstSeq, firstSeq + count),
    /// each blob decoded by `decode`; steps without the series stay empty.
    std::vector<std::vector<std::uint64_t>> runStepSeries(
        const RunRecord& run, std::int64_t firstSeq, std::int64_t count, std::string_view column,
        const std::function<void(const void*, std::size_t, std::vector<std::uint64_t>&)>& decode)
        const;
    /// First and last run_lod bucket of `level` overlapping [fromCycle, toCycle]; nullopt for a
    /// level outside 0..40.
    std::optional<std::pair<std::int64_t, std::int64_t>>
    runLodBuckets(std::int64_t level, std::uint64_t fromCycle, std::uint64_t toCycle) const;

    ReportFile file_;
    TargetInfo target_;
    std::vector<MemoryCategory> categories_;
    std::uint64_t runLodBase_ = 4096;
    std::int64_t livenessLodBase_ = 1;
    // Prepared once per reader, for queries every zoomed frame runs; after file_, so that the
    // statements are finalized before their connection closes.
    struct CachedStatements;
    mutable std::unique_ptr<CachedStatements> cached_;
};

} // namespace tilescope::report
