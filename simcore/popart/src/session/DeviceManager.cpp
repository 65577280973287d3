#include "session/DeviceInfoImpl.hpp"

#include <popart/error.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/TargetType.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>

namespace popart {

namespace {

unsigned parseUnsigned(const std::map<std::string, std::string>& options, const std::string& key,
                       unsigned dflt) {
    auto it = options.find(key);
    if (it == options.end())
        return dflt;
    try {
        std::size_t used = 0;
        const long v = std::stol(it->second, &used);
        if (used == it->second.size() && v >= 0)
            return unsigned(v);
    } catch (const std::exception&) {
    }
    throw error("device option '" + key + "': '" + it->second + "' is not a non-negative integer");
}

std::shared_ptr<DeviceInfo> wrap(poplar::Device device, DeviceType type,
                                 DeviceConnectionType connection) {
    std::unique_ptr<DeviceInfoImpl> impl(new DeviceInfoImpl());
    impl->device = std::move(device);
    impl->type = type;
    impl->connection = connection;
    auto info = std::make_shared<DeviceInfo>(std::move(impl));
    if (connection == DeviceConnectionType::Always)
        info->attach();
    return info;
}

std::shared_ptr<DeviceInfo> ipuModel(const std::map<std::string, std::string>& options,
                                     DeviceType type) {
    for (const auto& o : options)
        if (o.first != "numIPUs" && o.first != "tilesPerIPU" && o.first != "compileIPUCode" &&
            o.first != "ipuVersion" && o.first != "numWorkerContexts")
            throw error("createIpuModelDevice: unknown option '" + o.first +
                        "' (numIPUs, tilesPerIPU, compileIPUCode, ipuVersion, "
                        "numWorkerContexts are known)");
    std::string version = options.count("ipuVersion") ? options.at("ipuVersion") : "ipu2";
    if (version != "ipu1" && version != "ipu2" && version != "ipu21")
        throw error("createIpuModelDevice: ipuVersion '" + version +
                    "' is not ipu1, ipu2 or ipu21");
    poplar::IPUModel model(version.c_str());
    model.numIPUs = parseUnsigned(options, "numIPUs", 1);
    model.tilesPerIPU = parseUnsigned(options, "tilesPerIPU", model.tilesPerIPU);
    model.numWorkerContexts = parseUnsigned(options, "numWorkerContexts", model.numWorkerContexts);
    if (options.count("compileIPUCode")) {
        const std::string& v = options.at("compileIPUCode");
        if (v != "true" && v != "false" && v != "1" && v != "0")
            throw error("createIpuModelDevice: compileIPUCode '" + v + "' is not true or false");
        model.compileIPUCode = v == "true" || v == "1";
    }
    if (model.numIPUs == 0)
        throw error("createIpuModelDevice: numIPUs must be at least 1");
    try {
        return wrap(model.createDevice(), type, DeviceConnectionType::Always);
    } catch (const poplar::poplar_error& e) {
        throw error(std::string("createIpuModelDevice: ") + e.what());
    }
}

} // namespace

DeviceInfo::DeviceInfo(std::unique_ptr<DeviceInfoImpl> impl) : impl_(std::move(impl)) {}
DeviceInfo::~DeviceInfo() {
    if (impl_ && impl_->attached)
        impl_->device.detach();
}

bool DeviceInfo::attach() {
    if (!impl_->attached)
        impl_->attached = impl_->device.attach();
    return impl_->attached;
}

void DeviceInfo::detach() {
    if (impl_->attached)
        impl_->device.detach();
    impl_->attached = false;
}

bool DeviceInfo::isAttached() const {
    return impl_->attached;
}
DeviceType DeviceInfo::getType() const {
    return impl_->type;
}
DeviceConnectionType DeviceInfo::getConnectionType() const {
    return impl_->connection;
}
unsigned DeviceInfo::getId() const {
    return impl_->device.getId();
}
std::string DeviceInfo::getVersion() const {
    return impl_->device.getTarget().getTargetArchString();
}
int DeviceInfo::getNumIpus() const {
    return int(impl_->device.getTarget().getNumIPUs());
}
int DeviceInfo::getTilesPerIPU() const {
    return int(impl_->device.getTarget().getTilesPerIPU());
}
int DeviceInfo::getNumWorkerContexts() const {
    return int(impl_->device.getTarget().getNumWorkerContexts());
}

std::string DeviceInfo::toString() const {
    static const char* const kTypes[] = {"ipu-model", "cpu", "ipu", "offline-ipu", "sim"};
    std::ostringstream out;
    out << "Device Type:" << kTypes[int(getType())] << " Id:" << getId()
        << " Num IPUs:" << getNumIpus() << " Tiles per IPU:" << getTilesPerIPU();
    return out.str();
}

DeviceManager& DeviceManager::createDeviceManager() {
    static DeviceManager manager;
    return manager;
}

std::shared_ptr<DeviceInfo> DeviceManager::createCpuDevice() {
    return wrap(poplar::Device::createCPUDevice(), DeviceType::Cpu, DeviceConnectionType::Always);
}

std::shared_ptr<DeviceInfo>
DeviceManager::createIpuModelDevice(const std::map<std::string, std::string>& options) {
    return ipuModel(options, DeviceType::IpuModel);
}

std::shared_ptr<DeviceInfo>
DeviceManager::createOfflineIPUDevice(const std::map<std::string, std::string>& options) {
    std::map<std::string, std::string> o = options;
    o.erase("syncPattern");
    return ipuModel(o, DeviceType::OfflineIpu);
}

std::shared_ptr<DeviceInfo>
DeviceManager::createSimDevice(const std::map<std::string, std::string>&) {
    throw error("DeviceManager::createSimDevice: the cycle-accurate IPU simulator is not "
                "supported; use createIpuModelDevice or acquireAvailableDevice");
}

std::shared_ptr<DeviceInfo>
DeviceManager::acquireAvailableDevice(int numIpus, int tilesPerIpu, SyncPattern,
                                      DeviceConnectionType connectionType,
                                      DeviceSelectionCriterion) {
    auto d = tryAcquireAvailableDevice(numIpus, tilesPerIpu, SyncPattern::Full, connectionType);
    if (!d)
        throw error("acquireAvailableDevice: no free device of " + std::to_string(numIpus) +
                    " IPUs");
    return d;
}

std::shared_ptr<DeviceInfo>
DeviceManager::tryAcquireAvailableDevice(int numIpus, int tilesPerIpu, SyncPattern,
                                         DeviceConnectionType connectionType,
                                         DeviceSelectionCriterion) {
    if (numIpus <= 0 || (numIpus & (numIpus - 1)) != 0)
        throw error("acquireAvailableDevice: numIpus must be a power of two, not " +
                    std::to_string(numIpus));
    if (tilesPerIpu < 0)
        throw error("acquireAvailableDevice: tilesPerIpu must not be negative");
    auto manager = poplar::DeviceManager::createDeviceManager();
    for (auto& d : manager.getDevices(poplar::TargetType::IPU, unsigned(numIpus))) {
        if (!d.attach())
            continue;
        d.detach();
        poplar::Device device = tilesPerIpu ? d.createVirtualDevice(unsigned(tilesPerIpu)) : d;
        return wrap(std::move(device), DeviceType::Ipu, connectionType);
    }
    return nullptr;
}

std::shared_ptr<DeviceInfo> DeviceManager::acquireDeviceById(int id, SyncPattern,
                                                             DeviceConnectionType connectionType) {
    auto manager = poplar::DeviceManager::createDeviceManager();
    if (id < 0 || std::size_t(id) >= manager.getNumDevices())
        throw error("acquireDeviceById: no device " + std::to_string(id));
    return wrap(manager.getDevice(unsigned(id)), DeviceType::Ipu, connectionType);
}

std::vector<std::shared_ptr<DeviceInfo>>
DeviceManager::enumerateDevices(SyncPattern, int numIpus, DeviceType deviceType,
                                DeviceConnectionType connectionType, int tilesPerIpu) {
    if (deviceType != DeviceType::Ipu)
        throw error("enumerateDevices: only DeviceType::Ipu devices can be enumerated");
    std::vector<std::shared_ptr<DeviceInfo>> out;
    auto manager = poplar::DeviceManager::createDeviceManager();
    for (auto& d : manager.getDevices(poplar::TargetType::IPU, unsigned(numIpus))) {
        poplar::Device device = tilesPerIpu ? d.createVirtualDevice(unsigned(tilesPerIpu)) : d;
        out.push_back(wrap(std::move(device), DeviceType::Ipu, DeviceConnectionType::Never));
        (void)connectionType;
    }
    return out;
}

} // namespace popart
