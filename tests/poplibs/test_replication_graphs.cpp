// Replicated graphs: the replica's target, the replication index, REPLICATE and BROADCAST
// streams (buffers and callbacks, per replica), host handles, the profiled replica and errors.
#include "ReplicationHarness.hpp"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <gcl/Collectives.hpp>
#include <nlohmann/json.hpp>
#include <popops/ElementWise.hpp>
#include <pva/pva.hpp>
#include <tilescope/capture/ProfileRecords.hpp>
#include <unistd.h>

using namespace replicationtest;

TEST_CASE("a replicated graph builds one replica on the device's IPUs divided", "[replication]") {
    auto device = makeDevice(8, 4);
    poplar::Graph g(device.getTarget(), poplar::replication_factor(4));
    CHECK(g.getReplicationFactor() == 4);
    CHECK(g.getTarget().getNumIPUs() == 2);
    CHECK(g.getTarget().getNumTiles() == 8);
    poplar::Graph plain(device.getTarget());
    CHECK(plain.getReplicationFactor() == 1);
    auto replicated = plain.createReplicatedGraph(8);
    CHECK(replicated.getReplicationFactor() == 8);
    CHECK(replicated.getTarget().getNumIPUs() == 1);
    // 3 does not divide 8 IPUs.
    CHECK_THROWS_AS(poplar::Graph(device.getTarget(), poplar::replication_factor(3)),
                    poplar::poplar_error);
    auto t = replicated.addVariable(poplar::FLOAT, {2}, "t");
    CHECK_THROWS_AS(replicated.getNonReplicatedTensor(t), poplar::poplar_error);
}

TEST_CASE("each replica reads its own index from the replication index constant", "[replication]") {
    const auto replicas = GENERATE(2u, 4u, 8u);
    Replicated h(replicas);
    auto index = h.graph.addReplicationIndexConstant();
    h.graph.setTileMapping(index, 0);
    auto copy = h.graph.addVariable(poplar::UNSIGNED_INT, {}, "copy");
    h.graph.setTileMapping(copy, 1);
    h.prog.add(poplar::program::Copy(index, copy));
    // The sum of the indices over the replicas: 0 + 1 + ... + (replicas - 1).
    auto sum = gcl::allReduceCrossReplica(h.graph, copy.reshape({1}), gcl::CollectiveOperator::ADD,
                                          h.prog);
    h.output(copy, "index");
    h.output(sum, "sum");
    const auto out = h.run();
    for (unsigned r = 0; r < replicas; ++r) {
        CHECK(out.at("index")[r][0] == r);
        CHECK(out.at("sum")[r][0] == replicas * (replicas - 1) / 2);
    }
}

namespace {

/// A graph that adds 1 to what a host-to-device stream gives, and streams the result back.
struct StreamGraph {
    explicit StreamGraph(unsigned replicas, poplar::ReplicatedStreamMode mode) : h(replicas) {
        auto x = h.graph.addVariable(poplar::FLOAT, {5}, "x");
        poputil::mapTensorLinearly(h.graph, x);
        auto in = h.graph.addHostToDeviceFIFO("in", poplar::FLOAT, 5, mode);
        auto out = h.graph.addDeviceToHostFIFO("out", poplar::FLOAT, 5);
        h.prog.add(poplar::program::Copy(in, x));
        popops::addInPlace(h.graph, x, 1.0f, h.prog);
        h.prog.add(poplar::program::Copy(x, out));
    }
    Replicated h;
};

} // namespace

TEST_CASE("REPLICATE streams give each replica its part of one buffer or its own callback",
          "[replication]") {
    const unsigned replicas = 4;
    StreamGraph s(replicas, poplar::ReplicatedStreamMode::REPLICATE);
    poplar::Engine engine(s.h.graph, s.h.prog);
    engine.load(s.h.device());
    std::vector<float> in(5 * replicas), out(5 * replicas);
    for (std::size_t i = 0; i < in.size(); ++i)
        in[i] = static_cast<float>(i);
    engine.connectStream("in", in.data(), in.data() + in.size());
    engine.connectStream("out", out.data(), out.data() + out.size());
    engine.run(0);
    for (std::size_t i = 0; i < in.size(); ++i)
        CHECK(out[i] == in[i] + 1);

    // Per-replica callbacks: replica r sends 10 * r, and its result comes to its own callback.
    std::vector<std::vector<float>> got(replicas);
    for (unsigned r = 0; r < replicas; ++r) {
        engine.connectStreamToCallback("in", r, [r](void* p) {
            auto* f = static_cast<float*>(p);
            for (int i = 0; i < 5; ++i)
                f[i] = 10.0f * r + i;
        });
        engine.connectStreamToCallback("out", r, [&got, r](void* p) {
            auto* f = static_cast<float*>(p);
            got[r].assign(f, f + 5);
        });
    }
    engine.run(0);
    for (unsigned r = 0; r < replicas; ++r)
        for (int i = 0; i < 5; ++i)
            CHECK(got[r].at(i) == 10.0f * r + i + 1);
    CHECK_THROWS_AS(engine.connectStreamToCallback("in", replicas, [](void*) {}),
                    poplar::index_error);
    // One transfer for 3 of the 4 replicas does not cut into equal parts.
    std::vector<float> wrong(15);
    CHECK_THROWS_AS(engine.connectStream("in", wrong.data(), wrong.data() + wrong.size()),
                    poplar::stream_connection_error);
}

