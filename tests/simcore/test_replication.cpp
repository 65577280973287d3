// The SDK's replication API with factor 1 (an ordinary graph), and factors the device's IPUs
// cannot be divided by, refused by name. Replicated graphs themselves are tested in
// tests/poplibs/test_replication_*.cpp.

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/ReplicatedStreamMode.hpp>
#include <poplar/exceptions.hpp>

using namespace poplar;
using namespace poplar::program;

TEST_CASE("a replication factor of 1 builds and runs an ordinary graph", "[sdk][replication]") {
    IPUModel model;
    model.numIPUs = 2;
    Device device = model.createDevice();
    Graph g(device, replication_factor(1));
    CHECK(g.getReplicationFactor() == 1);
    Graph same = g.createReplicatedGraph(1);
    Tensor t = same.addVariable(INT, {3}, "t");
    same.setTileMapping(t, 0);
    CHECK(g.getNonReplicatedTensor(t).shape() == t.shape());
    DataStream in = g.addHostToDeviceFIFO("in", INT, 3, ReplicatedStreamMode::BROADCAST);
    g.createHostRead("t", t);
    Engine e(g, Copy(in, t));
    e.load(device);
    std::vector<int> host = {4, 5, 6}, out(3);
    e.connectStream("in", host.data(), host.data() + 3);
    e.run();
    e.readTensor("t", out.data(), out.data() + 3);
    CHECK(out == host);
}

TEST_CASE("replication factors that do not divide the IPUs are refused by name",
          "[sdk][replication][errors]") {
    IPUModel model;
    model.numIPUs = 2;
    Device device = model.createDevice();
    CHECK_THROWS_WITH(Graph(device.getTarget(), replication_factor(3)),
                      Catch::Contains("a replication factor of 3 does not divide the target's 2"));
    CHECK_THROWS_AS(Graph(device.getTarget(), replication_factor(0)), poplar_error);
    Graph g(device.getTarget());
    CHECK_THROWS_AS(g.createReplicatedGraph(4), poplar_error);
    CHECK(g.createReplicatedGraph(2).getReplicationFactor() == 2);
}

TEST_CASE("simulated devices report remote-buffer support and no gateway", "[sdk][devices]") {
    Device device = IPUModel().createDevice();
    CHECK(device.supportsRemoteBuffers());
    CHECK_FALSE(device.hasGateway());
}
