#pragma once
// DeviceManager and DeviceInfo: the simulated devices a session runs on.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace popart {

/// The kinds of device PopART knows; IpuModel, Cpu and Ipu (a simulated Mk2 IPU here) are
/// supported, OfflineIpu compiles without running, Sim is refused.
enum class DeviceType { IpuModel = 0, Cpu, Ipu, OfflineIpu, Sim };
/// When a device is attached: at once, on demand, or never (compile only).
enum class DeviceConnectionType { Always = 0, OnDemand, Never };
/// How IPUs synchronise; recorded only.
enum class SyncPattern { Full = 0, SinglePipeline, ReplicaAndLadder };
/// Which free device acquireAvailableDevice picks.
enum class DeviceSelectionCriterion { First = 0, Random };

struct DeviceInfoImpl;

/// A device a session compiles for and runs on: its type, IPUs and tiles per IPU. Created by
/// DeviceManager; shared by the sessions using it.
class DeviceInfo {
public:
    explicit DeviceInfo(std::unique_ptr<DeviceInfoImpl> impl);
    virtual ~DeviceInfo();
    DeviceInfo(const DeviceInfo&) = delete;
    DeviceInfo& operator=(const DeviceInfo&) = delete;

    bool attach();
    void detach();
    bool isAttached() const;
    DeviceType getType() const;
    DeviceConnectionType getConnectionType() const;
    unsigned getId() const;
    std::string getVersion() const;
    int getNumIpus() const;
    int getTilesPerIPU() const;
    int getNumWorkerContexts() const;
    std::string toString() const;

    /// The implementation (this library's sessions reach the simulated device through it).
    DeviceInfoImpl& impl() const { return *impl_; }

private:
    std::unique_ptr<DeviceInfoImpl> impl_;
};

/// Creates the simulated devices: an IPU Model, a CPU device (one tile), or simulated Mk2
/// IPUs from acquireAvailableDevice / acquireDeviceById (16 of them are "available").
class DeviceManager {
public:
    static DeviceManager& createDeviceManager();

    std::shared_ptr<DeviceInfo> createCpuDevice();
    /// Options: "numIPUs" (1), "tilesPerIPU" (1216), "compileIPUCode" ("false"), "ipuVersion"
    /// ("ipu2" or "ipu1"). An unknown option raises popart::error naming it.
    std::shared_ptr<DeviceInfo>
    createIpuModelDevice(const std::map<std::string, std::string>& options = {});
    std::shared_ptr<DeviceInfo>
    createOfflineIPUDevice(const std::map<std::string, std::string>& options = {});
    std::shared_ptr<DeviceInfo>
    createSimDevice(const std::map<std::string, std::string>& options = {});

    /// Simulated IPUs: numIpus of them (a power of two), tilesPerIpu tiles (0: all 1472).
    std::shared_ptr<DeviceInfo>
    acquireAvailableDevice(int numIpus = 1, int tilesPerIpu = 0,
                           SyncPattern pattern = SyncPattern::Full,
                           DeviceConnectionType connectionType = DeviceConnectionType::Always,
                           DeviceSelectionCriterion criterion = DeviceSelectionCriterion::First);
    std::shared_ptr<DeviceInfo>
    tryAcquireAvailableDevice(int numIpus = 1, int tilesPerIpu = 0,
                              SyncPattern pattern = SyncPattern::Full,
                              DeviceConnectionType connectionType = DeviceConnectionType::Always,
                              DeviceSelectionCriterion criterion = DeviceSelectionCriterion::First);
    std::shared_ptr<DeviceInfo>
    acquireDeviceById(int id, SyncPattern pattern = SyncPattern::Full,
                      DeviceConnectionType connectionType = DeviceConnectionType::Always);
    std::vector<std::shared_ptr<DeviceInfo>>
    enumerateDevices(SyncPattern pattern = SyncPattern::Full, int numIpus = 1,
                     DeviceType deviceType = DeviceType::Ipu,
                     DeviceConnectionType connectionType = DeviceConnectionType::Always,
                     int tilesPerIpu = 0);

private:
    DeviceManager() = default;
};

} // namespace popart
