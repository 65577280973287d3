// Executables carry every graph feature: remote buffers and their offset copies, cycleCount /
// cycleStamp counters, SupervisorVertex and template vertices, scalar vertex state from
// addVertex's connection list, and a simulated device's target type. Each program runs from a
// direct Engine and from a serialised and deserialised executable with identical results and
// cycles. Also: older executable versions are refused, and the JSON/DOT dumps show remote buffers.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <poplar/CycleCount.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poputil/VertexTemplates.hpp>
#include <sstream>
#include <tilescope/capture/ProfileRecords.hpp>
#include <unistd.h>

using namespace poplar;
using namespace poplar::program;

namespace {

using RunFn = std::function<std::string(Engine&)>;

std::vector<std::uint64_t> runCycles(const Engine& e) {
    std::vector<std::uint64_t> out;
    for (const auto& r : e.executionRecords().runs)
        out.push_back(r.totalCycles);
    return out;
}

std::string serialise(const Graph& g, const std::vector<Program>& progs) {
    std::ostringstream file;
    compileGraph(g, progs).serialize(file);
    return file.str();
}

/// Runs `progs` from a direct Engine and from a deserialised executable; both must print the
/// same and take the same cycles. Returns what they printed.
std::string checkRoundTrip(const Graph& g, const std::vector<Program>& progs, const RunFn& run) {
    Engine direct(g, progs);
    const std::string expected = run(direct);
    std::istringstream file(serialise(g, progs));
    Engine loaded(Executable::deserialize(file));
    CHECK(run(loaded) == expected);
    CHECK(runCycles(loaded) == runCycles(direct));
    CHECK_FALSE(runCycles(direct).empty());
    CHECK(loaded.compileRecords().steps.size() == direct.compileRecords().steps.size());
    return expected;
}

template <typename T> std::string joined(const std::vector<T>& values) {
    std::ostringstream s;
    for (const auto& v : values)
        s << ' ' << v;
    return s.str();
}

std::uint64_t toCycles(const std::uint32_t (&words)[2]) {
    return words[0] | static_cast<std::uint64_t>(words[1]) << 32;
}

/// A remote buffer of 3 rows of 4 INTs: program 0 writes `row` to the row `offset` selects,
/// program 1 reads rows 2 and 0 into `rows` (offsets held by a constant-initialised tensor).
struct RemoteGraph {
    Graph g{Target::createIPUTarget(1, 4, "ipu2")};
    std::vector<Program> progs;
    RemoteGraph() {
        RemoteBuffer rb = g.addRemoteBuffer("store", INT, 4, 3);
        Tensor row = g.addVariable(INT, {4}, "row");
        Tensor rows = g.addVariable(INT, {2, 4}, "rows");
        Tensor offset = g.addVariable(UNSIGNED_INT, {}, "offset");
        Tensor offsets = g.addVariable(UNSIGNED_INT, {2}, "offsets");
        for (const Tensor& x : {row, rows, offset, offsets})
            g.setTileMapping(x, 3);
        g.createHostWrite("row", row);
        g.createHostRead("rows", rows);
        g.createHostWrite("offset", offset);
        g.setInitialValue(offsets, ArrayRef<unsigned>({2, 0}));
        progs = {Copy(row, rb, offset), Copy(rb, rows, offsets)};
    }
};

} // namespace

TEST_CASE("an executable with a remote buffer and offset copies runs like a direct Engine",
          "[executable][remote]") {
    RemoteGraph r;
    const auto out = checkRoundTrip(r.g, r.progs, [](Engine& e) {
        e.load(IPUModel().createDevice());
        const std::vector<int> initial = {1, 2, 3, 4}, host = {10, 20, 30, 40};
        e.copyToRemoteBuffer(initial.data(), "store", 0);
        const unsigned at = 2;
        e.writeTensor("row", host.data(), host.data() + 4);
        e.writeTensor("offset", &at, &at + 1);
        e.run(0);
        std::vector<int> back(4), both(8);
        e.copyFromRemoteBuffer("store", back.data(), 2);
        e.run(1);
        e.readTensor("rows", both.data(), both.data() + 8);
        return "row 2:" + joined(back) + "\nrows:" + joined(both) + "\n";
    });
    CHECK(out == "row 2: 10 20 30 40\nrows: 10 20 30 40 1 2 3 4\n");
}

