#pragma once
// Lightweight profiling: records the first and last cycle of every execution of the programs the
// engine options select (Block programs by profiler.blocks.filter, any program by
// profiler.programs.filter) and, with debug.instrumentExternalExchange, of every stream copy
// phase, into a bounded buffer per tile, as the IPU's block instrumentation does.
//
// Cost model (what users see on the IPU, so block timings include it):
// - each block edge (entry and exit) runs kBlockEdgeCycles of instrumentation on every IPU, so a
//   block lasts its body plus 2 * kBlockEdgeCycles, and a nested block starts kBlockEdgeCycles
//   after its parent; an instrumented stream copy phase costs the same two edges;
// - each stored record takes kBlockRecordBytes of its tile's buffer (profiler.blocks.bufferSize
//   bytes, 1000 by default); a full buffer drops records, counted in an Overflow record spanning
//   the dropped executions and in RunRecord::blocksDropped;
// - with profiler.blocks.implicitFlush (default) a flush (a host stream copy of the used buffer
//   bytes: external sync, begin, transfer, end) runs after each iteration of the innermost loops
//   that hold selected blocks and empties the buffers; the host also reads every buffer when a run
//   ends (no cycles: the device is idle).
// Cycles are absolute: they count from the engine's load, like the IPU's cycle counter.
//
// Memory model (compile time, only when an option selects blocks): every tile that stores records
// holds its buffer (the whole records that fit in profiler.blocks.bufferSize) in the
// "instrumentation results" category, and kBlockEdgeCodeBytes of control code per block edge it
// runs (two per selected program or instrumented stream copy phase).

#include "tilescope/capture/EngineOptions.hpp"
#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/sim/CompiledGraph.hpp"
#include "tilescope/sim/CostModel.hpp"

#include <cstdint>
#include <regex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tilescope::sim {

/// Cycles of the instrumentation code at one block edge (read the counter, store a record).
inline constexpr std::uint64_t kBlockEdgeCycles = 36;
/// Buffer bytes of one stored record: two edges of a 32-bit block id and a 64-bit counter.
inline constexpr std::uint64_t kBlockRecordBytes = 24;
/// Code bytes of one block edge on its tile (a dozen instructions: read the cycle counter, store
/// the record, advance the buffer pointer, test for a full buffer).
inline constexpr std::uint64_t kBlockEdgeCodeBytes = 48;

/// The engine options of lightweight profiling.
struct BlockSettings {
    std::string blocksFilter;      ///< profiler.blocks.filter ("" selects no Block)
    std::string programsFilter;    ///< profiler.programs.filter ("" wraps no program)
    unsigned tile = 0;             ///< profiler.blocks.tile
    bool implicitFlush = true;     ///< profiler.blocks.implicitFlush
    unsigned bufferSize = 1000;    ///< profiler.blocks.bufferSize
    bool externalExchange = false; ///< debug.instrumentExternalExchange

    bool enabled() const {
        return !blocksFilter.empty() || !programsFilter.empty() || externalExchange;
    }
};

/// The lightweight-profiling part of the engine options.
BlockSettings blockSettingsOf(const capture::EngineOptions& options);

/// Bytes lightweight profiling adds to each tile's memory (see the memory model above).
struct BlockMemory {
    capture::PerTile bufferBytes;   ///< the record buffer: instrumentation results
    capture::PerTile edgeCodeBytes; ///< the block edges' code: control code
};

/// Records block executions for one loaded engine. The BSP engine asks scopeOf() for each
/// program node it runs (a hash lookup; nothing at all when no option selects blocks) and wraps
/// selected nodes in enter()/exit().
class BlockRecorder {
public:
    /// A selected program: its record in CompileRecords::programs and the tiles recording it
    /// (profiler.blocks.tile on each IPU the program runs on).
    struct Scope {
        std::int64_t program = -1;
        std::vector<std::uint32_t> tiles;
    };

    /// Throws poplar::invalid_option naming profiler.blocks.tile when it is not a tile of an
    /// IPU, and profiler.blocks.bufferSize when it cannot hold one record.
    BlockRecorder(const CompiledGraph& graph, const BlockSettings& settings);

    const Scope* scopeOf(const ProgramNode& n) const {
        auto it = scopes_.find(&n);
        return it == scopes_.end() ? nullptr : &it->second;
    }
    /// The entry edge: returns the block's first cycle and advances `cycle` past the edge.
    std::uint64_t enter(std::uint64_t& cycle) const {
        const auto from = cycle;
        cycle += kBlockEdgeCycles;
        return from;
    }
    /// The exit edge: advances `cycle` past it and stores the block on its tiles.
    void exit(const Scope& scope, std::uint64_t from, std::uint64_t& cycle);

    /// Whether step `step` is a stream copy phase recorded under debug.instrumentExternalExchange.
    bool instrumentsStep(std::uint32_t step) const {
        return step < streamTiles_.size() && !streamTiles_[step].empty();
    }
    /// Stores an instrumented stream copy phase that ran from `from` to `to`.
    void recordStep(std::uint32_t step, std::uint64_t from, std::uint64_t to);

    /// Whether a flush follows each iteration of loop `n` (profiler.blocks.implicitFlush).
    bool flushesAfter(const ProgramNode& n) const { return flushLoops_.count(&n) != 0; }
    /// Runs a flush: advances `cycle` by its cost and empties the buffers.
    void flush(std::uint64_t& cycle);

    /// The buffers and edge code this recorder needs on each tile; empty on tiles storing nothing.
    BlockMemory memory() const;

    /// Starts recording a run into `run` (its blocks and blocksDropped).
    void beginRun(capture::RunRecord& run);
    /// The host reads every buffer; `runCycles` moves the absolute clock past the run.
    void endRun(std::uint64_t runCycles);
    /// The absolute cycle at which the current run started.
    std::uint64_t runBase() const { return base_; }

private:
    struct TileBuffer {
        std::uint64_t used = 0;
        std::uint64_t dropped = 0;
        std::uint64_t droppedFrom = 0, droppedTo = 0;
    };
    struct Walk {
        bool selected = false;   ///< the subtree holds a selected scope
        bool loopInside = false; ///< ... inside a loop of the subtree
    };

    Walk walk(const ProgramNode& n);
    std::vector<bool> ipusOf(const ProgramNode& n);
    void store(std::uint32_t tile, capture::BlockKind kind, std::int64_t program, std::int64_t step,
               std::uint64_t from, std::uint64_t to);
    void drain();

    const CompiledGraph& graph_;
    BlockSettings settings_;
    CostModel costs_;
    std::uint64_t capacity_ = 0; ///< records per tile buffer
    std::unordered_map<const ProgramNode*, Scope> scopes_;
    std::unordered_set<const ProgramNode*> flushLoops_;
    std::unordered_map<const ProgramNode*, Walk> walked_;
    std::unordered_map<const ProgramNode*, std::vector<bool>> ipus_;
    std::vector<std::vector<std::uint32_t>> streamTiles_; ///< per step: tiles recording it
    std::vector<std::uint32_t> recordingTiles_;           ///< profiler.blocks.tile of each IPU
    std::unordered_map<std::uint32_t, TileBuffer> buffers_;
    capture::RunRecord* run_ = nullptr;
    std::uint64_t base_ = 0;
};

} // namespace tilescope::sim
