#pragma once
// The one place that holds the simulator's cost parameters: cycles of compute, exchange, syncs and
// stream copies, and the bytes of code, vertex state and stack the compiler accounts per tile.
// Figures are modelled on published IPU behaviour (barrel-threaded workers, 4 bytes per cycle per
// tile of exchange bandwidth, microsecond-scale host round trips); they are estimates, chosen to
// be deterministic and of the right order, not measurements of a particular SDK.

#include "tilescope/sim/TargetSpec.hpp"

#include <cstdint>

namespace tilescope::sim {

/// Cycle and memory cost parameters. Cycles are tile clock cycles unless called thread cycles
/// (one instruction slot of one of the barrel-threaded worker contexts: a tile issues one
/// instruction per cycle round-robin over its workers, so a worker running alone still needs
/// numWorkerContexts tile cycles per thread cycle).
struct CostModel {
    // --- Compute (OnTileExecute) ---
    /// Supervisor cost of starting a compute set on a tile and waiting for its workers.
    std::uint64_t computeSetOverheadCycles = 40;
    /// Thread cycles to launch one vertex on a worker, charged to vertices without an estimate
    /// (an estimate, like PopLibs', already counts loading the vertex's state).
    std::uint64_t vertexLaunchThreadCycles = 8;
    /// Size-based default for vertices without an estimate: base + perElement * edge elements.
    std::uint64_t defaultVertexBaseThreadCycles = 20;
    std::uint64_t defaultThreadCyclesPerElement = 2;
    /// On-tile copies (the compute part of Copy programs).
    std::uint64_t copyBytesPerThreadCycle = 8;

    // --- Exchange and sync ---
    /// Fixed cost of an exchange phase on every tile that sends or receives.
    std::uint64_t exchangeOverheadCycles = 30;
    /// An exchange instruction (a send, a receiver's selection of its sender) issues in one
    /// cycle, like any other instruction of the tile (the counts are those of the exchange code
    /// below).
    std::uint64_t exchangeInstructionCycles = 1;
    /// A receiver takes each sender's message in at least this many cycles: the crossing of the
    /// exchange fabric from the sender, as the fixed part of an exchange (exchangeOverheadCycles,
    /// modelled), which only a message long enough to stream for as long hides. Tutorial 6's
    /// published IPU Model profile agrees: its busiest tile receives 292 one-word messages in
    /// 8,697 cycles, 29.8 each (simcore/CALIBRATION-NOTES.md).
    std::uint64_t minCyclesPerReceivedMessage = 30;
    /// Extra latency when an exchange crosses IPUs (GlobalExchange), and its bandwidth comes
    /// from TargetSpec::interIpuBytesPerSecond.
    std::uint64_t globalExchangeLatencyCycles = 1200;
    /// With IPUModel::relativeSyncDelay AUTO, tiles are released later the further they sit from
    /// the sync controller: this many cycles per column of tiles (TargetSpec::tilesPerColumn)
    /// along the exchange spine, for the furthest column. Modelled (not published).
    std::uint64_t relativeSyncDelayCyclesPerColumn = 4;
    /// Host round trip of a stream copy; bandwidth comes from TargetSpec::hostLinkBytesPerSecond.
    std::uint64_t streamCopyLatencyCycles = 2000;
    std::uint64_t streamCopyBeginEndCycles = 100;

    // --- Memory: code ---
    std::uint64_t controlCodeBaseBytes = 256;     ///< per tile: the control program's skeleton
    std::uint64_t controlCodeBytesPerStep = 8;    ///< per tile per lowered step
    std::uint64_t controlCodeBytesPerBranch = 16; ///< per tile per Repeat/If/Switch/Call node
    std::uint64_t vertexCodeBaseBytes = 160;      ///< per vertex type per tile
    std::uint64_t vertexCodeBytesPerField = 24;
    std::uint64_t instrumentationBytesPerStep = 8; ///< with debug.instrument: one cycle counter
    /// Jump tables of Switch programs: one word per case (and the default) on every tile.
    std::uint64_t controlTableBytesPerCase = 4;

