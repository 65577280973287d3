// Bad input raises Poplar's exception class with a message naming what is at fault.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;
using Catch::Contains;

namespace {
Graph makeGraph() {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    g.addCodelets(simtest::testCodelet("test_codelets.cpp"));
    return g;
}
} // namespace

TEST_CASE("unmapped tensors are reported by name", "[errors]") {
    Graph g = makeGraph();
    Tensor t = g.addVariable(FLOAT, {10}, "half_mapped");
    g.setTileMapping(t.slice(0, 6), 1);
    CHECK_THROWS_AS(Engine(g, PrintTensor(t)), invalid_tile_mapping);
    CHECK_THROWS_WITH(Engine(g, PrintTensor(t)), Contains("'half_mapped'") &&
                                                     Contains("4 of its 10 elements") &&
                                                     Contains("element 6"));
    CHECK_THROWS_AS(g.getTileMapping(t), invalid_tile_mapping);
    CHECK(g.getTileMapping(t, false)[1].size() == 1);
}

TEST_CASE("unmapped vertices and unconnected fields are reported", "[errors]") {
    Graph g = makeGraph();
    Tensor d = g.addVariable(FLOAT, {4}, "d");
    g.setTileMapping(d, 0);
    ComputeSet cs = g.addComputeSet("work");
    VertexRef v = g.addVertex(cs, "AddOne");
    CHECK_THROWS_WITH(Engine(g, Execute(cs)),
                      Contains("'AddOne'") && Contains("not mapped to a tile"));
    g.setTileMapping(v, 0);
    CHECK_THROWS_AS(Engine(g, Execute(cs)), graph_connection_error);
    CHECK_THROWS_WITH(Engine(g, Execute(cs)),
                      Contains("Field 'data'") && Contains("'AddOne'") && Contains("'work'"));
    g.connect(v["data"], d);
    CHECK_NOTHROW(Engine(g, Execute(cs)));
}

TEST_CASE("tiles out of range raise index_error", "[errors]") {
    Graph g = makeGraph();
    Tensor t = g.addVariable(FLOAT, {4}, "t");
    CHECK_THROWS_AS(g.setTileMapping(t, 4), index_error);
    CHECK_THROWS_WITH(g.setTileMapping(t, 99),
                      Contains("Tile 99") && Contains("'t'") && Contains("4 tiles"));
    ComputeSet cs = g.addComputeSet();
    VertexRef v = g.addVertex(cs, "AddOne");
    CHECK_THROWS_WITH(g.setTileMapping(v, 7), Contains("Tile 7") && Contains("'AddOne'"));
    Graph::TileToTensorMapping m(5);
    CHECK_THROWS_AS(g.setTileMapping(t, m), index_error);
    Graph sub = g.createVirtualGraph(2, 4);
    CHECK_THROWS_AS(sub.setTileMapping(t, 2), index_error);
    sub.setTileMapping(t, 1);
    CHECK(g.getTileMapping(t)[3].size() == 1); // virtual tile 1 is tile 3
    CHECK_THROWS_AS(g.createVirtualGraph(3, 9), index_error);
}

TEST_CASE("Copy rejects size and type mismatches", "[errors]") {
    Graph g = makeGraph();
    Tensor a = g.addVariable(FLOAT, {2, 3}, "a");
    Tensor b = g.addVariable(FLOAT, {3, 2}, "b");
    Tensor c = g.addVariable(FLOAT, {4, 2}, "c");
    Tensor i = g.addVariable(INT, {2, 3}, "i");
    // As in Poplar, only the number of elements must agree.
    CHECK_NOTHROW(Copy(a, b));
    CHECK_THROWS_AS(Copy(a, c), control_program_error);
    CHECK_THROWS_WITH(Copy(a, c),
                      Contains("'a'") && Contains("{2,3}") && Contains("'c'") && Contains("{4,2}"));
    CHECK_THROWS_AS(Copy(a, i), type_error);
    DataStream s = g.addHostToDeviceFIFO("s", FLOAT, 5);
    CHECK_THROWS_WITH(Copy(s, a), Contains("'s'") && Contains("5 elements"));
    CHECK_NOTHROW(Copy(a, b.reshape({2, 3})));
    CHECK_THROWS_AS(If(a, Sequence(), Sequence()), control_program_error);
    CHECK_THROWS_AS(Switch(a[0][0]), type_error);
}

