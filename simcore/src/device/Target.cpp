#include "poplar/Target.hpp"

#include "DeviceSupport.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/exceptions.hpp"

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
    t.interleavedBytesPerTile = kIpu2InterleavedBytesPerTile;
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

TargetSpec targetSpecFor(poplar::StringRef systemType, const char* what) {
    try {
        return TargetSpec::forArchitecture(std::string(systemType));
    } catch (const std::invalid_argument&) {
        throw poplar::invalid_option(std::string(what) + ": unknown IPU architecture '" +
                                     std::string(systemType) + "' (known: ipu1, ipu2)");
    }
}

} // namespace tilescope::sim

namespace poplar {

namespace sim = tilescope::sim;

const std::string& OptionFlags::at(const std::string& option) const {
    static const std::string empty;
    auto it = values_.find(option);
    return it == values_.end() ? empty : it->second;
}

Target Target::createIPUTarget(unsigned numIPUs, StringRef systemType, const OptionFlags&) {
    auto spec = sim::targetSpecFor(systemType, "createIPUTarget");
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

} // namespace poplar
