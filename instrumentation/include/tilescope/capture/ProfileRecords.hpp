#pragma once
// Neutral in-memory records of one compilation and of the runs that follow it. The simulator's
// graph compiler and BSP engine fill them; the capture layer writes them into reports and
// printProfileSummary prints from them. Plain structs only: nothing here knows simulator classes.
//
// Units: bytes, tile clock cycles, host nanoseconds since the Unix epoch. Per-tile series are
// std::vector<uint64_t> indexed by global tile number (ipu * tilesPerIpu + tile on that IPU).

#include "tilescope/report/TilePlacement.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::capture {

using PerTile = std::vector<std::uint64_t>;

/// Where bytes of a tile's memory go, as Poplar accounts them. The names returned by
/// memoryCategoryName() are stable: report files and tools key on them. There is no receive-buffer
/// category: exchanges write into their destination variables or into not-always-live
/// temporaries (older reports may still hold the format's `exchange_buffers`).
enum class MemoryCategory : std::uint8_t {
    VertexCode,
    VertexState,
    VertexDescriptors, ///< vector-list descriptors of vertex fields
    VertexFieldData,
    ControlCode,
    InternalExchangeCode,
    HostExchangeCode,
    GlobalExchangeCode,
    AlwaysLiveVariables,
    NotAlwaysLiveVariables,
    Constants,
    Stack,
    Instrumentation,
    Gap,
    CopyDescriptors, ///< on-tile copies and rearrangements after an exchange
    HostExchangePacketHeaders,
    GlobalExchangePacketHeaders,
    ControlTable, ///< jump tables of Switch programs
};
inline constexpr std::size_t kNumMemoryCategories = 18;

inline constexpr std::string_view memoryCategoryName(MemoryCategory c) {
    constexpr std::array<std::string_view, kNumMemoryCategories> names = {
        "vertex_code",
        "vertex_state",
        "vertex_descriptors",
        "vertex_field_data",
        "control_code",
        "internal_exchange_code",
        "host_exchange_code",
        "global_exchange_code",
        "always_live_variables",
        "not_always_live_variables",
        "constants",
        "stack",
        "instrumentation",
        "gap",
        "copy_descriptors",
        "host_exchange_packet_headers",
        "global_exchange_packet_headers",
        "control_table",
    };
    return names[static_cast<std::size_t>(c)];
}

/// A tile's memory regions. Mk2 tiles split memory into a non-interleaved region (low addresses)
/// and an interleaved one; Mk1 tiles are a single non-interleaved region.
enum class MemoryRegionKind : std::uint8_t { Interleaved, NonInterleaved };
inline constexpr std::size_t kNumMemoryRegions = 2;

inline constexpr std::string_view memoryRegionName(MemoryRegionKind r) {
    return r == MemoryRegionKind::Interleaved ? "interleaved" : "non_interleaved";
}

/// The kind of a lowered BSP step.
enum class StepKind : std::uint8_t {
    OnTileExecute,
    DoExchange,
    GlobalExchange,
    StreamCopyBegin,
    StreamCopyMid,
    StreamCopyEnd,
    Sync,
};

inline constexpr std::string_view stepKindName(StepKind k) {
    constexpr std::array<std::string_view, 7> names = {
        "OnTileExecute", "DoExchange",    "GlobalExchange", "StreamCopyBegin",
        "StreamCopyMid", "StreamCopyEnd", "Sync",
    };
    return names[static_cast<std::size_t>(k)];
}

/// The kind of a node of the program tree.
enum class ProgramKind : std::uint8_t {
    Sequence,
    Repeat,
    RepeatWhileTrue,
    RepeatWhileFalse,
    If,
    Switch,
    Call,
    Execute,
    Copy,
    StreamCopy,
    Sync,
    WriteUndef,
    PrintTensor,
    Block, ///< poplar::program::Block: scopes a program for lightweight profiling
    /// A collective across the replicas of a replicated graph (GCL's allReduce, reduceScatter,
    /// allGather): lowered to the syncs, IPU-Link exchanges and reductions of a ring.
    CrossReplica,
};

