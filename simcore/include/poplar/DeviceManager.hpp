#pragma once
#include "poplar/Device.hpp"

#include <vector>

namespace poplar {

/// Finds IPU hardware. The simulator has none: getDevices() returns an empty list (and says so on
/// stderr once), so programs fall back to IPUModel as they do on a machine without IPUs.
class DeviceManager {
public:
    static DeviceManager createDeviceManager();
    std::vector<Device> getDevices(TargetType type, unsigned numIPUs,
                                   const OptionFlags& opts = {}) const;
    std::vector<Device> getDevices() const;
    std::size_t getNumDevices() const { return 0; }
    /// Throws poplar_error: there are no hardware devices to return.
    Device getDevice(unsigned deviceManagerId, const OptionFlags& opts = {}) const;
};

} // namespace poplar
