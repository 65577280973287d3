#pragma once
// The device a graph is built for: tile count, memory per tile, clocks and type sizes.

#include "poplar/OptionFlags.hpp"
#include "poplar/StringRef.hpp"
#include "poplar/TargetType.hpp"
#include "poplar/Type.hpp"
#include "tilescope/sim/TargetSpec.hpp"

#include <cstdint>
#include <string>

namespace poplar {

/// Figures of a (simulated) IPU system. Obtained from Device::getTarget() or created directly
/// with createIPUTarget to build graphs without a device.
class Target {
public:
    Target() = default;
    explicit Target(tilescope::sim::TargetSpec spec, TargetType type = TargetType::IPU_MODEL)
        : spec_(std::move(spec)), type_(type) {}

    /// A target for `numIPUs` IPUs of architecture `systemType` ("ipu1" or "ipu2").
    static Target createIPUTarget(unsigned numIPUs, StringRef systemType,
                                  const OptionFlags& opts = {});
    static Target createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU, StringRef systemType,
                                  const OptionFlags& opts = {});

    TargetType getTargetType() const { return type_; }
    std::string getTargetArchString() const { return spec_.architecture; }
    unsigned getNumIPUs() const { return spec_.numIpus; }
    unsigned getTilesPerIPU() const { return spec_.tilesPerIpu; }
    unsigned getNumTiles() const { return spec_.numTiles(); }
    std::uint64_t getBytesPerTile() const { return spec_.bytesPerTile; }
    std::uint64_t getMemoryBytes() const { return spec_.bytesPerTile * spec_.numTiles(); }
    unsigned getNumWorkerContexts() const { return spec_.numWorkerContexts; }
    unsigned getExchangeBytesPerCycle() const { return spec_.exchangeBytesPerCycle; }
    bool supportsExchangeBusSharing() const { return true; }
    unsigned getTilesPerSharedExchangeBus() const {
        return tilescope::sim::TargetSpec::kTilesPerSharedExchangeBus;
    }
    double getTileClockFrequency() const { return spec_.tileClockHz; }
    unsigned getDataPathWidth() const { return spec_.dataPathWidthBits; }
    unsigned getTypeSize(const Type& t) const { return tilescope::sim::elementSize(t.native()); }
    /// Elements of `t` one data-path-wide access handles (FLOAT: 2, HALF: 4 on 64-bit paths).
    unsigned getVectorWidth(const Type& t) const {
        return spec_.dataPathWidthBits / 8 / getTypeSize(t);
    }
    unsigned getFloatVectorWidth() const { return getVectorWidth(FLOAT); }
    unsigned getHalfVectorWidth() const { return getVectorWidth(HALF); }
    unsigned getAtomicStoreGranularity() const { return 4; }
    unsigned getNumStrideBits() const { return 10; }

    const tilescope::sim::TargetSpec& spec() const { return spec_; }

private:
    tilescope::sim::TargetSpec spec_;
    TargetType type_ = TargetType::IPU_MODEL;
};

} // namespace poplar
