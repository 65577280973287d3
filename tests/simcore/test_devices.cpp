// Simulated IPU hardware (TILESCOPE_SIMULATED_IPUS): device numbering as the SDK lists devices,
// attach locks shared with other processes, virtual devices, loading an engine on a device, and
// the errors for a missing or invalid variable.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <sys/wait.h>
#include <tilescope/capture/ProfileRecords.hpp>
#include <unistd.h>

using namespace poplar;
using namespace poplar::program;

namespace {

/// Sets TILESCOPE_SIMULATED_IPUS (or unsets it for nullptr) and a lock directory of this test's
/// own for the scope, so tests do not see each other's (or a user's) attached IPUs.
struct SimulatedIpus {
    explicit SimulatedIpus(const char* value) {
        if (value)
            setenv("TILESCOPE_SIMULATED_IPUS", value, 1);
        else
            unsetenv("TILESCOPE_SIMULATED_IPUS");
        lockDir = std::filesystem::temp_directory_path() /
                  ("tilescope-test-ipus-" + std::to_string(::getpid())) / "locks";
        setenv("TILESCOPE_DEVICE_LOCK_DIR", lockDir.c_str(), 1);
    }
    ~SimulatedIpus() {
        unsetenv("TILESCOPE_SIMULATED_IPUS");
        unsetenv("TILESCOPE_DEVICE_LOCK_DIR");
        std::error_code ec;
        std::filesystem::remove_all(lockDir.parent_path(), ec);
    }
    std::filesystem::path lockDir;
};

/// attach() of device `id` in a forked child process: 1 attached, 0 refused, 2 error.
int attachInChild(unsigned id) {
    const pid_t pid = fork();
    if (pid == 0) {
        int code = 2;
        try {
            Device d = DeviceManager::createDeviceManager().getDevice(id);
            code = d.attach() ? 1 : 0;
        } catch (...) {
        }
        _exit(code);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

TEST_CASE("without TILESCOPE_SIMULATED_IPUS there is no hardware and errors name the variable",
          "[devices]") {
    SimulatedIpus env(nullptr);
    auto manager = DeviceManager::createDeviceManager();
    CHECK(manager.getDevices(TargetType::IPU, 1).empty());
    CHECK(manager.getDevices().empty());
    CHECK(manager.getNumDevices() == 0);
    CHECK_THROWS_WITH(manager.getDevice(0), Catch::Contains("TILESCOPE_SIMULATED_IPUS"));
    SimulatedIpus empty("");
    CHECK(manager.getNumDevices() == 0);
}

TEST_CASE("an invalid TILESCOPE_SIMULATED_IPUS is an error naming the variable", "[devices]") {
    for (const char* bad : {"abc", "0", "3", "6", "128", "-2", "4x", " 4", "1024"}) {
        INFO(bad);
        SimulatedIpus env(bad);
        CHECK_THROWS_AS(DeviceManager::createDeviceManager(), poplar_error);
        DeviceManager manager;
        CHECK_THROWS_WITH(manager.getDevices(TargetType::IPU, 1),
                          Catch::Contains("TILESCOPE_SIMULATED_IPUS") && Catch::Contains(bad));
        CHECK_THROWS_WITH(manager.getNumDevices(), Catch::Contains("power of two"));
        CHECK_THROWS_AS(manager.getDevice(0), poplar_error);
    }
}

TEST_CASE("simulated IPUs are numbered as the SDK lists devices", "[devices]") {
    SimulatedIpus env("4");
    auto manager = DeviceManager::createDeviceManager();
    CHECK(manager.getNumDevices() == 7);
    const auto all = manager.getDevices();
    REQUIRE(all.size() == 7);
    const unsigned expectedIpus[] = {1, 1, 1, 1, 2, 2, 4};
    for (unsigned id = 0; id < 7; ++id) {
        INFO(id);
        CHECK(all[id].getId() == id);
        const Target& t = all[id].getTarget();
        CHECK(t.getNumIPUs() == expectedIpus[id]);
        CHECK(t.getTargetType() == TargetType::IPU);
        CHECK(t.getTargetArchString() == "ipu2");
        CHECK(t.getTilesPerIPU() == 1472);
        CHECK(t.getNumTiles() == 1472 * expectedIpus[id]);
        CHECK_FALSE(all[id].isAttached());
    }
    const auto pairs = manager.getDevices(TargetType::IPU, 2);
    REQUIRE(pairs.size() == 2);
    CHECK(pairs[0].getId() == 4);
    CHECK(pairs[1].getId() == 5);
    CHECK(manager.getDevices(TargetType::IPU, 4).size() == 1);
    CHECK(manager.getDevices(TargetType::IPU, 8).empty());
    CHECK(manager.getDevices(TargetType::IPU, 3).empty());
    CHECK(manager.getDevices(TargetType::IPU_MODEL, 1).empty());
    CHECK(manager.getDevice(6).getTarget().getNumIPUs() == 4);
    CHECK_THROWS_WITH(manager.getDevice(7), Catch::Contains("0 to 6"));

    SimulatedIpus sixtyFour("64");
    CHECK(manager.getNumDevices() == 127);
    CHECK(manager.getDevice(126).getTarget().getNumIPUs() == 64);
}

TEST_CASE("attaching claims the device's IPUs until detach", "[devices]") {
    SimulatedIpus env("4");
    auto manager = DeviceManager::createDeviceManager();
    Device ipu0 = manager.getDevice(0);
    REQUIRE(ipu0.attach());
    CHECK(ipu0.isAttached());
    CHECK(ipu0.attach()); // attaching again keeps the claim
    // Another Device object over IPU 0, alone or as part of a pair or the whole machine.
    Device again = manager.getDevice(0);
    CHECK_FALSE(again.attach());
    CHECK_FALSE(again.isAttached());
    Device pair01 = manager.getDevice(4);
    CHECK_FALSE(pair01.attach());
    Device all = manager.getDevice(6);
    CHECK_FALSE(all.attach());
    // Free IPUs attach.
    Device pair23 = manager.getDevice(5);
    CHECK(pair23.attach());
    Device ipu1 = manager.getDevice(1);
    CHECK(ipu1.attach());
    // A copy shares the attachment.
    Device copy = ipu0;
    CHECK(copy.isAttached());
    ipu0.detach();
    CHECK_FALSE(copy.isAttached());
    CHECK(again.attach());
    again.detach();
    ipu1.detach();
    CHECK(pair01.attach());
    CHECK_FALSE(all.attach()); // a failed multi-IPU attach releases what it had claimed
    pair01.detach();
    pair23.detach();
    CHECK(all.attach());
    all.detach();
}

TEST_CASE("a second process cannot attach an IPU this process holds", "[devices]") {
    SimulatedIpus env("2");
    auto manager = DeviceManager::createDeviceManager();
    Device ipu0 = manager.getDevice(0);
    REQUIRE(ipu0.attach());
    CHECK(attachInChild(0) == 0);
    CHECK(attachInChild(2) == 0); // the pair over IPUs 0 and 1
    CHECK(attachInChild(1) == 1);
    ipu0.detach();
    CHECK(attachInChild(0) == 1);
    CHECK(attachInChild(2) == 1); // the child's claims ended with it
}

TEST_CASE("a device held by an exited process is free again", "[devices]") {
    SimulatedIpus env("1");
    const pid_t pid = fork();
    if (pid == 0) {
        Device d = DeviceManager::createDeviceManager().getDevice(0);
        _exit(d.attach() ? 0 : 1); // exits holding the IPU
    }
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    Device d = DeviceManager::createDeviceManager().getDevice(0);
    CHECK(d.attach());
}

TEST_CASE("engines load on attached simulated devices only and the report says simulated",
          "[devices][engine]") {
    SimulatedIpus env("2");
    auto devices = DeviceManager::createDeviceManager().getDevices(TargetType::IPU, 1);
    REQUIRE(devices.size() == 2);
    Device device = devices[1].createVirtualDevice(4);
    CHECK(device.getTarget().getTilesPerIPU() == 4);
    CHECK(device.getTarget().getTargetType() == TargetType::IPU);
    CHECK(device.getId() == 1);
    CHECK_THROWS_AS(devices[1].createVirtualDevice(0), poplar_error);
    CHECK_THROWS_AS(devices[1].createVirtualDevice(1473), poplar_error);

    Graph g(device.getTarget());
    Tensor x = g.addVariable(INT, {4}, "x");
    g.setTileMapping(x, 3);
    g.createHostWrite("x", x);
    g.createHostRead("x", x);
    Engine engine(g, Sequence{});
    CHECK(engine.compileRecords().target.type == "IPU (simulated)");
    CHECK(engine.compileRecords().target.tilesPerIpu == 4);
    CHECK_THROWS_WITH(engine.load(device), Catch::Contains("not attached"));
    // The virtual device shares the attachment of the device it was made from.
    REQUIRE(devices[1].attach());
    CHECK(device.isAttached());
    engine.load(device);
    const int in[4] = {1, 2, 3, 4};
    int out[4] = {};
    engine.writeTensor("x", in, in + 4);
    engine.run();
    engine.readTensor("x", out, out + 4);
    CHECK(out[3] == 4);
    devices[1].detach();

    // Model devices stay attached unless detached.
    Device model = IPUModel().createDevice();
    CHECK(model.isAttached());
    model.detach();
    Graph mg(model.getTarget());
    Engine modelEngine(mg, Sequence{});
    CHECK(modelEngine.compileRecords().target.type == "IPU_MODEL");
    CHECK_THROWS_AS(modelEngine.load(model), poplar_error);
}

TEST_CASE("an unusable lock directory is an error naming the variable", "[devices]") {
    SimulatedIpus env("1");
    setenv("TILESCOPE_DEVICE_LOCK_DIR", "/proc/tilescope-no-such-dir", 1);
    Device d = DeviceManager::createDeviceManager().getDevice(0);
    CHECK_THROWS_WITH(d.attach(), Catch::Contains("/proc/tilescope-no-such-dir") &&
                                      Catch::Contains("TILESCOPE_DEVICE_LOCK_DIR"));
    CHECK_FALSE(d.isAttached());
}

TEST_CASE("acquireAvailableDevice attaches the first free device of the size asked for",
          "[devices]") {
    SimulatedIpus ipus("2");
    auto manager = DeviceManager::createDeviceManager();
    Device first = manager.acquireAvailableDevice(1);
    CHECK(first.getId() == 0);
    CHECK(first.isAttached());
    Device second = manager.acquireAvailableDevice(1);
    CHECK(second.getId() == 1);
    CHECK_THROWS_WITH(manager.acquireAvailableDevice(1),
                      Catch::Contains("all 2 devices of 1 IPU(s) are in use"));
    CHECK_THROWS_WITH(manager.acquireAvailableDevice(2),
                      Catch::Contains("all 1 devices of 2 IPU(s) are in use"));
    CHECK_THROWS_WITH(manager.acquireAvailableDevice(4),
                      Catch::Contains("no device of 4 IPU(s)"));
    first.detach();
    CHECK(manager.acquireAvailableDevice(1).getId() == 0);
}

TEST_CASE("acquireAvailableDevice without hardware names TILESCOPE_SIMULATED_IPUS", "[devices]") {
    SimulatedIpus ipus(nullptr);
    CHECK_THROWS_WITH(DeviceManager::createDeviceManager().acquireAvailableDevice(1),
                      Catch::Contains("TILESCOPE_SIMULATED_IPUS"));
}
