#pragma once
// Hardware figures of the simulated IPU generations. Every number the simulator uses to describe a
// device lives here; the cycle and memory cost parameters live in CostModel.hpp.

#include <cstdint>
#include <string>

namespace tilescope {
namespace sim {

/// A simulated multi-IPU target: tile count, memory, clocks and exchange width. Tiles are numbered
/// globally: ipu * tilesPerIpu + tile on that IPU.
struct TargetSpec {
    std::string architecture = "ipu2"; ///< "ipu1" (Mk1, Colossus GC2) or "ipu2" (Mk2, GC200)
    /// What the report records as the target type: "IPU_MODEL", "CPU", or "IPU (simulated)" for
    /// the simulated hardware devices of poplar::DeviceManager.
    std::string deviceType = "IPU_MODEL";
    unsigned numIpus = 1;
    unsigned tilesPerIpu = 1472;
    std::uint64_t bytesPerTile = 624 * 1024;
    /// Bytes at the top of each tile's memory that are interleaved (Mk2). Mk1 has none.
    std::uint64_t interleavedBytesPerTile = 0;
    /// Tile memory is built from banks ("memory elements"); an object no larger than one is
    /// placed within one, as loads may not straddle them, which leaves gaps. Modelled figure.
    std::uint64_t memoryElementBytes = 64 * 1024;
    unsigned numWorkerContexts = 6;
    double tileClockHz = 1.33e9;
    unsigned exchangeBytesPerCycle = 4; ///< per tile, on-chip exchange
    unsigned dataPathWidthBits = 64;
    double hostLinkBytesPerSecond = 16e9; ///< PCIe Gen4 x16, usable
    /// One IPU-Link, each way: Colossus GC2 and GC200 have 10 IPU-Links, 320 GB/s in all
    /// (Graphcore's published product figures), so 32 GB/s a link. Exchanges between IPUs and
    /// each step of a cross-replica ring (to the next replica's IPU) move data over one link.
    double interIpuBytesPerSecond = 32e9;
    /// Die layout (modelled, recorded in reports for physical tile order and the floor plan):
    /// columns of this many tiles on each side of the exchange spine, laid out as
    /// report::TilePlacement::spineColumns describes. Cycle estimates do not depend on it.
    unsigned tilesPerColumn = 32;
    /// Whether the compiler generates IPU code (control, vertex and exchange code) and so charges
    /// it to tile memory. Simulated hardware devices always do; an IPU Model does only when
    /// poplar::IPUModel::compileIPUCode is set (the SDK's default is false).
    bool compileIpuCode = true;
    /// The sync model of poplar::IPUModel: cycles before the tile closest to the sync controller
    /// is released from a sync (IPUModel::minIPUSyncDelay), and whether tiles further away are
    /// released later (relativeSyncDelay AUTO) or all at once (NO_DELAY). The SDK does not
    /// document its defaults: see CostModel.hpp and simcore/CALIBRATION-NOTES.md.
    unsigned minIpuSyncDelay = kDefaultMinIpuSyncDelay;
    bool relativeSyncDelay = true;

    /// Modelled default of minIPUSyncDelay (the SDK does not publish its own): the sync request
    /// and the release cross the exchange spine once each, as far as the fixed part of an
    /// exchange (CostModel::exchangeOverheadCycles).
    static constexpr unsigned kDefaultMinIpuSyncDelay = 30;
    /// The host link of an IPU Model (Mk1 and Mk2): 8 GB/s. The SDK does not document it; it is
    /// the rate of the one published IPU Model profile of a stream-bound program (Poplar tutorial
    /// 6 README: 40,044,000 bytes streamed in 6,663,551 cycles at 1.33 GHz), the usable rate of a
    /// PCIe Gen3 x8 link (7.9 GB/s).
    static constexpr double kIpuModelHostLinkBytesPerSecond = 8e9;
    /// Mk2 tile memory: 208 KiB of non-interleaved memory at the bottom, then 416 KiB
    /// interleaved (Mk2's tile memory map: region 0 from 0x4C000 to 0x80000, region 1 up to
    /// 0xE8000). See simcore/CALIBRATION-NOTES.md for how well this is pinned down.
    static constexpr std::uint64_t kIpu2InterleavedBytesPerTile = 416 * 1024;
    /// Tiles that share an exchange bus (a "super tile": tiles 2t and 2t + 1 of an IPU). Both can
    /// receive the same data in the same cycle, so data they both receive arrives at twice the
    /// exchange rate. PopLibs' planners assume two on every target
    /// (Target::getTilesPerSharedExchangeBus, asserted in poplin's ExchangeEstimator) and lay
    /// convolutions out so that the tiles of a pair read the same input (linearizeConvIndices).
    static constexpr unsigned kTilesPerSharedExchangeBus = 2;

    unsigned numTiles() const { return numIpus * tilesPerIpu; }
    std::uint64_t nonInterleavedBytesPerTile() const {
        return bytesPerTile - interleavedBytesPerTile;
    }

    /// Mk1: 1216 tiles of 256 KiB at 1.6 GHz, all memory non-interleaved.
    static TargetSpec ipu1();
    /// Mk2: 1472 tiles of 624 KiB at 1.33 GHz; the upper 416 KiB of a tile is interleaved memory.
    static TargetSpec ipu2();
    /// The figures for an architecture name; throws std::invalid_argument for unknown names.
    static TargetSpec forArchitecture(const std::string& architecture);
};

} // namespace sim
} // namespace tilescope