TEST_CASE("unknown vertex types and fields are reported", "[errors]") {
    Graph g = makeGraph();
    ComputeSet cs = g.addComputeSet();
    CHECK_THROWS_AS(g.addVertex(cs, "NoSuchVertex"), unknown_vertex_type);
    CHECK_THROWS_WITH(g.addVertex(cs, "NoSuchVertex"),
                      Contains("'NoSuchVertex'") && Contains("AddOne"));
    CHECK_THROWS_AS(g.addVertex(cs, "Generic<float>"), unknown_vertex_type);
    VertexRef v = g.addVertex(cs, "AddOne");
    Tensor d = g.addVariable(FLOAT, {2}, "d");
    CHECK_THROWS_AS(g.connect(v["dat"], d), unknown_field);
    CHECK_THROWS_WITH(g.connect(v["dat"], d), Contains("'dat'") && Contains("data"));
    Tensor wrong = g.addVariable(INT, {2}, "wrong");
    CHECK_THROWS_AS(g.connect(v["data"], wrong), type_error);
    VertexRef r = g.addVertex(cs, "Refuse");
    CHECK_THROWS_AS(g.connect(r["in"], d), graph_connection_error); // two elements, scalar field
    CHECK_THROWS_AS(g.setInitialValue(v["data"], 1.0f), graph_connection_error);
}

TEST_CASE("codelet files that do not compile raise graph_program_compilation_error", "[errors]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    CHECK_THROWS_AS(g.addCodelets(simtest::testCodelet("bad_codelet.cpp")),
                    graph_program_compilation_error);
}

TEST_CASE("unknown or malformed engine options raise invalid_option", "[errors]") {
    Graph g = makeGraph();
    Tensor t = g.addVariable(FLOAT, {2}, "t");
    g.setTileMapping(t, 0);
    CHECK_THROWS_AS(Engine(g, PrintTensor(t), {{"debug.noSuchOption", "true"}}), invalid_option);
    CHECK_THROWS_WITH(Engine(g, PrintTensor(t), {{"debug.noSuchOption", "true"}}),
                      Contains("'debug.noSuchOption'"));
    CHECK_THROWS_WITH(Engine(g, PrintTensor(t), {{"debug.allowOutOfMemory", "yes"}}),
                      Contains("'debug.allowOutOfMemory'") && Contains("\"yes\""));
    CHECK_THROWS_AS(Engine(g, PrintTensor(t), {{"tilescope.hostThreads", "-1"}}), invalid_option);
    CHECK_NOTHROW(
        Engine(g, PrintTensor(t), {{"autoReport.directory", "./r"}, {"profiler.format", "v3"}}));
}

TEST_CASE("engine misuse: unloaded, bad handles, unconnected streams", "[errors]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor t = g.addVariable(FLOAT, {4}, "t");
    g.setTileMapping(t, 0);
    g.createHostWrite("t", t);
    DataStream s = g.addHostToDeviceFIFO("feed", FLOAT, 4);
    Engine e(g, Copy(s, t));
    CHECK_THROWS_WITH(e.run(), Contains("not loaded"));
    e.load(device);
    std::vector<float> buf(3);
    CHECK_THROWS_WITH(e.writeTensor("t", buf.data(), buf.data() + 3),
                      Contains("'t'") && Contains("12 bytes") && Contains("16"));
    CHECK_THROWS_WITH(e.writeTensor("nope", buf.data(), buf.data() + 3), Contains("'nope'"));
    CHECK_THROWS_AS(e.run(), stream_connection_error);
    CHECK_THROWS_WITH(e.run(), Contains("'feed'"));
    CHECK_THROWS_AS(e.connectStream("fed", buf.data(), buf.data() + 3), stream_connection_error);
}
