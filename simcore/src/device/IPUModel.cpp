#include "poplar/IPUModel.hpp"

#include "DeviceSupport.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace sim = tilescope::sim;

IPUModel::IPUModel(const char* version) : ipuVersion(version ? version : "ipu2") {
    auto spec = sim::targetSpecFor(ipuVersion, "IPUModel");
    tilesPerIPU = spec.tilesPerIpu;
    memoryBytesPerTile = spec.bytesPerTile;
    numWorkerContexts = spec.numWorkerContexts;
    tileClockFrequency = spec.tileClockHz;
}

Device IPUModel::createDevice(const OptionFlags&, bool, unsigned deviceManagerId) const {
    auto spec = sim::targetSpecFor(ipuVersion, "IPUModel::createDevice");
    if (numIPUs == 0 || tilesPerIPU == 0 || memoryBytesPerTile == 0 || numWorkerContexts == 0 ||
        tileClockFrequency <= 0)
        throw invalid_option("IPUModel::createDevice: numIPUs, tilesPerIPU, memoryBytesPerTile, "
                             "numWorkerContexts and tileClockFrequency must be positive");
    // Keep the interleaved share of memory when the tile size is changed.
    const double interleavedShare =
        static_cast<double>(spec.interleavedBytesPerTile) / static_cast<double>(spec.bytesPerTile);
    spec.numIpus = numIPUs;
    spec.tilesPerIpu = tilesPerIPU;
    spec.bytesPerTile = memoryBytesPerTile;
    spec.interleavedBytesPerTile =
        static_cast<std::uint64_t>(interleavedShare * static_cast<double>(memoryBytesPerTile)) / 8 *
        8;
    spec.numWorkerContexts = numWorkerContexts;
    spec.tileClockHz = tileClockFrequency;
    spec.compileIpuCode = compileIPUCode;
    spec.minIpuSyncDelay = minIPUSyncDelay;
    spec.relativeSyncDelay = relativeSyncDelay == RelativeSyncDelayType::AUTO;
    spec.hostLinkBytesPerSecond = sim::TargetSpec::kIpuModelHostLinkBytesPerSecond;
    return Device(Target(spec, TargetType::IPU_MODEL), deviceManagerId);
}

} // namespace poplar
