// Runtime codelets: compilation, caching, field discovery and binding, and failures.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <tilescope/sim/CodeletCompiler.hpp>
#include <tilescope/sim/GraphModel.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace simtest;
namespace fs = std::filesystem;

TEST_CASE("addCodelets finds vertex classes, their fields and namespaces", "[codelets]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    g.addCodelets(testCodelet("test_codelets.cpp"));
    const auto& types = g.model()->vertexTypes;
    CHECK(types.names() ==
          std::vector<std::string>{"AddOne", "Refuse", "Touch", "test::ScaledCopy"});
    const auto& scaled = types.at(static_cast<std::uint32_t>(types.find("test::ScaledCopy")));
    REQUIRE(scaled.fields.size() == 4);
    CHECK(scaled.fields[0].name == "in");
    CHECK(scaled.fields[0].direction == tilescope::sim::abi::Direction::Input);
    CHECK(scaled.fields[0].shape == tilescope::sim::abi::FieldShape::Vector);
    CHECK(scaled.fields[0].elementType == tilescope::sim::ElementType::Int);
    CHECK(scaled.fields[2].name == "scale");
    CHECK(scaled.fields[2].direction == tilescope::sim::abi::Direction::State);
    CHECK(types.at(static_cast<std::uint32_t>(types.find("Touch"))).info.isMultiVertex);
}

TEST_CASE("compiled codelets are cached by content", "[codelets]") {
    const fs::path cache = fs::temp_directory_path() / "tilescope-test-codelet-cache";
    fs::remove_all(cache);
    const char* previous = std::getenv("TILESCOPE_CODELET_CACHE");
    const std::string saved = previous ? previous : "";
    setenv("TILESCOPE_CODELET_CACHE", cache.c_str(), 1);
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    g.addCodelets(testCodelet("test_codelets.cpp"));
    auto count = [&] {
        std::size_t n = 0;
        for (const auto& e : fs::directory_iterator(cache))
            n += e.path().extension() == ".so";
        return n;
    };
    CHECK(count() == 1);
    const auto stamp = fs::last_write_time(*fs::directory_iterator(cache));
    Graph g2(Target::createIPUTarget(1, 4, "ipu2"));
    g2.addCodelets(testCodelet("test_codelets.cpp"));
    CHECK(count() == 1);
    CHECK(fs::last_write_time(*fs::directory_iterator(cache)) == stamp);
    // Different flags are a different build.
    g2.addCodelets(testCodelet("test_codelets.cpp"), CodeletFileType::Auto, "-O1");
    CHECK(count() == 2);
    if (previous)
        setenv("TILESCOPE_CODELET_CACHE", saved.c_str(), 1);
    else
        unsetenv("TILESCOPE_CODELET_CACHE");
    fs::remove_all(cache);
}

TEST_CASE("vertex state and fields bind to tensors", "[codelets][engine]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    g.addCodelets(testCodelet("test_codelets.cpp"));
    Tensor in = g.addVariable(INT, {4}, "in");
    Tensor out = g.addVariable(INT, {4}, "out");
    Tensor hits = g.addVariable(UNSIGNED_INT, {8}, "hits");
    g.setTileMapping(in, 0);
    g.setTileMapping(out, 1);
    g.setTileMapping(hits, 2);
    ComputeSet cs = g.addComputeSet("cs");
    // The output is on another tile and in reverse order: written back through an exchange.
    VertexRef v = g.addVertex(cs, "test::ScaledCopy", {{"in", in}, {"out", out.reverse(0)}});
    g.setInitialValue(v["scale"], 3);
    g.setInitialValue(v["offset"], -1);
    g.setTileMapping(v, 0);
    VertexRef t = g.addVertex(cs, "Touch", {{"hits", hits}});
    g.setTileMapping(t, 2);
    g.createHostWrite("in", in);
    g.createHostRead("out", out);
    g.createHostRead("hits", hits);
    Engine e(g, Sequence{Execute(cs), Execute(cs)});
    e.load(device);
    std::vector<int> host = {1, 2, 3, 4};
    e.writeTensor("in", host.data(), host.data() + 4);
    e.run();
    std::vector<int> result(4);
    e.readTensor("out", result.data(), result.data() + 4);
    CHECK(result == std::vector<int>{11, 8, 5, 2});
    std::vector<unsigned> h(8);
    e.readTensor("hits", h.data(), h.data() + 8);
    CHECK(h == std::vector<unsigned>{2, 2, 2, 2, 2, 2, 0, 0}); // six workers, twice
}

