#include "poplar/Device.hpp"

#include "DeviceSupport.hpp"
#include "poplar/exceptions.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <sys/file.h>
#include <unistd.h>
#include <vector>

namespace poplar {

namespace sim = tilescope::sim;

/// The IPUs of a simulated hardware device and, while attached, the lock files that claim them.
/// Each IPU is claimed by an exclusive flock() on <lock dir>/ipu<N>.lock; flock locks belong to the
/// open file, so another process and another open of the same file in this process both see the
/// IPU as taken, and the kernel releases them when the process exits.
struct Device::HardwareLock {
    unsigned firstIpu = 0;
    unsigned numIpus = 0;
    std::vector<int> fds; ///< one per IPU while attached
    std::mutex mutex;

    ~HardwareLock() { release(); }

    void release() {
        for (int fd : fds)
            ::close(fd); // closing the last descriptor of the open file drops its flock
        fds.clear();
    }

    bool acquire() {
        const std::string dir = sim::simulatedIpuLockDirectory();
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec)
            throw poplar_error("Device::attach: cannot create the IPU lock directory '" + dir +
                               "': " + ec.message() +
                               " (set TILESCOPE_DEVICE_LOCK_DIR to a writable directory)");
        for (unsigned ipu = firstIpu; ipu < firstIpu + numIpus; ++ipu) {
            const std::string file = dir + "/ipu" + std::to_string(ipu) + ".lock";
            const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
            if (fd < 0) {
                const int err = errno;
                release();
                throw poplar_error("Device::attach: cannot open the IPU lock file '" + file +
                                   "': " + std::strerror(err));
            }
            int rc;
            do
                rc = ::flock(fd, LOCK_EX | LOCK_NB);
            while (rc != 0 && errno == EINTR);
            if (rc != 0) {
                const int err = errno;
                ::close(fd);
                release();
                if (err == EWOULDBLOCK)
                    return false; // held by another process or another Device
                throw poplar_error("Device::attach: cannot lock '" + file +
                                   "': " + std::strerror(err));
            }
            fds.push_back(fd);
        }
        return true;
    }
};

Device::Device() : id_(0), attached_(true) {}

Device::Device(Target target, unsigned id) : target_(std::move(target)), id_(id), attached_(true) {}

Device::Device(const Device&) = default;
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(const Device&) = default;
Device& Device::operator=(Device&&) noexcept = default;
Device::~Device() = default;

bool Device::attach() {
    if (!hardware_)
        return attached_ = true;
    std::lock_guard<std::mutex> lock(hardware_->mutex);
    if (!hardware_->fds.empty())
        return true; // this device (or a copy sharing its attachment) already holds the IPUs
    return hardware_->acquire();
}

void Device::detach() {
    if (!hardware_) {
        attached_ = false;
        return;
    }
    std::lock_guard<std::mutex> lock(hardware_->mutex);
    hardware_->release();
}

bool Device::isAttached() const {
    if (!hardware_)
        return attached_;
    std::lock_guard<std::mutex> lock(hardware_->mutex);
    return !hardware_->fds.empty();
}

Device Device::createVirtualDevice(unsigned tilesPerIPU) {
    const unsigned have = target_.getTilesPerIPU();
    if (tilesPerIPU == 0 || tilesPerIPU > have)
        throw poplar_error("Device::createVirtualDevice: tilesPerIPU must be between 1 and " +
                           std::to_string(have) + ", got " + std::to_string(tilesPerIPU));
    auto spec = target_.spec();
    spec.tilesPerIpu = tilesPerIPU;
    Device virtualDevice(*this);
    virtualDevice.target_ = Target(spec, target_.getTargetType());
    return virtualDevice;
}

Device Device::createCPUDevice() {
    auto spec = sim::TargetSpec::ipu2();
    spec.tilesPerIpu = 1;
    spec.compileIpuCode = false; // the CPU target runs no IPU code
    return Device(Target(spec, TargetType::CPU));
}

Device Device::createSimulatedIPUDevice(unsigned id, unsigned firstIpu, unsigned numIpus) {
    auto spec = sim::TargetSpec::ipu2();
    spec.numIpus = numIpus;
    spec.deviceType = "IPU (simulated)";
    Device d(Target(spec, TargetType::IPU), id);
    d.attached_ = false;
    d.hardware_ = std::make_shared<HardwareLock>();
    d.hardware_->firstIpu = firstIpu;
    d.hardware_->numIpus = numIpus;
    return d;
}

} // namespace poplar