TEST_CASE("a BROADCAST stream gives every replica the same data, fetched once", "[replication]") {
    const unsigned replicas = 4;
    StreamGraph s(replicas, poplar::ReplicatedStreamMode::BROADCAST);
    poplar::Engine engine(s.h.graph, s.h.prog);
    engine.load(s.h.device());
    int fetches = 0;
    engine.connectStreamToCallback("in", [&fetches](void* p) {
        auto* f = static_cast<float*>(p);
        for (int i = 0; i < 5; ++i)
            f[i] = 100.0f * fetches + i;
        ++fetches;
    });
    std::vector<float> out(5 * replicas);
    engine.connectStream("out", out.data(), out.data() + out.size());
    engine.run(0);
    CHECK(fetches == 1);
    for (unsigned r = 0; r < replicas; ++r)
        for (int i = 0; i < 5; ++i)
            CHECK(out[r * 5 + i] == i + 1.0f);
    engine.run(0);
    CHECK(fetches == 2);
    CHECK(out[3 * 5] == 101.0f);

    // A buffer of one transfer feeds every replica.
    std::vector<float> one{1, 2, 3, 4, 5};
    engine.connectStream("in", one.data());
    engine.run(0);
    for (unsigned r = 0; r < replicas; ++r)
        CHECK(out[r * 5 + 4] == 6.0f);
}

TEST_CASE("host handles write every replica or each its own, and read per replica",
          "[replication]") {
    const unsigned replicas = 2;
    Replicated h(replicas);
    auto x = h.graph.addVariable(poplar::FLOAT, {3}, "x");
    poputil::mapTensorLinearly(h.graph, x);
    h.graph.createHostWrite("x", x);
    h.graph.createHostRead("x", x);
    popops::mulInPlace(h.graph, x, 2.0f, h.prog);
    poplar::Engine engine(h.graph, h.prog);
    engine.load(h.device());
    std::vector<float> both{1, 2, 3}, each{1, 2, 3, 10, 20, 30}, read(6);
    engine.writeTensor("x", both.data(), both.data() + both.size());
    engine.run(0);
    engine.readTensor("x", read.data(), read.data() + read.size());
    CHECK(read == std::vector<float>{2, 4, 6, 2, 4, 6});
    engine.writeTensor("x", each.data(), each.data() + each.size());
    engine.run(0);
    engine.readTensor("x", read.data(), read.data() + read.size());
    CHECK(read == std::vector<float>{2, 4, 6, 20, 40, 60});
}

namespace {

/// Replica 1 runs a second, longer compute than the others (If on the replication index), so
/// the replicas' runs take different numbers of cycles.
std::uint64_t profiledRunCycles(unsigned replicaToProfile) {
    Replicated h(2);
    auto x = h.input(poplar::FLOAT, {64},
                     {std::vector<double>(64, 1.0), std::vector<double>(64, 2.0)}, "x");
    auto index = h.graph.addReplicationIndexConstant();
    h.graph.setTileMapping(index, 0);
    poplar::program::Sequence extra;
    for (int i = 0; i < 5; ++i)
        popops::mulInPlace(h.graph, x, 1.5f, extra);
    h.prog.add(poplar::program::If(index, extra, poplar::program::Sequence()));
    auto sum = gcl::allReduceCrossReplica(h.graph, x, gcl::CollectiveOperator::ADD, h.prog);
    h.output(sum, "sum");
    poplar::Engine engine(h.graph, h.prog,
                          {{"profiler.replicaToProfile", std::to_string(replicaToProfile)}});
    const auto out = h.runOn(engine);
    // Replica 1 multiplied its 2s by 1.5^5 before the sum.
    CHECK(out.at("sum")[0][0] == Approx(1.0 + 2.0 * 7.59375));
    CHECK(engine.executionRecords().runs.size() == 1);
    return engine.executionRecords().runs[0].totalCycles;
}

} // namespace

