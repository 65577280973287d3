#include "tilescope/sim/CostModel.hpp"

#include <cmath>

namespace tilescope::sim {

std::uint64_t CostModel::streamCopyCycles(const TargetSpec& t, std::uint64_t bytes) const {
    const double seconds = static_cast<double>(bytes) / t.hostLinkBytesPerSecond;
    return streamCopyLatencyCycles + static_cast<std::uint64_t>(std::ceil(seconds * t.tileClockHz));
}

std::uint64_t CostModel::syncCycles(const TargetSpec& t, bool /*external*/) const {
    std::uint64_t cycles = t.minIpuSyncDelay;
    if (t.relativeSyncDelay && t.tilesPerColumn > 0) {
        // Columns sit on both sides of the spine: the furthest is half the columns away.
        const std::uint64_t columns = (t.tilesPerIpu + t.tilesPerColumn - 1) / t.tilesPerColumn;
        cycles += relativeSyncDelayCyclesPerColumn * ((columns + 1) / 2);
    }
    return cycles;
}

std::uint64_t CostModel::exchangeCycles(const TargetSpec& t, std::uint64_t transferCycles,
                                        std::uint64_t bytes, bool global) const {
    std::uint64_t cycles = exchangeOverheadCycles + transferCycles;
    if (global) {
        const double seconds = static_cast<double>(bytes) / t.interIpuBytesPerSecond;
        cycles += globalExchangeLatencyCycles +
                  static_cast<std::uint64_t>(std::ceil(seconds * t.tileClockHz));
    }
    return cycles;
}

std::uint64_t CostModel::ipuLinkRingStepCycles(const TargetSpec& t, std::uint64_t bytes) const {
    const double seconds = static_cast<double>(bytes) / t.interIpuBytesPerSecond;
    return exchangeOverheadCycles + globalExchangeLatencyCycles +
           static_cast<std::uint64_t>(std::ceil(seconds * t.tileClockHz));
}

} // namespace tilescope::sim
