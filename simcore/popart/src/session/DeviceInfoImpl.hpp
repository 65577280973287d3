#pragma once
// What a popart::DeviceInfo holds: the simulated poplar::Device and how it was made.

#include <popart/devicemanager.hpp>
#include <poplar/Device.hpp>

namespace popart {

struct DeviceInfoImpl {
    poplar::Device device;
    DeviceType type = DeviceType::IpuModel;
    DeviceConnectionType connection = DeviceConnectionType::Always;
    bool attached = false;
};

} // namespace popart