TEST_CASE("codelet compile errors carry the compiler's message", "[codelets][errors]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    try {
        g.addCodelets(testCodelet("bad_codelet.cpp"));
        FAIL("addCodelets accepted a file that does not compile");
    } catch (const graph_program_compilation_error& e) {
        const std::string what = e.what();
        CHECK(what.find("bad_codelet.cpp") != std::string::npos);
        CHECK(what.find("undeclared_identifier_in_codelet") != std::string::npos);
        CHECK(what.find("error") != std::string::npos);
        CHECK(std::string(e.type) == "graph_program_compilation_error");
    }
    CHECK_THROWS_WITH(g.addCodelets(testCodelet("no_vertex.cpp")),
                      Catch::Contains("declares no vertex class"));
    CHECK_THROWS_WITH(g.addCodelets(testCodelet("missing_file.cpp")),
                      Catch::Contains("cannot read codelet file"));
}

TEST_CASE("a vertex returning false stops the run with its name and tile", "[codelets][errors]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    g.addCodelets(testCodelet("test_codelets.cpp"));
    Tensor x = g.addVariable(FLOAT, {}, "x");
    g.setTileMapping(x, 5);
    ComputeSet cs = g.addComputeSet("refusing");
    VertexRef v = g.addVertex(cs, "Refuse", {{"in", x}});
    g.setTileMapping(v, 5);
    Engine e(g, Execute(cs));
    e.load(device);
    CHECK_THROWS_AS(e.run(), application_runtime_error);
    CHECK_THROWS_WITH(e.run(), Catch::Contains("'Refuse'") && Catch::Contains("tile 5") &&
                                   Catch::Contains("'refusing'"));
}

TEST_CASE("a compute set reads remote inputs before any of its vertices write",
          "[codelets][engine]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    g.addCodelets(testCodelet("test_codelets.cpp"));
    Tensor x = g.addVariable(INT, {4}, "x");
    Tensor y = g.addVariable(INT, {4}, "y");
    g.setTileMapping(x, 0);
    g.setTileMapping(y, 1);
    g.setInitialValue(x, ArrayRef<int>({1, 2, 3, 4}));
    ComputeSet cs = g.addComputeSet("same-step");
    // Tile 0 rewrites x in place while tile 1 reads x over the exchange: tile 1 must see the
    // values from before the compute set, as the exchange happens before compute on the IPU.
    VertexRef writer = g.addVertex(cs, "test::ScaledCopy", {{"in", x}, {"out", x}});
    g.setInitialValue(writer["scale"], 10);
    g.setTileMapping(writer, 0);
    VertexRef reader = g.addVertex(cs, "test::ScaledCopy", {{"in", x}, {"out", y}});
    g.setTileMapping(reader, 1);
    g.createHostRead("x", x);
    g.createHostRead("y", y);
    Engine e(g, Execute(cs), {{"tilescope.hostThreads", "2"}});
    e.load(device);
    e.run();
    std::vector<int> hx(4), hy(4);
    e.readTensor("x", hx.data(), hx.data() + 4);
    e.readTensor("y", hy.data(), hy.data() + 4);
    CHECK(hx == std::vector<int>{10, 20, 30, 40});
    CHECK(hy == std::vector<int>{2, 4, 6, 8});
}

TEST_CASE("fields connected to strided views read and write the right elements",
          "[codelets][engine]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    g.addCodelets(testCodelet("test_codelets.cpp"));
    Tensor m = g.addVariable(INT, {3, 3}, "m");
    Tensor n = g.addVariable(INT, {3, 3}, "n");
    g.setTileMapping(m, 4);
    g.setTileMapping(n, 4);
    g.setInitialValue(m, ArrayRef<int>({1, 2, 3, 4, 5, 6, 7, 8, 9}));
    g.setInitialValue(n, 0);
    ComputeSet cs = g.addComputeSet("columns");
    // Column 1 of m, doubled, into column 2 of n, bottom to top: all on one tile, all strided.
    VertexRef v = g.addVertex(cs, "test::ScaledCopy",
                              {{"in", m.transpose()[1]}, {"out", n.transpose()[2].reverse(0)}});
    g.setTileMapping(v, 4);
    g.createHostRead("n", n);
    Engine e(g, Execute(cs));
    e.load(device);
    e.run();
    std::vector<int> out(9);
    e.readTensor("n", out.data(), out.data() + 9);
    CHECK(out == std::vector<int>{0, 0, 16, 0, 0, 10, 0, 0, 4});
}
