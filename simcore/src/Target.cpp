#include "poplar/Target.hpp"

#include "poplar/DeviceManager.hpp"
#include "poplar/IPUModel.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/exceptions.hpp"

#include <iostream>
#include <mutex>
#include <stdexcept>

namespace tilescope::sim {

TargetSpec TargetSpec::ipu1() {
    TargetSpec t;
    t.architecture = "ipu1";
    t.tilesPerIpu = 1216;
    t.bytesPerTile = 256 * 1024;
    t.interleavedBytesPerTile = 0;
    t.tileClockHz = 1.6e9;
    t.hostLinkBytesPerSecond = 12e9; // PCIe Gen3 x16, usable
    return t;
}

TargetSpec TargetSpec::ipu2() {
    TargetSpec t;
    t.architecture = "ipu2";
    t.tilesPerIpu = 1472;
    t.bytesPerTile = 624 * 1024;
    t.interleavedBytesPerTile = 464 * 1024;
    t.tileClockHz = 1.33e9;
    return t;
}

TargetSpec TargetSpec::forArchitecture(const std::string& architecture) {
    if (architecture == "ipu1")
        return ipu1();
    if (architecture == "ipu2")
        return ipu2();
    throw std::invalid_argument(architecture);
}

} // namespace tilescope::sim

namespace poplar {

namespace sim = tilescope::sim;

namespace {
sim::TargetSpec specFor(StringRef systemType, const char* what) {
    try {
        return sim::TargetSpec::forArchitecture(std::string(systemType));
    } catch (const std::invalid_argument&) {
        throw invalid_option(std::string(what) + ": unknown IPU architecture '" +
                             std::string(systemType) + "' (known: ipu1, ipu2)");
    }
}
} // namespace

const std::string& OptionFlags::at(const std::string& option) const {
    static const std::string empty;
    auto it = values_.find(option);
    return it == values_.end() ? empty : it->second;
}

Target Target::createIPUTarget(unsigned numIPUs, StringRef systemType, const OptionFlags&) {
    auto spec = specFor(systemType, "createIPUTarget");
    if (numIPUs == 0)
        throw invalid_option("createIPUTarget: numIPUs must be at least 1");
    spec.numIpus = numIPUs;
    return Target(spec);
}

Target Target::createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU, StringRef systemType,
                               const OptionFlags& opts) {
    Target t = createIPUTarget(numIPUs, systemType, opts);
    auto spec = t.spec();
    if (tilesPerIPU == 0 || tilesPerIPU > spec.tilesPerIpu)
        throw invalid_option("createIPUTarget: tilesPerIPU must be between 1 and " +
                             std::to_string(spec.tilesPerIpu) + " for " + spec.architecture +
                             ", got " + std::to_string(tilesPerIPU));
    spec.tilesPerIpu = tilesPerIPU;
    return Target(spec);
}

Device Device::createCPUDevice() {
    auto spec = sim::TargetSpec::ipu2();
    spec.tilesPerIpu = 1;
    return Device(Target(spec, TargetType::CPU));
}

IPUModel::IPUModel(const char* version) : ipuVersion(version ? version : "ipu2") {
    auto spec = specFor(ipuVersion, "IPUModel");
    tilesPerIPU = spec.tilesPerIpu;
    memoryBytesPerTile = spec.bytesPerTile;
    numWorkerContexts = spec.numWorkerContexts;
    tileClockFrequency = spec.tileClockHz;
}

Device IPUModel::createDevice(const OptionFlags&, bool, unsigned deviceManagerId) const {
    auto spec = specFor(ipuVersion, "IPUModel::createDevice");
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
    return Device(Target(spec, TargetType::IPU_MODEL), deviceManagerId);
}

DeviceManager DeviceManager::createDeviceManager() {
    return DeviceManager();
}

std::vector<Device> DeviceManager::getDevices(TargetType type, unsigned numIPUs,
                                              const OptionFlags&) const {
    static std::once_flag told;
    if (type == TargetType::IPU)
        std::call_once(told, [numIPUs] {
            std::cerr << "TileScope: no IPU hardware is present (asked for " << numIPUs
                      << " IPU(s)); use poplar::IPUModel to run on the simulated IPU.\n";
        });
    return {};
}

std::vector<Device> DeviceManager::getDevices() const {
    return {};
}

Device DeviceManager::getDevice(unsigned deviceManagerId, const OptionFlags&) const {
    throw poplar_error("DeviceManager::getDevice: no hardware device " +
                       std::to_string(deviceManagerId) +
                       " (TileScope simulates IPUs; use poplar::IPUModel)");
}

} // namespace poplar
