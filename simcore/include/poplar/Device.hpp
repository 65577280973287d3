#pragma once
#include "poplar/Target.hpp"

#include <memory>
#include <utility>

namespace poplar {

/// A device graphs run on: an IPU model (always attached), the CPU device, or a simulated IPU
/// hardware device from DeviceManager (TILESCOPE_SIMULATED_IPUS). A hardware device must be
/// attached before Engine::load; attach() returns false while another process (or another attached
/// Device of this process) holds one of its IPUs, as on real hardware. Copies of a hardware device,
/// and virtual devices made from it, share its attachment.
class Device {
public:
    Device();
    explicit Device(Target target, unsigned id = 0);
    Device(const Device&);
    Device(Device&&) noexcept;
    Device& operator=(const Device&);
    Device& operator=(Device&&) noexcept;
    ~Device();

    const Target& getTarget() const { return target_; }
    unsigned getId() const { return id_; }
    /// Claims the device's IPUs; false if any is held elsewhere. Models always succeed.
    bool attach();
    /// Releases the device's IPUs (also done when the process exits).
    void detach();
    bool isAttached() const;
    /// Remote buffers (Graph::addRemoteBuffer) work on every simulated device.
    bool supportsRemoteBuffers() const { return true; }
    /// Simulated devices model IPUs without an IPU-Gateway.
    bool hasGateway() const { return false; }
    /// A device over the same IPUs with only `tilesPerIPU` tiles on each; it shares this device's
    /// attachment. Throws poplar_error if tilesPerIPU is 0 or more than the device has.
    Device createVirtualDevice(unsigned tilesPerIPU);
    static Device createCPUDevice();

    // --- TileScope extensions ---
    /// A simulated IPU hardware device over the given IPU numbers (as DeviceManager makes them).
    static Device createSimulatedIPUDevice(unsigned id, unsigned firstIpu, unsigned numIpus);
    /// True for devices from DeviceManager (simulated IPU hardware).
    bool isSimulatedHardware() const { return static_cast<bool>(hardware_); }

private:
    struct HardwareLock;
    Target target_;
    unsigned id_;
    bool attached_; ///< models and the CPU device
    std::shared_ptr<HardwareLock> hardware_;
};

} // namespace poplar
