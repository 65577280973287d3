#pragma once
// The pva-style face of TileScope: reads a profile report (profile.pop) through names that follow
// the public C++ API of Graphcore's PopVision analysis library (libpva), so that analysis code
// written against libpva builds unchanged for the documented subset:
//
//     auto report = pva::openReport("report/profile.pop");
//     report.poplarVersion().string();
//     report.compilation().target().numTiles();
//     report.compilation().graph().numComputeSets();
//     for (const auto& step : report.compilation().livenessProgramSteps())
//         step.notAlwaysLiveMemory().bytes();
//     for (const auto& run : report.execution().runs())
//         for (const auto& step : run.steps())
//             step.cyclesByTile();
//
// It is a thin layer over tilescope::report::ProfileReader: every object holds a shared pointer to
// the open report, so objects stay valid after the Report they came from is gone. Large lists
// (tiles, steps, variables) are read when asked for, never when the report is opened. Like libpva
// objects, these are not thread-safe: use one Report per thread. Failures are pva::error (opening:
// pva::openfile_error) carrying the reader's one-line message ("path: problem").

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pva {

/// Any failure while reading a report through the pva face; `what()` is the underlying
/// tilescope::report::ReportError message, which starts with the file it concerns.
class error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// The report could not be opened: missing, not a report, damaged, or of a newer format version.
class openfile_error : public error {
public:
    using error::error;
};

namespace detail {
struct ReportState;
struct DebugContextAccess;
using StatePtr = std::shared_ptr<ReportState>;
} // namespace detail

/// A "major.minor.point" version. The report's Poplar version is the `poplar_version` metadata
/// written by the capture side when the program was built against a Poplar-compatible API that
/// reports one; otherwise it is the version of the TileScope tools that wrote the report.
class Version {
public:
    Version() = default;
    /// Parses "3.3.0", "3.3.0+1403" or "3.2.0 (fb5f8c9b40)"; missing numbers read as 0.
    explicit Version(std::string text);

    const std::string& string() const { return text_; }
    unsigned major() const { return major_; }
    unsigned minor() const { return minor_; }
    unsigned point() const { return point_; }
    /// Whatever follows the three numbers ("1403", "fb5f8c9b40"), or empty.
    const std::string& packageHash() const { return packageHash_; }

private:
    std::string text_;
    unsigned major_ = 0, minor_ = 0, point_ = 0;
    std::string packageHash_;
};

/// The device the program was compiled for. `numIPUs()` counts every IPU the program uses,
/// replicas included; the per-replica figures divide by `numReplicas()`.
class Target {
public:
    enum class Type { IPU, IPU_MODEL, Unknown };

    Type type() const { return type_; }
    /// The IPU architecture, e.g. "ipu2".
    const std::string& architecture() const { return architecture_; }
    unsigned numIPUs() const { return numIpus_; }
    unsigned tilesPerIPU() const { return tilesPerIpu_; }
    unsigned numTiles() const { return numIpus_ * tilesPerIpu_; }
    std::uint64_t bytesPerTile() const { return bytesPerTile_; }
    std::uint64_t bytesPerIPU() const { return bytesPerTile_ * tilesPerIpu_; }
    std::uint64_t totalMemory() const { return bytesPerIPU() * numIpus_; }
    /// Tile clock in Hz.
    double clockFrequency() const { return clockHz_; }
    unsigned numReplicas() const { return replicas_; }
    unsigned ipusPerReplica() const { return replicas_ ? numIpus_ / replicas_ : numIpus_; }
    unsigned tilesPerReplica() const { return ipusPerReplica() * tilesPerIpu_; }
    unsigned numWorkerContexts() const { return workerContexts_; }
    unsigned exchangeBytesPerCycle() const { return exchangeBytesPerCycle_; }

private:
    friend struct detail::ReportState;
    Type type_ = Type::Unknown;
    std::string architecture_;
    unsigned numIpus_ = 0, tilesPerIpu_ = 0, replicas_ = 1, workerContexts_ = 0;
    unsigned exchangeBytesPerCycle_ = 0;
    std::uint64_t bytesPerTile_ = 0;
    double clockHz_ = 0;
};

/// Sizes of the compiled graph. (libpva's edge count is not recorded by TileScope: no numEdges.)
class Graph {
public:
    std::uint64_t numComputeSets() const { return computeSets_; }
    std::uint64_t numVertices() const { return vertices_; }
    std::uint64_t numVars() const { return variables_; }
    std::uint64_t numVariables() const { return variables_; }
    std::uint64_t numVertexTypes() const { return vertexTypes_; }

private:
    friend class Compilation;
    std::uint64_t computeSets_ = 0, vertices_ = 0, variables_ = 0, vertexTypes_ = 0;
};

/// Bytes of one memory category on one tile, split by memory region. TileScope reports have no
/// overflowed memory, so `overflowed()` is always 0 (kept for source compatibility).
class MemoryCategory {
public:
    std::uint64_t total() const { return interleaved_ + nonInterleaved_; }
    std::uint64_t interleaved() const { return interleaved_; }
    std::uint64_t nonInterleaved() const { return nonInterleaved_; }
    std::uint64_t overflowed() const { return 0; }

private:
    friend struct detail::ReportState;
    std::uint64_t interleaved_ = 0;
    std::uint64_t nonInterleaved_ = 0;
};

/// A tile's memory by category. The members follow libpva's names where a category maps one to
/// one; `vertexDescriptors` holds vector-list descriptors (and, in reports written before copy
/// descriptors had their own category, copy descriptors too), `exchangeBuffers` is found in older
/// reports only, and `gap` holds the gaps between regions of memory.
struct MemoryCategories {
    MemoryCategory vertexCode;
    MemoryCategory vertexInstanceState;
    MemoryCategory vertexDescriptors;
    MemoryCategory vertexFieldData;
    MemoryCategory controlCode;
    MemoryCategory internalExchangeCode;
    MemoryCategory hostExchangeCode;
    MemoryCategory globalExchangeCode;
    MemoryCategory exchangeBuffers;
    MemoryCategory variable;
    MemoryCategory notAlwaysLiveVariable;
    MemoryCategory constant;
    MemoryCategory stack;
    MemoryCategory instrumentationResults;
    MemoryCategory gap;
    MemoryCategory copyDescriptor;
    MemoryCategory hostExchangePacketHeader;
    MemoryCategory globalExchangePacketHeader;
    MemoryCategory controlTable;

    /// The category by the format's name ("vertex_code", "stack", ..., see the README); throws
    /// pva::error for an unknown name.
    const MemoryCategory& byName(const std::string& name) const;
};

/// A tile's total memory with and without the gaps between memory regions.
class TotalMemory {
public:
    std::uint64_t includingGaps() const { return includingGaps_; }
    std::uint64_t excludingGaps() const { return excludingGaps_; }

private:
    friend class TileMemory;
    std::uint64_t includingGaps_ = 0;
    std::uint64_t excludingGaps_ = 0;
};

/// Memory of one tile: totals, liveness split and the per-category breakdown.
class TileMemory {
public:
    TotalMemory total() const;
    /// Bytes of every category that is reserved for the whole program.
    std::uint64_t alwaysLiveBytes() const;
    /// Peak not-always-live bytes on this tile.
    std::uint64_t notAlwaysLiveBytes() const { return categories_.notAlwaysLiveVariable.total(); }
    const MemoryCategories& category() const { return categories_; }

private:
    friend struct detail::ReportState;
    MemoryCategories categories_;
};

/// One tile of the target; `number()` is the global tile number (ipu * tilesPerIPU + tile).
class Tile {
public:
    unsigned number() const { return number_; }
    unsigned ipu() const { return ipu_; }
    unsigned tileOnIpu() const { return tileOnIpu_; }
    const TileMemory& memory() const { return memory_; }

private:
    friend struct detail::ReportState;
    unsigned number_ = 0, ipu_ = 0, tileOnIpu_ = 0;
    TileMemory memory_;
};

/// The debug information of one operation (a poplar::DebugInfo: a PopLibs call or a user's own
/// layer) that created programs and variables: its API name, layer, debug path and the values
/// it recorded as a JSON object (PopLibs: "api", "args" with the arguments' shapes, types and
/// options, "output"/"outputs"; users: their DebugInfo::setValue keys). As libpva's
/// DebugContext, handed out by the programs, variables and compilation that refer to it.
class DebugContext {
public:
    std::int64_t id() const { return id_; }
    /// The API name of a PopLibs call ("matMul"), else the last element of the debug path.
    const std::string& name() const { return name_; }
    /// "PopLibs", or the layer name a user gave the DebugInfo.
    const std::string& layer() const { return layer_; }
    const std::string& debugPath() const { return debugPath_; }
    /// The recorded values as one JSON object; "{}" when the report holds none (format < v5).
    const std::string& json() const { return json_; }

private:
    friend struct detail::ReportState;
    friend struct detail::DebugContextAccess;
    std::int64_t id_ = 0;
    std::string name_, layer_, debugPath_, json_;
};

/// A node of the program tree, or (for steps) the lowered BSP program a step executes. Type names
/// follow libpva's pva::Program::Type; TileScope's tree kinds map as Execute -> OnTileExecute,
/// RepeatWhile -> RepeatWhileTrue, a StreamCopy before lowering -> StreamCopy, and a
/// CrossReplica collective -> Sequence (GCL builds a collective from a sequence of the ring's
/// syncs, exchanges and reductions; its steps keep their own types); the step of an
/// on-tile Copy (an OnTileExecute with no compute set) is a Copy. `kind()` gives the report's own
/// name. Programs are handed out as shared pointers, as in libpva.
class Program {
public:
    enum class Type {
        Unknown,
        Sequence,
        Repeat,
        RepeatWhileTrue,
        RepeatWhileFalse,
        If,
        Switch,
        Call,
        Copy,
        StreamCopy,
        OnTileExecute,
        DoExchange,
        GlobalExchange,
        StreamCopyBegin,
        StreamCopyMid,
        StreamCopyEnd,
        Sync,
        Block,
    };

    Program(detail::StatePtr state, std::int64_t id, std::string name, std::string kind,
            std::string debugPath, bool lowered);

    std::int64_t id() const { return id_; }
    /// libpva's spelling of id().
    std::int64_t _id() const { return id_; }
    const std::string& name() const { return name_; }
    Type type() const { return type_; }
    const std::string& kind() const { return kind_; }
    const std::string& debugPath() const { return debugPath_; }
    /// Children in order, read when called (none for a lowered step program).
    std::vector<std::shared_ptr<Program>> children() const;
    /// The operations that created this program, outermost first; read when called.
    std::vector<DebugContext> debugContexts() const;

private:
    detail::StatePtr state_;
    std::int64_t id_;
    std::string name_, kind_, debugPath_;
    Type type_;
    bool lowered_;
};

/// Name of a type as libpva spells it ("OnTileExecute").
std::string toString(Program::Type type);

/// A compute set and its number of vertex instances.
class ComputeSet {
public:
    std::int64_t id() const { return id_; }
    const std::string& name() const { return name_; }
    const std::string& debugPath() const { return debugPath_; }
    std::uint64_t numVertices() const { return numVertices_; }

private:
    friend struct detail::ReportState;
    std::int64_t id_ = 0;
    std::string name_, debugPath_;
    std::uint64_t numVertices_ = 0;
};

/// A tensor variable after layout; `size()` is its bytes over all tiles.
class Variable {
public:
    std::int64_t id() const { return id_; }
    std::int64_t _id() const { return id_; }
    const std::string& name() const { return name_; }
    const std::string& debugPath() const { return debugPath_; }
    std::uint64_t size() const { return bytes_; }
    std::uint64_t numElements() const { return numElements_; }
    const std::string& elementType() const { return elementType_; }
    bool alwaysLive() const { return alwaysLive_; }
    /// The memory category's name in the format ("always_live_variables", "constants", ...).
    const std::string& category() const { return category_; }
    /// The operations that created this variable, outermost first; read when called.
    std::vector<DebugContext> debugContexts() const;

private:
    friend struct detail::ReportState;
    detail::StatePtr state_;
    std::int64_t id_ = 0;
    std::string name_, debugPath_, elementType_, category_;
    std::uint64_t bytes_ = 0, numElements_ = 0;
    bool alwaysLive_ = true;
};

/// Not-always-live memory at one program step (over all tiles, or on one tile).
class NotAlwaysLiveMemory {
public:
    std::uint64_t bytes() const { return bytes_; }
    /// The variables live at the step (on the tile, for a per-tile figure), largest first; read
    /// when called.
    std::vector<Variable> variables() const;

private:
    friend class ProgramStep;
    detail::StatePtr state_;
    std::int64_t step_ = 0;
    bool hasTile_ = false; ///< a per-tile figure, for tile_
    unsigned tile_ = 0;
    std::uint64_t bytes_ = 0;
};

/// One program step of the liveness view: a lowered BSP step in program order.
class ProgramStep {
public:
    ProgramStep(detail::StatePtr state, std::int64_t index, std::int64_t programId,
                std::string kind, std::uint64_t estimatedCycles, std::uint64_t notAlwaysLive,
                std::uint64_t maxTileNotAlwaysLive);

    std::int64_t index() const { return index_; }
    /// The lowered program (type OnTileExecute, DoExchange, ...; name of the program it came from).
    std::shared_ptr<Program> program() const;
    NotAlwaysLiveMemory notAlwaysLiveMemory() const;
    NotAlwaysLiveMemory notAlwaysLiveMemoryForTile(unsigned tile) const;
    /// The fullest tile's not-always-live bytes at this step.
    std::uint64_t maxTileNotAlwaysLiveBytes() const { return maxTileNotAlwaysLive_; }
    /// Estimated cycles of the slowest tile.
    std::uint64_t cycleEstimate() const { return estimatedCycles_; }

private:
    detail::StatePtr state_;
    std::int64_t index_, programId_;
    std::string kind_;
    std::uint64_t estimatedCycles_, notAlwaysLive_, maxTileNotAlwaysLive_;
};

/// The compile profile.
class Compilation {
public:
    explicit Compilation(detail::StatePtr state) : state_(std::move(state)) {}

    Target target() const;
    Graph graph() const;
    /// Every tile with its memory (reads the per-tile memory when called).
    std::vector<Tile> tiles() const;
    /// Every program of the tree, parents before children.
    std::vector<std::shared_ptr<Program>> programs() const;
    /// The engine's entry points (Engine::run(i) runs controlPrograms()[i]).
    std::vector<std::shared_ptr<Program>> controlPrograms() const;
    /// Functions (called with Call) in their index order.
    std::vector<std::shared_ptr<Program>> functions() const;
    std::vector<ComputeSet> computeSets() const;
    std::vector<Variable> variables() const;
    std::vector<Variable> alwaysLiveVariables() const;
    std::vector<Variable> notAlwaysLiveVariables() const;
    std::vector<ProgramStep> livenessProgramSteps() const;
    /// Every operation of the compilation with its debug information, in id order.
    std::vector<DebugContext> debugContexts() const;
    /// True when compilation ran out of tile memory (the profile describes a failed compile).
    bool outOfMemory() const;

private:
    detail::StatePtr state_;
};

/// Cycles of one step on one IPU.
class IpuExecution {
public:
    unsigned ipu() const { return ipu_; }
    std::uint64_t cycles() const { return cycles_; }
    /// Tiles of this IPU with non-zero cycles in the step.
    unsigned activeTiles() const { return activeTiles_; }
    /// Mean over max cycles of the active tiles (1 = perfectly balanced).
    double activeTileBalance() const { return balance_; }
    const std::vector<std::uint64_t>& cyclesByTile() const { return cyclesByTile_; }

private:
    friend class ExecutionStep;
    unsigned ipu_ = 0, activeTiles_ = 0;
    std::uint64_t cycles_ = 0;
    double balance_ = 1.0;
    std::vector<std::uint64_t> cyclesByTile_;
};

/// One executed step of a run. Cycles count from the start of the run.
class ExecutionStep {
public:
    ExecutionStep(detail::StatePtr state, std::int64_t row, std::int64_t stepIndex,
                  std::uint64_t startCycle, std::uint64_t cycles, unsigned activeTiles,
                  double tileBalance, std::vector<std::uint64_t> cyclesByIpu);

    std::shared_ptr<Program> program() const;
    std::int64_t programStepIndex() const { return stepIndex_; }
    std::uint64_t cyclesFrom() const { return startCycle_; }
    std::uint64_t cyclesTo() const { return startCycle_ + cycles_; }
    std::uint64_t cycles() const { return cycles_; }
    unsigned activeTiles() const { return activeTiles_; }
    double activeTileBalance() const { return tileBalance_; }
    /// Cycles of every tile (global tile order); read when called, empty when not recorded.
    std::vector<std::uint64_t> cyclesByTile() const;
    /// The step on each IPU (reads the per-tile cycles when called).
    std::vector<IpuExecution> ipus() const;

private:
    detail::StatePtr state_;
    std::int64_t row_, stepIndex_;
    std::uint64_t startCycle_, cycles_;
    unsigned activeTiles_;
    double tileBalance_;
    std::vector<std::uint64_t> cyclesByIpu_;
};

/// Host time of a run, in microseconds since the Unix epoch.
class Microseconds {
public:
    std::uint64_t start() const { return start_; }
    /// Equal to start() while the run is still being written.
    std::uint64_t end() const { return end_; }

private:
    friend class Execution;
    std::uint64_t start_ = 0;
    std::uint64_t end_ = 0;
};

/// One Engine::run: which program, when, and its steps.
class Run {
public:
    Run(detail::StatePtr state, std::int64_t id, std::int64_t programIndex, std::int64_t firstRow,
        std::uint64_t numSteps, std::uint64_t cycles, Microseconds microseconds, bool complete);

    std::int64_t id() const { return id_; }
    std::int64_t programIndex() const { return programIndex_; }
    /// The control program that ran (null if the report does not list it).
    std::shared_ptr<Program> program() const;
    /// The run's steps in execution order (per-tile cycles are read by each step when asked).
    std::vector<ExecutionStep> steps() const;
    std::uint64_t numSteps() const { return numSteps_; }
    std::uint64_t cycles() const { return cycles_; }
    Microseconds microseconds() const { return microseconds_; }
    /// False while the run is being written (or its writer was killed).
    bool complete() const { return complete_; }

private:
    detail::StatePtr state_;
    std::int64_t id_, programIndex_, firstRow_;
    std::uint64_t numSteps_, cycles_;
    Microseconds microseconds_;
    bool complete_;
};

/// One execution of a lightweight-profiling block on one tile: a Block program selected by
/// profiler.blocks.filter, a program wrapped by profiler.programs.filter (isCommon()), a stream
/// copy phase under debug.instrumentExternalExchange (isStreamCopy(); program() is the lowered
/// StreamCopyBegin/Mid/End program), a flush of the block buffers (isBlockFlush(), also a stream
/// copy) or a period in which the tile's buffer was full (isOverflow(); droppedRecords() says how
/// many executions were lost). Cycles count from the engine's load, like the IPU's counter.
class Block {
public:
    std::uint64_t cyclesFrom() const { return cyclesFrom_; }
    std::uint64_t cyclesTo() const { return cyclesTo_; }
    unsigned tile() const { return tile_; }
    /// The block's program; for flushes and overflows a program named "BlockFlush" or
    /// "Overflow" that is not in the program tree.
    std::shared_ptr<Program> program() const;
    bool isCommon() const { return kind_ == 0; }
    bool isStreamCopy() const { return kind_ >= 1 && kind_ <= 6; }
    bool isBlockFlush() const { return kind_ >= 4 && kind_ <= 6; }
    bool isOverflow() const { return kind_ == 7; }
    /// TileScope: executions lost to the full buffer (overflow blocks), else 0.
    std::uint64_t droppedRecords() const { return dropped_; }
    /// TileScope: the 0-based Engine::run call the block ran in.
    std::int64_t runIndex() const { return runIndex_; }

private:
    friend class Execution;
    detail::StatePtr state_;
    std::int64_t runIndex_ = 0, programId_ = -1, stepId_ = -1;
    unsigned tile_ = 0;
    int kind_ = 0;
    std::uint64_t cyclesFrom_ = 0, cyclesTo_ = 0, dropped_ = 0;
};

/// The execution profile: runs in the order they happened.
class Execution {
public:
    explicit Execution(detail::StatePtr state) : state_(std::move(state)) {}

    std::vector<Run> runs() const;
    /// The steps of every run, run after run.
    std::vector<ExecutionStep> steps() const;
    /// Every block recorded on `tile`, by first cycle, enclosing blocks before those they hold.
    std::vector<Block> blocks(unsigned tile) const;
    /// TileScope: the tiles that recorded blocks, in order.
    std::vector<unsigned> blockTiles() const;

private:
    detail::StatePtr state_;
};

/// An open report. Cheap to copy (copies share the open file).
class Report {
public:
    explicit Report(detail::StatePtr state) : state_(std::move(state)) {}

    Compilation compilation() const { return Compilation(state_); }
    Execution execution() const { return Execution(state_); }
    Version poplarVersion() const;
    const std::string& reportFilename() const;

private:
    detail::StatePtr state_;
};

/// Opens a profile report read-only and validates it; throws pva::openfile_error with the
/// reader's message on failure. `debugInfoPath` is accepted for libpva compatibility; TileScope
/// keeps debug paths in the report itself, so it is ignored.
Report openReport(const std::string& reportPath, const std::string& debugInfoPath = {});

} // namespace pva
