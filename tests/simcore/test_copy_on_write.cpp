// CopyOnWriteVector (the graph model's vertices and variables, shared with Engine snapshots), and
// the guarantee it serves: an Engine runs the graph as it was when the Engine was made, whatever
// the graph gets afterwards.

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <string>
#include <tilescope/sim/CopyOnWriteVector.hpp>
#include <tilescope/sim/GraphModel.hpp>
#include <vector>

using tilescope::sim::CopyOnWriteVector;

TEST_CASE("copies of a copy-on-write vector share until one changes", "[cow]") {
    CopyOnWriteVector<std::string> a{"x", "y"};
    CopyOnWriteVector<std::string> b = a;
    CHECK(a.shared());
    CHECK(&a.vector() == &b.vector()); // the copy shares the elements
    const auto& constB = b;
    CHECK(constB[1] == "y"); // const access keeps sharing
    CHECK(b.shared());

    b.push_back("z"); // b gets its own elements
    CHECK_FALSE(a.shared());
    CHECK(a.size() == 2);
    CHECK(b.size() == 3);
    b[0] = "changed";
    CHECK(a[0] == "x");

    CopyOnWriteVector<std::string> c = b;
    std::string& element = c[2]; // non-const access also gives c its own elements
    element = "only in c";
    CHECK(b[2] == "z");
    CHECK(c[2] == "only in c");

    CopyOnWriteVector<std::string> d = c;
    d.clear();
    CHECK(d.empty());
    CHECK(c.size() == 3);
    CopyOnWriteVector<std::string> moved = std::move(c);
    CHECK(moved.size() == 3);
    moved.resize(1);
    CHECK(c.size() == 3); // a moved-from vector stays valid
}

TEST_CASE("an engine runs the graph as it was when the engine was made", "[cow][engine]") {
    poplar::IPUModel model("ipu2");
    model.tilesPerIPU = 4;
    poplar::Device device = model.createDevice();
    poplar::Graph graph(device.getTarget());
    poplar::Tensor x = graph.addVariable(poplar::FLOAT, {8}, "x");
    poplar::Tensor y = graph.addVariable(poplar::FLOAT, {8}, "y");
    graph.setTileMapping(x, 0);
    graph.setTileMapping(y, 1);
    graph.createHostWrite("x", x);
    graph.createHostRead("y", y);
    poplar::program::Sequence prog;
    prog.add(poplar::program::Copy(x, y));
    poplar::Engine engine(graph, prog);
    CHECK(graph.model()->variables.shared()); // the engine's snapshot shares the variables

    // The graph changes after the Engine: new mappings, another variable.
    graph.setTileMapping(x, 3);
    CHECK_FALSE(graph.model()->variables.shared());
    graph.setTileMapping(y, 2);
    poplar::Tensor z = graph.addVariable(poplar::FLOAT, {4}, "z");
    graph.setTileMapping(z, 2);
    CHECK(graph.getTileMapping(x)[3].size() == 1);

    engine.load(device);
    std::vector<float> values{1, 2, 3, 4, 5, 6, 7, 8}, out(8);
    engine.writeTensor("x", values.data(), values.data() + values.size());
    engine.run(0);
    engine.readTensor("y", out.data(), out.data() + out.size());
    CHECK(out == values);
    // The compiled graph has x on tile 0 and y on tile 1, and no z.
    const auto& records = engine.compileRecords();
    bool sawX = false;
    for (const auto& v : records.variables) {
        CHECK(v.name != "z");
        if (v.name == "x") {
            sawX = true;
            CHECK(v.bytesPerTile.at(0) == 32);
            CHECK(v.bytesPerTile.at(3) == 0);
        }
        if (v.name == "y")
            CHECK(v.bytesPerTile.at(1) == 32);
    }
    CHECK(sawX);
}