TEST_CASE("the execution profile records the replica profiler.replicaToProfile names",
          "[replication]") {
    const auto first = profiledRunCycles(0);
    const auto second = profiledRunCycles(1);
    CHECK(second > first);
    Replicated h(2);
    auto x = h.input(poplar::FLOAT, {4}, {std::vector<double>(4), std::vector<double>(4)}, "x");
    h.output(x, "x");
    CHECK_THROWS_AS(poplar::Engine(h.graph, h.prog, {{"profiler.replicaToProfile", "2"}}),
                    poplar::invalid_option);
}

TEST_CASE("replicas that reach different collectives fail the run by name", "[replication]") {
    Replicated h(2);
    auto x = h.input(poplar::FLOAT, {4}, {std::vector<double>(4), std::vector<double>(4)}, "x");
    auto index = h.graph.addReplicationIndexConstant();
    h.graph.setTileMapping(index, 0);
    poplar::program::Sequence reduceOnlyHere;
    gcl::allReduceInPlaceCrossReplica(h.graph, x, gcl::CollectiveOperator::ADD, reduceOnlyHere);
    h.prog.add(poplar::program::If(index, reduceOnlyHere, poplar::program::Sequence()));
    h.output(x, "x");
    try {
        h.run();
        FAIL("the run should fail");
    } catch (const poplar::poplar_error& e) {
        CHECK_THAT(e.what(), Catch::Contains("replicas diverged"));
    }
}

TEST_CASE("a replicated engine needs a device with every replica's IPUs", "[replication]") {
    Replicated h(4);
    auto x = h.input(poplar::FLOAT, {4}, std::vector<std::vector<double>>(4, {1, 2, 3, 4}), "x");
    h.output(x, "x");
    poplar::Engine engine(h.graph, h.prog);
    auto small = makeDevice(2, 4);
    CHECK_THROWS_AS(engine.load(small), poplar::poplar_error);
}

TEST_CASE("a replicated graph's report states the replicas and profiles one replica's tiles",
          "[replication]") {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("tilescope-replication-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    {
        Replicated h(4, 4);
        auto x = h.input(poplar::FLOAT, {16},
                         std::vector<std::vector<double>>(4, std::vector<double>(16, 1.0)), "x");
        gcl::allReduceInPlaceCrossReplica(h.graph, x, gcl::CollectiveOperator::MEAN, h.prog);
        h.output(x, "x");
        const auto out = h.run({{"autoReport.all", "true"},
                                {"autoReport.directory", dir.string()},
                                {"profiler.replicaToProfile", "3"}});
        CHECK(out.at("x")[3][0] == 1.0);
    }
    const auto report = pva::openReport((dir / "profile.pop").string());
    const auto target = report.compilation().target();
    CHECK(target.numReplicas() == 4);
    CHECK(target.ipusPerReplica() == 1);
    CHECK(target.numIPUs() == 4);
    CHECK(target.tilesPerReplica() == 4);
    CHECK(report.compilation().tiles().size() == 4);
    bool crossReplica = false;
    for (const auto& s : report.compilation().programs())
        if (s->name().find("allReduce") != std::string::npos) {
            crossReplica = true;
            // libpva's type for the collective: GCL builds it as a Sequence.
            CHECK(s->kind() == "CrossReplica");
            CHECK(s->type() == pva::Program::Type::Sequence);
        }
    CHECK(crossReplica);

    // tilescope-cli states the replicas in its text and JSON.
    const auto cli = [&](const std::string& args) {
        const std::string command = std::string(TILESCOPE_CLI) + " " + args + " 2>&1";
        std::string out;
        if (FILE* p = ::popen(command.c_str(), "r")) {
            char buffer[4096];
            std::size_t n;
            while ((n = std::fread(buffer, 1, sizeof buffer, p)) > 0)
                out.append(buffer, n);
            ::pclose(p);
        }
        return out;
    };
    const auto j = nlohmann::json::parse(cli("info " + dir.string() + " --format json"));
    CHECK(j["target"]["replicas"] == 4);
    CHECK(j["target"]["ipus_per_replica"] == 1);
    CHECK(j["target"]["num_ipus"] == 4);
    CHECK(j["target"]["tiles_per_replica"] == 4);
    CHECK_THAT(cli("summary " + dir.string()), Catch::Contains("4 replicas, 4 IPUs in all"));
    fs::remove_all(dir);
}