TEST_CASE("an executable with cycleCount and cycleStamp counts the same cycles",
          "[executable][cycles]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    g.addCodelets(simtest::exampleCodelet("basic_codelets.cpp"));
    Tensor data = g.addVariable(FLOAT, {4, 8}, "data");
    Tensor sums = g.addVariable(FLOAT, {4}, "sums");
    ComputeSet cs = g.addComputeSet("sum");
    for (unsigned t = 0; t < 4; ++t) {
        g.setTileMapping(data[t], t);
        g.setTileMapping(sums[t], t);
        VertexRef v = g.addVertex(cs, "SumVertex", {{"in", data[t]}, {"out", sums[t]}});
        g.setTileMapping(v, t);
    }
    g.createHostWrite("data", data);
    g.createHostRead("sums", sums);
    Sequence body{Execute(cs), Execute(cs)};
    Tensor counter = cycleCount(g, body, 2, SyncType::INTERNAL, "timer");
    Sequence prog{body};
    Tensor stamp = cycleStamp(g, prog, 1, SyncType::INTERNAL, "stamp");
    g.createHostRead("counter", counter);
    g.createHostRead("stamp", stamp);

    std::uint64_t counted = 0, stamped = 0;
    const auto out = checkRoundTrip(g, {prog}, [&](Engine& e) {
        e.load(IPUModel().createDevice());
        const std::vector<float> host(32, 1.0f);
        e.writeTensor("data", host.data(), host.data() + host.size());
        e.run();
        float s[4];
        std::uint32_t c[2], t[2];
        e.readTensor("sums", s, s + 4);
        e.readTensor("counter", c, c + 2);
        e.readTensor("stamp", t, t + 2);
        counted = toCycles(c);
        stamped = toCycles(t);
        return "sum " + std::to_string(s[0]) + " counter " + std::to_string(counted) + " stamp " +
               std::to_string(stamped);
    });
    CHECK(counted > 0); // the counters were written, not left zero
    CHECK(stamped >= counted);
    CHECK_THAT(out, Catch::StartsWith("sum 8.0"));
}

namespace {

/// Two SupervisorVertex counters run 3 times and a ScaleBy<float> template vertex whose factor
/// comes from addVertex's connection list; codelets from `codelets` (source or .gp object).
struct FeatureGraph {
    Graph g{Target::createIPUTarget(1, 4, "ipu2")};
    Program prog;
    std::string scaleBy = poputil::templateVertex("ScaleBy", FLOAT);
    explicit FeatureGraph(const std::string& codelets) {
        g.addCodelets(codelets);
        Tensor runs = g.addVariable(UNSIGNED_INT, {2}, "runs");
        Tensor in = g.addVariable(FLOAT, {3}, "in");
        Tensor out = g.addVariable(FLOAT, {3}, "out");
        g.setTileMapping(runs[0], 0);
        g.setTileMapping(runs[1], 1);
        g.setTileMapping(in, 2);
        g.setTileMapping(out, 2);
        g.setInitialValue(runs, ArrayRef<unsigned>({0, 10}));
        g.setInitialValue(in, ArrayRef<float>({1, 2, 3}));
        g.createHostRead("runs", runs);
        g.createHostRead("out", out);
        ComputeSet count = g.addComputeSet("count");
        for (unsigned t = 0; t < 2; ++t)
            g.setTileMapping(g.addVertex(count, "CountRuns", {{"runs", runs[t]}}), t);
        ComputeSet scale = g.addComputeSet("scale");
        g.setTileMapping(g.addVertex(scale, scaleBy, {{"in", in}, {"out", out}, {"factor", 2.5f}}),
                         2);
        prog = Sequence{Repeat(3, Execute(count)), Execute(scale)};
    }

    std::string roundTrip() {
        return checkRoundTrip(g, {prog}, [](Engine& e) {
            e.load(IPUModel().createDevice());
            e.run();
            std::vector<unsigned> r(2);
            std::vector<float> o(3);
            e.readTensor("runs", r.data(), r.data() + 2);
            e.readTensor("out", o.data(), o.data() + 3);
            return "runs:" + joined(r) + "\nout:" + joined(o) + "\n";
        });
    }
};

const std::string kFeatureResults = "runs: 3 13\nout: 2.5 5 7.5\n";

} // namespace

TEST_CASE("an executable keeps supervisor vertices, template vertices and scalar state",
          "[executable][codelets]") {
    FeatureGraph f(simtest::testCodelet("executable_features.cpp"));
    CHECK(f.roundTrip() == kFeatureResults);

    // The JSON dump says which kind each vertex type is.
    std::ostringstream json;
    f.g.serialize(json, {}, SerializationFormat::JSON);
    const auto j = nlohmann::json::parse(json.str());
    std::map<std::string, std::string> kinds;
    for (const auto& t : j["vertexTypes"])
        kinds[t["name"].get<std::string>()] = t["kind"].get<std::string>();
    CHECK(kinds["CountRuns"] == "SupervisorVertex");
    CHECK(kinds[f.scaleBy] == "Vertex");
}