    // --- Memory: exchange code, per message (see ExchangePlan.hpp) ---
    /// Bytes of one exchange instruction on a tile. PopLibs' planners estimate exchange code at
    /// 4 bytes per exchange instruction per tile (open-source PopLibs; issue 18 of this repo).
    std::uint64_t exchangeInstructionBytes = 4;
    /// A sender sets up and issues one send per contiguous source region, however large the
    /// region: two instructions (the region's address, then the send). The count is not
    /// published; it is derived from the two published exchange-code figures (tutorial 4,
    /// 2,600 B a tile; a FLOAT dense layer, ~250 B a tile): with one instruction both fall below
    /// their bands (0.77, 0.66), with two both are inside (0.98, 0.88) (CALIBRATION-NOTES.md).
    std::uint64_t sendInstructionsPerRegion = 2;
    /// A receiver selects the incoming tile and sets the destination address once per source
    /// tile it receives from (Poplar user guide, "exchange": receives are programmed per sender).
    std::uint64_t receiveInstructionsPerSourceTile = 2;
    /// Data from one sender that lands in several places (a strided or transposed
    /// destination) is written where it belongs as it arrives: the receiver sets the next
    /// destination address before each further run, an instruction each. (Poplar's exchange
    /// has no receive buffers; the receiving tile's code decides where incoming words go.)
    std::uint64_t receiveInstructionsPerDestinationRun = 1;
    /// Host (stream) and global (inter-IPU) messages carry a packet header on each tile they
    /// touch, per stream or per exchange: modelled as one 64-bit word (PopVision shows a few
    /// bytes per tile under "host/global exchange packet headers").
    std::uint64_t packetHeaderBytes = 8;
    /// A copy descriptor of an on-tile copy or rearrangement: source, destination and size of
    /// one contiguous piece (modelled as two words, as PopLibs' copy vertices take per region).
    std::uint64_t copyDescriptorBytes = 8;

    // --- Memory: vertex data ---
    std::uint64_t vertexDescriptorBytes = 4; ///< per vertex: its entry in the compute set
    std::uint64_t scalarEdgeStateBytes = 4;  ///< a pointer
    std::uint64_t vectorEdgeStateBytes = 8;  ///< pointer and size
    std::uint64_t listItemBytes = 8;         ///< per item of a list field (field data)

    // --- Memory: stack and alignment ---
    std::uint64_t supervisorStackBytes = 256;
    std::uint64_t workerStackBytes = 72; ///< per worker context
    std::uint64_t variableAlignment = 8;
    std::uint64_t codeAlignment = 4;

    /// Tile cycles to move `bytes` over the host link, starting from the stream latency.
    std::uint64_t streamCopyCycles(const TargetSpec& t, std::uint64_t bytes) const;
    /// Cycles of a sync on `t`, as the IPU Model states a sync: the target's minIPUSyncDelay
    /// and, with relative delays, the release of the furthest column of tiles. An external sync
    /// (all IPUs and the host) costs the same on one IPU: the host's side of a stream copy is in
    /// its latency (streamCopyLatencyCycles) and begin/end phases.
    std::uint64_t syncCycles(const TargetSpec& t, bool external) const;
    /// Tile cycles of an exchange phase in which a tile's sends and receives take
    /// `transferCycles` (ExchangeMessages::transferCycles) and it moves `bytes` in its busier
    /// direction, over the IPU-Links as well when the exchange is `global`.
    std::uint64_t exchangeCycles(const TargetSpec& t, std::uint64_t transferCycles,
                                 std::uint64_t bytes, bool global) const;
    /// Cycles of one step of a cross-replica ring in which an IPU sends `bytes` to the next
    /// replica's IPU over one IPU-Link (TargetSpec::interIpuBytesPerSecond) while receiving as
    /// many from the previous one; the link's latency is that of any exchange between IPUs
    /// (globalExchangeLatencyCycles). Every tile of the IPU taking part waits for the whole step.
    std::uint64_t ipuLinkRingStepCycles(const TargetSpec& t, std::uint64_t bytes) const;
};

} // namespace tilescope::sim