inline constexpr std::string_view programKindName(ProgramKind k) {
    constexpr std::array<std::string_view, 15> names = {
        "Sequence",
        "Repeat",
        "RepeatWhileTrue",
        "RepeatWhileFalse",
        "If",
        "Switch",
        "Call",
        "Execute",
        "Copy",
        "StreamCopy",
        "Sync",
        "WriteUndef",
        "PrintTensor",
        "Block",
        "CrossReplica",
    };
    return names[static_cast<std::size_t>(k)];
}

/// One memory region of every tile: its kind, start offset in the tile's address space and size.
struct MemoryRegionRecord {
    MemoryRegionKind kind = MemoryRegionKind::NonInterleaved;
    std::uint64_t startOffset = 0;
    std::uint64_t sizeBytes = 0;
};

/// The device the graph was compiled for.
struct TargetRecord {
    std::string type = "IPU_MODEL";
    std::string architecture = "ipu2";
    std::uint32_t numIpus = 1; ///< of one replica: the report profiles one
    std::uint32_t tilesPerIpu = 0;
    std::uint32_t replicas = 1; ///< replicas the program runs as, each on numIpus IPUs
    std::uint64_t bytesPerTile = 0;
    std::uint32_t workerContexts = 6;
    std::uint32_t exchangeBytesPerCycle = 4;
    double clockHz = 0;
    std::vector<MemoryRegionRecord> regions;
    report::TilePlacement placement; ///< empty when the target models no floor plan

    std::uint32_t numTiles() const { return numIpus * tilesPerIpu; }
};

/// Memory of every tile by category and region: bytes[category][region][tile]. The categories of
/// one tile, summed over both regions, add up to that tile's total (gaps included).
struct MemoryUsageRecord {
    std::array<std::array<PerTile, kNumMemoryRegions>, kNumMemoryCategories> bytes;

    const PerTile& of(MemoryCategory c, MemoryRegionKind r) const {
        return bytes[static_cast<std::size_t>(c)][static_cast<std::size_t>(r)];
    }
    PerTile& of(MemoryCategory c, MemoryRegionKind r) {
        return bytes[static_cast<std::size_t>(c)][static_cast<std::size_t>(r)];
    }
    /// Bytes of one category on one tile over both regions.
    std::uint64_t categoryOnTile(MemoryCategory c, std::size_t tile) const {
        std::uint64_t sum = 0;
        for (const auto& region : bytes[static_cast<std::size_t>(c)])
            sum += region.empty() ? 0 : region[tile];
        return sum;
    }
    /// Total bytes used on one tile, gaps included.
    std::uint64_t tileTotal(std::size_t tile) const {
        std::uint64_t sum = 0;
        for (std::size_t c = 0; c < kNumMemoryCategories; ++c)
            sum += categoryOnTile(static_cast<MemoryCategory>(c), tile);
        return sum;
    }
};

/// A node of the program tree. Control programs have children; programs that lower to BSP steps
/// list the steps they produced. `id` is the index in CompileRecords::programs.
struct ProgramNodeRecord {
    std::uint32_t id = 0;
    ProgramKind kind = ProgramKind::Sequence;
    std::string name;
    std::vector<std::uint32_t> children;
    std::vector<std::uint32_t> steps;
    std::int64_t computeSet = -1;  ///< Execute: index in CompileRecords::computeSets
    std::int64_t repeatCount = -1; ///< Repeat: the trip count
    std::int64_t callee = -1;      ///< Call: index in CompileRecords::functions
    PerTile codeBytesPerTile;      ///< control and exchange code this node adds to each tile
};

/// A lowered BSP step; its index in CompileRecords::steps is the "program step" of liveness.
struct StepRecord {
    StepKind kind = StepKind::Sync;
    std::uint32_t program = 0;    ///< the program node that produced it
    std::int64_t computeSet = -1; ///< OnTileExecute of a compute set
    std::string name;
    PerTile exchangeBytesPerTile; ///< bytes each tile sends plus receives (exchange and streams)
    PerTile estimatedCyclesPerTile;
    PerTile notAlwaysLiveBytesPerTile; ///< bytes of not-always-live variables live at this step
};

