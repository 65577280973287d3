#pragma once
#include "poplar/Device.hpp"

// <algorithm>: programs pick a device with std::find_if(devices..., attach) without including it.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace poplar {

/// Finds IPU hardware. The simulator offers simulated Mk2 IPUs when TILESCOPE_SIMULATED_IPUS=N
/// (N a power of two, 1 to 64) is set: devices 0..N-1 are the single IPUs, then the devices of 2
/// IPUs (0-1, 2-3, ...), of 4, ... up to one device of all N, numbered as the SDK's `gc-info -l`
/// lists them. Unset, there is no hardware: getDevices() returns an empty list (and says on stderr
/// once how to get some) and getDevice() throws poplar_error naming the variable. An invalid value
/// makes every call throw poplar_error naming the variable.
class DeviceManager {
public:
    static DeviceManager createDeviceManager();
    /// The devices of `numIPUs` IPUs (attached or not: call attach() to claim one).
    std::vector<Device> getDevices(TargetType type, unsigned numIPUs,
                                   const OptionFlags& opts = {}) const;
    /// Every device.
    std::vector<Device> getDevices() const;
    std::size_t getNumDevices() const;
    Device getDevice(unsigned deviceManagerId, const OptionFlags& opts = {}) const;
    /// The first device of `numIPUs` IPUs that attach() can claim, attached. Throws poplar_error
    /// naming the count when there is none or all are in use.
    Device acquireAvailableDevice(unsigned numIPUs = 1, const OptionFlags& opts = {}) const;
};

} // namespace poplar
