#pragma once
// Lightweight-profiling blocks in a profile report (format v5): every recorded execution of a
// selected Block program, of a program wrapped by profiler.programs.filter, and of each stream
// copy phase under debug.instrumentExternalExchange, on the tile that recorded it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilescope::report {

/// What a block record measured. Stored as the INTEGER `block.kind` in this order: never reorder.
enum class BlockKind : std::uint8_t {
    Common,          ///< a selected Block or a program wrapped by profiler.programs.filter
    StreamCopyBegin, ///< the phases of a stream copy, on a tile that performs it
    StreamCopyMid,
    StreamCopyEnd,
    BlockFlushBegin, ///< the phases of the stream copy that moves block buffers to the host
    BlockFlushMid,
    BlockFlushEnd,
    Overflow, ///< a period in which the tile's buffer was full; `dropped` records were lost
};
inline constexpr int kNumBlockKinds = 8;

/// "Common", "StreamCopyBegin", ..., "Overflow".
std::string_view blockKindName(BlockKind kind);
/// The kind of a name blockKindName() returns, or nullopt.
std::optional<BlockKind> blockKindFromName(std::string_view name);
inline bool isStreamCopyKind(BlockKind k) {
    return k != BlockKind::Common && k != BlockKind::Overflow;
}
inline bool isBlockFlushKind(BlockKind k) {
    return k == BlockKind::BlockFlushBegin || k == BlockKind::BlockFlushMid ||
           k == BlockKind::BlockFlushEnd;
}

/// One block execution. Cycles count from the engine's load (the device's cycle counter), so
/// blocks of successive runs follow each other.
struct BlockRecord {
    std::int64_t id = 0;       ///< assigned by the writer
    std::int64_t runIndex = 0; ///< 0-based Engine::run call this block ran in
    std::uint64_t runStartCycle = 0; ///< the cycle that run started at (same clock)
    std::uint32_t tile = 0;
    BlockKind kind = BlockKind::Common;
    std::optional<std::int64_t> programId; ///< Common: the program; stream copies: the StreamCopy
    std::optional<std::int64_t> stepId;    ///< stream copy phases: the lowered step
    std::uint64_t cyclesFrom = 0;
    std::uint64_t cyclesTo = 0;
    std::uint64_t dropped = 0; ///< Overflow: records lost
};

/// Statistics of the executions of one block (by kind and program name) over a report.
struct BlockStatistics {
    BlockKind kind = BlockKind::Common;
    std::string name; ///< the program's name; the kind's name for flushes and overflows
    std::uint64_t count = 0;
    std::uint64_t minCycles = 0;
    double meanCycles = 0;
    std::uint64_t maxCycles = 0;
    std::uint64_t dropped = 0; ///< Overflow: records lost
};

} // namespace tilescope::report
