#include "poplar/DeviceManager.hpp"

#include "DeviceSupport.hpp"
#include "poplar/exceptions.hpp"

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <unistd.h>

namespace tilescope::sim {

unsigned simulatedIpuCount() {
    const char* value = std::getenv(simulatedIpusVariable);
    if (!value || !*value)
        return 0;
    const std::string text = value;
    unsigned long n = 0;
    bool digits = text.size() <= 3;
    for (char c : text) {
        if (c < '0' || c > '9') {
            digits = false;
            break;
        }
        n = n * 10 + static_cast<unsigned long>(c - '0');
    }
    if (!digits || n == 0 || n > 64 || (n & (n - 1)) != 0)
        throw poplar::poplar_error(std::string(simulatedIpusVariable) + "='" + text +
                                   "' is not valid: set it to the number of simulated IPUs, a "
                                   "power of two from 1 to 64 (1, 2, 4, 8, 16, 32 or 64)");
    return static_cast<unsigned>(n);
}

std::string simulatedIpuLockDirectory() {
    if (const char* dir = std::getenv("TILESCOPE_DEVICE_LOCK_DIR"); dir && *dir)
        return dir;
    const char* runtime = std::getenv("XDG_RUNTIME_DIR");
    const std::string base = runtime && *runtime ? runtime : "/tmp";
    return base + "/tilescope-ipus-" + std::to_string(::getuid());
}

} // namespace tilescope::sim

namespace poplar {

namespace sim = tilescope::sim;

namespace {

/// Every simulated device in `gc-info -l` order: the single IPUs, then the groups of 2, 4, ... N.
std::vector<Device> allSimulatedDevices(unsigned numIpus) {
    std::vector<Device> devices;
    unsigned id = 0;
    for (unsigned size = 1; size <= numIpus && numIpus; size *= 2)
        for (unsigned first = 0; first < numIpus; first += size)
            devices.push_back(Device::createSimulatedIPUDevice(id++, first, size));
    return devices;
}

std::string simulateHint() {
    return std::string("set ") + sim::simulatedIpusVariable +
           "=N (N a power of two up to 64) to simulate N IPUs, or use poplar::IPUModel";
}

} // namespace

DeviceManager DeviceManager::createDeviceManager() {
    sim::simulatedIpuCount(); // an invalid value is reported as early as possible
    return DeviceManager();
}

std::vector<Device> DeviceManager::getDevices(TargetType type, unsigned numIPUs,
                                              const OptionFlags&) const {
    const unsigned available = sim::simulatedIpuCount();
    if (type != TargetType::IPU)
        return {};
    if (available == 0) {
        static std::once_flag told;
        std::call_once(told, [numIPUs] {
            std::cerr << "TileScope: no IPU hardware is present (asked for " << numIPUs
                      << " IPU(s)); " << simulateHint() << ".\n";
        });
        return {};
    }
    std::vector<Device> matching;
    for (auto& d : allSimulatedDevices(available))
        if (d.getTarget().getNumIPUs() == numIPUs)
            matching.push_back(std::move(d));
    return matching;
}

std::vector<Device> DeviceManager::getDevices() const {
    return allSimulatedDevices(sim::simulatedIpuCount());
}

std::size_t DeviceManager::getNumDevices() const {
    const unsigned n = sim::simulatedIpuCount();
    return n ? 2 * n - 1 : 0;
}

Device DeviceManager::getDevice(unsigned deviceManagerId, const OptionFlags&) const {
    const unsigned n = sim::simulatedIpuCount();
    auto devices = allSimulatedDevices(n);
    if (deviceManagerId >= devices.size()) {
        if (n == 0)
            throw poplar_error("DeviceManager::getDevice: no device " +
                               std::to_string(deviceManagerId) + ": no IPU hardware is present; " +
                               simulateHint());
        throw poplar_error("DeviceManager::getDevice: no device " +
                           std::to_string(deviceManagerId) + ": " + sim::simulatedIpusVariable +
                           "=" + std::to_string(n) + " gives devices 0 to " +
                           std::to_string(devices.size() - 1));
    }
    return devices[deviceManagerId];
}

} // namespace poplar