/// Where part of a variable sits: its tile, start address in the tile's memory and size.
struct VariablePlacementRecord {
    std::uint32_t tile = 0;
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;
};

/// One object at its address in a tile's memory, for the tile memory map: code and data of a
/// category, or part of a variable. Not-always-live parts share addresses with parts whose live
/// step ranges do not overlap.
struct TileAllocationRecord {
    std::uint64_t address = 0; ///< from the bottom of the tile's memory
    std::uint64_t bytes = 0;
    MemoryRegionKind region = MemoryRegionKind::NonInterleaved;
    MemoryCategory category = MemoryCategory::Gap;
    std::int64_t variable = -1;      ///< index in CompileRecords::variables; -1: not a variable
    std::int64_t firstLiveStep = -1; ///< not-always-live variables: their live steps, inclusive
    std::int64_t lastLiveStep = -1;
};

/// A tensor variable (or constant) after layout.
struct VariableRecord {
    std::string name;
    std::string elementType;
    std::vector<std::uint64_t> shape;
    std::uint64_t numElements = 0;
    std::uint32_t elementBytes = 0;
    bool isConstant = false;
    bool alwaysLive = true;
    std::int64_t firstLiveStep = -1; ///< inclusive; -1 when always live or never live
    std::int64_t lastLiveStep = -1;
    PerTile bytesPerTile; ///< element bytes stored on each tile (alignment padding is a gap)
    /// The region holding the variable on the tile with most of its bytes (not-always-live
    /// variables: the region of that tile's not-always-live pool).
    MemoryRegionKind region = MemoryRegionKind::Interleaved;
    /// Every part of the variable by tile (not-always-live parts share addresses with others
    /// whose live ranges do not overlap).
    std::vector<VariablePlacementRecord> placements;
};

/// Instances of one vertex type in one compute set, per tile.
struct VertexInstancesRecord {
    std::uint32_t computeSet = 0;
    std::uint32_t vertexType = 0;
    std::uint64_t count = 0;
    PerTile perTile;
};

struct ComputeSetRecord {
    std::string name;
    std::uint64_t numVertices = 0;
};

/// A vertex type and where its instances are.
struct VertexTypeRecord {
    std::string name;
    std::uint64_t codeBytes = 0;  ///< per tile that holds at least one instance
    std::uint64_t stateBytes = 0; ///< per instance
    PerTile instancesPerTile;
};

/// An entry point of the engine (Engine::run(index)) or a function (Graph::addFunction).
struct EntryPointRecord {
    std::string name;
    std::uint32_t program = 0; ///< root node in CompileRecords::programs
};

/// An operation (poplar::DebugInfo: a PopLibs call or a user layer) and the graph objects created
/// under its debug context. Operations nest: `parent` indexes CompileRecords::operations or is -1.
struct OperationRecord {
    std::string name;      ///< e.g. "matMul"
    std::string debugPath; ///< the full debug context path, e.g. "layer1/matMul"
    std::string layer;     ///< "PopLibs" or the user's layer name
    std::int64_t parent = -1;
    std::vector<std::uint32_t> programs;  ///< indices in CompileRecords::programs
    std::vector<std::uint32_t> variables; ///< indices in CompileRecords::variables
    std::optional<std::uint64_t> flops;   ///< estimated floating-point operations per execution
    /// The DebugInfo's values as one JSON object: PopLibs' "api", "args", "outputs" and the user's
    /// own DebugInfo::setValue values ("{}" when none).
    std::string debugJson;
};

