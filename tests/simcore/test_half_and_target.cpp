// Element types, IEEE binary16 rounding, and the target figures of Mk1 and Mk2.

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <poplar/DeviceManager.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;

TEST_CASE("half converts with round-to-nearest-even", "[half]") {
    CHECK(half(1.0f).bits() == 0x3c00);
    CHECK(half(-2.0f).bits() == 0xc000);
    CHECK(half(0.1f).bits() == 0x2e66);
    CHECK(half(65504.0f).bits() == 0x7bff);              // largest finite
    CHECK(half(65519.0f).bits() == 0x7bff);              // rounds down
    CHECK(half(65520.0f).bits() == 0x7c00);              // rounds to infinity
    CHECK(half(std::ldexp(1.0f, -24)).bits() == 0x0001); // smallest subnormal
    CHECK(half(std::ldexp(1.0f, -25)).bits() == 0x0000); // tie to even: 0
    CHECK(half(std::ldexp(3.0f, -25)).bits() == 0x0002); // tie to even: 2
    CHECK(half(2049.0f).bits() == 0x6800);               // 2048: tie to even
    CHECK(half(2051.0f).bits() == 0x6802);               // 2052: tie to even
    CHECK(half(1.0f + std::ldexp(1.0f, -11)).bits() == 0x3c00);
    CHECK(half(std::numeric_limits<float>::infinity()).bits() == 0x7c00);
    CHECK(std::isnan(float(half(std::numeric_limits<float>::quiet_NaN()))));
    CHECK(float(half::fromBits(0x0001)) == std::ldexp(1.0f, -24));
    CHECK(float(half::fromBits(0x3555)) == Approx(0.333251953125f).margin(0));
    for (std::uint32_t b = 0; b < 0x7c00; ++b) // every finite positive half round-trips
        REQUIRE(half(float(half::fromBits(static_cast<std::uint16_t>(b)))).bits() == b);
}

TEST_CASE("types have Poplar's names and sizes", "[types]") {
    const Target t = Target::createIPUTarget(1, "ipu2");
    CHECK(t.getTypeSize(FLOAT) == 4);
    CHECK(t.getTypeSize(HALF) == 2);
    CHECK(t.getTypeSize(INT) == 4);
    CHECK(t.getTypeSize(UNSIGNED_SHORT) == 2);
    CHECK(t.getTypeSize(BOOL) == 1);
    CHECK(t.getTypeSize(CHAR) == 1);
    CHECK(FLOAT.toString() == "float");
    CHECK(UNSIGNED_INT.toString() == "unsigned int");
    CHECK(equivalent_device_type<half>().value == HALF);
    CHECK(equivalent_device_type<unsigned short>().value == UNSIGNED_SHORT);
    CHECK(t.getVectorWidth(FLOAT) == 2);
    CHECK(t.getVectorWidth(HALF) == 4);
    CHECK(t.getDataPathWidth() == 64);
}

TEST_CASE("IPUModel and Target give the real Mk1 and Mk2 figures", "[target]") {
    const Device mk2 = IPUModel().createDevice();
    const Target& t2 = mk2.getTarget();
    CHECK(t2.getTargetArchString() == "ipu2");
    CHECK(t2.getTargetType() == TargetType::IPU_MODEL);
    CHECK(t2.getNumIPUs() == 1);
    CHECK(t2.getTilesPerIPU() == 1472);
    CHECK(t2.getNumTiles() == 1472);
    CHECK(t2.getBytesPerTile() == 624 * 1024);
    CHECK(t2.getNumWorkerContexts() == 6);
    CHECK(t2.getTileClockFrequency() == Approx(1.33e9));
    CHECK(t2.getExchangeBytesPerCycle() == 4);

    const Device mk1 = IPUModel("ipu1").createDevice();
    CHECK(mk1.getTarget().getTilesPerIPU() == 1216);
    CHECK(mk1.getTarget().getBytesPerTile() == 256 * 1024);
    CHECK(mk1.getTarget().spec().interleavedBytesPerTile == 0);

    IPUModel custom("ipu2");
    custom.numIPUs = 2;
    custom.tilesPerIPU = 8;
    const Device d = custom.createDevice();
    CHECK(d.getTarget().getNumIPUs() == 2);
    CHECK(d.getTarget().getNumTiles() == 16);

    CHECK(Target::createIPUTarget(4, "ipu1").getNumTiles() == 4 * 1216);
    CHECK(Target::createIPUTarget(1, 16, "ipu2").getNumTiles() == 16);
    CHECK_THROWS_AS(IPUModel("ipu9"), invalid_option);
    CHECK_THROWS_WITH(Target::createIPUTarget(1, "gc9000"), Catch::Contains("gc9000"));
}

TEST_CASE("DeviceManager finds no hardware so programs fall back to the model", "[target]") {
    unsetenv("TILESCOPE_SIMULATED_IPUS");
    auto manager = DeviceManager::createDeviceManager();
    CHECK(manager.getDevices(TargetType::IPU, 1).empty());
    CHECK(manager.getNumDevices() == 0);
    CHECK_THROWS_AS(manager.getDevice(0), poplar_error);
}

TEST_CASE("HalfFloat converts host buffers to and from device halves", "[half]") {
    const Target t = Target::createIPUTarget(1, "ipu2");
    const float in[4] = {0.1f, -1.5f, 65520.0f, 3.0f};
    std::uint16_t device[4];
    copyFloatToDeviceHalf(t, in, device, 4);
    CHECK(device[0] == 0x2e66);
    CHECK(device[1] == 0xbe00);
    CHECK(device[2] == 0x7c00);
    float back[4];
    copyDeviceHalfToFloat(t, device, back, 4);
    CHECK(back[1] == -1.5f);
    CHECK(back[3] == 3.0f);
    const double d[1] = {0.333333};
    copyDoubleToDeviceHalf(t, d, device, 1);
    double db[1];
    copyDeviceHalfToDouble(t, device, db, 1);
    CHECK(db[0] == Approx(0.333251953125).margin(0));
}