TEST_CASE("an executable whose codelets came from a popc .gp object round-trips",
          "[executable][codelets][popc]") {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("tilescope-exec-gp-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string gp = (dir / "features.gp").string();
    const auto build =
        simtest::run(simtest::quoted(TILESCOPE_POPC) + " " +
                     simtest::quoted(simtest::testCodelet("executable_features.cpp")) + " -o " +
                     simtest::quoted(gp));
    INFO(build.output);
    REQUIRE(build.status == 0);
    FeatureGraph f(gp);
    CHECK(f.roundTrip() == kFeatureResults);
    std::filesystem::remove_all(dir);
}

TEST_CASE("an executable compiled for a simulated IPU keeps its target type", "[executable]") {
    const auto lockDir = std::filesystem::temp_directory_path() /
                         ("tilescope-exec-ipus-" + std::to_string(::getpid()));
    setenv("TILESCOPE_SIMULATED_IPUS", "1", 1);
    setenv("TILESCOPE_DEVICE_LOCK_DIR", lockDir.c_str(), 1);
    auto devices = DeviceManager::createDeviceManager().getDevices(TargetType::IPU, 1);
    REQUIRE(devices.size() == 1);
    Graph g(devices[0].createVirtualDevice(4).getTarget());
    unsetenv("TILESCOPE_SIMULATED_IPUS");
    unsetenv("TILESCOPE_DEVICE_LOCK_DIR");
    std::filesystem::remove_all(lockDir);
    Tensor x = g.addVariable(INT, {4}, "x");
    g.setTileMapping(x, 3);
    g.createHostRead("x", x);
    Engine direct(g, Sequence{});
    REQUIRE(direct.compileRecords().target.type == "IPU (simulated)");
    std::istringstream file(serialise(g, {Sequence{}}));
    Engine loaded(Executable::deserialize(file));
    CHECK(loaded.compileRecords().target.type == "IPU (simulated)");
    CHECK(loaded.compileRecords().target.tilesPerIpu == 4);
}

TEST_CASE("executables of an older format version are refused saying so", "[executable]") {
    RemoteGraph r;
    std::string bytes = serialise(r.g, r.progs);
    REQUIRE(bytes.size() > 12);
    bytes[8] = 1; // the format version (little-endian u32 after the 8-byte magic)
    std::istringstream in(bytes);
    CHECK_THROWS_WITH(Executable::deserialize(in),
                      Catch::Contains("format version 1 is not supported") &&
                          Catch::Contains("older TileScope") && Catch::Contains("recompile"));
    // Version 4 files have this layout, but their matMul vertices read B in another layout.
    bytes[8] = 4;
    std::istringstream in4(bytes);
    CHECK_THROWS_WITH(Executable::deserialize(in4),
                      Catch::Contains("format version 4 is not supported") &&
                          Catch::Contains("matMul") && Catch::Contains("recompile"));
}

TEST_CASE("the JSON and DOT dumps show remote buffers and remote copies", "[executable][remote]") {
    RemoteGraph r;
    std::ostringstream json;
    r.g.serialize(json, r.progs, SerializationFormat::JSON);
    const auto j = nlohmann::json::parse(json.str());
    REQUIRE(j["remoteBuffers"].size() == 1);
    CHECK(j["remoteBuffers"][0]["handle"] == "store");
    CHECK(j["remoteBuffers"][0]["type"] == "int");
    CHECK(j["remoteBuffers"][0]["numElements"] == 4);
    CHECK(j["remoteBuffers"][0]["repeats"] == 3);
    CHECK(j["target"]["type"] == "IPU_MODEL");
    REQUIRE(j["programs"].size() == 2);
    CHECK(j["programs"][0]["remoteBuffer"] == "store");
    CHECK(j["programs"][0]["direction"] == "toRemoteBuffer");
    CHECK(j["programs"][0]["offset"]["elements"][0]["variable"] == "offset");
    CHECK(j["programs"][1]["direction"] == "fromRemoteBuffer");

    std::ostringstream dot;
    r.g.outputComputeGraph(dot, r.progs);
    CHECK_THAT(dot.str(), Catch::Contains("rb0 [shape=cylinder, label=\"remote buffer "
                                          "store\\nint 3 x 4\"]") &&
                              Catch::Contains("-> rb0 [style=dashed]") &&
                              Catch::Contains("rb0 -> p"));
}