/// Everything the graph compiler knows after compiling one graph.
struct CompileRecords {
    TargetRecord target;
    MemoryUsageRecord memory;
    std::vector<ProgramNodeRecord> programs;
    std::vector<EntryPointRecord> entryPoints;
    std::vector<EntryPointRecord> functions;
    std::vector<StepRecord> steps;
    std::vector<VariableRecord> variables;
    std::vector<ComputeSetRecord> computeSets;
    std::vector<VertexTypeRecord> vertexTypes;
    std::vector<VertexInstancesRecord> vertexInstances;
    std::vector<OperationRecord> operations;
    std::uint64_t numVertices = 0;
    std::uint64_t numEdges = 0;
    std::vector<std::uint32_t> tilesOutOfMemory;
    /// Per tile, every object laid out in its memory in address order (the tile memory map).
    std::vector<std::vector<TileAllocationRecord>> tileAllocations;
    /// False when no IPU code was generated (an IPU Model without compileIPUCode): the code
    /// categories are then zero because nothing was compiled, not because nothing is needed.
    bool ipuCodeCompiled = true;
    std::int64_t compileStartNs = 0;
    std::int64_t compileEndNs = 0;
};

/// One executed step of a run. The cycles per tile are shared, not copied: every execution of
/// a step in every run refers to the same series (the step's compiled estimate), so recording a
/// step costs the same for 1 tile or 23,552 and long runs do not hold one copy per execution.
struct StepExecutionRecord {
    std::uint32_t step = 0;
    std::uint64_t startCycle = 0;
    std::shared_ptr<const PerTile> cyclesPerTile;

    /// The cycles per tile (empty when none were recorded).
    const PerTile& perTileCycles() const {
        static const PerTile none;
        return cyclesPerTile ? *cyclesPerTile : none;
    }
};

/// What a lightweight-profiling block record measured (profiler.blocks.filter,
/// profiler.programs.filter, debug.instrumentExternalExchange). Names are stable: reports key on
/// blockKindName().
enum class BlockKind : std::uint8_t {
    Common,          ///< a selected Block program or a program wrapped by profiler.programs.filter
    StreamCopyBegin, ///< the phases of a stream copy, on a tile that performs it
    StreamCopyMid,
    StreamCopyEnd,
    BlockFlushBegin, ///< the phases of a stream copy that moves the block buffers to the host
    BlockFlushMid,
    BlockFlushEnd,
    Overflow, ///< a period in which a tile's block buffer was full and records were dropped
};
inline constexpr std::size_t kNumBlockKinds = 8;

inline constexpr std::string_view blockKindName(BlockKind k) {
    constexpr std::array<std::string_view, kNumBlockKinds> names = {
        "Common",          "StreamCopyBegin", "StreamCopyMid", "StreamCopyEnd",
        "BlockFlushBegin", "BlockFlushMid",   "BlockFlushEnd", "Overflow",
    };
    return names[static_cast<std::size_t>(k)];
}

/// One execution of a block on one tile. Cycles count from the start of the run, like steps.
struct BlockExecutionRecord {
    std::uint32_t tile = 0;
    BlockKind kind = BlockKind::Common;
    /// Common: the program node (index in CompileRecords::programs); stream copy phases: the
    /// StreamCopy program the step came from; flushes and overflows: -1.
    std::int64_t program = -1;
    std::int64_t step = -1; ///< stream copy phases: the lowered step (CompileRecords::steps)
    std::uint64_t cyclesFrom = 0;
    std::uint64_t cyclesTo = 0;
    std::uint64_t dropped = 0; ///< Overflow: records dropped in the period
};

/// One call of Engine::run.
struct RunRecord {
    std::uint32_t programIndex = 0;
    std::int64_t hostStartNs = 0;
    std::int64_t hostEndNs = 0;
    std::uint64_t totalCycles = 0;
    std::vector<StepExecutionRecord> steps;
    /// False for a run past autoReport.executionProfileProgramRunCount runs of its program: like
    /// Poplar, which profiles only that many runs, its totals are kept and its steps are not.
    bool stepsRecorded = true;
    /// Lightweight profiling: every recorded block execution, in the order the buffers were read.
    std::vector<BlockExecutionRecord> blocks;
    std::uint64_t blocksDropped = 0; ///< records lost to full block buffers in this run
    /// The block clock (cycles since the engine's load) when the run started: block cycles minus
    /// this are run-relative, like the steps'.
    std::uint64_t blockCycleBase = 0;
};

struct ExecutionRecords {
    std::vector<RunRecord> runs;
};

} // namespace tilescope::capture
