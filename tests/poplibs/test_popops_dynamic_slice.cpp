// popops::dynamicSlice and dynamicUpdate against a host reference: several shapes (dimensions
// not multiples of the tile count or vector width), one and several sliced dimensions, offsets
// at the edges and past the end (PopLibs' rule: an offset >= the size counts as 0, and slices
// wrap around the end of the dimension), all read at run time from one compiled graph.

#include "PoplibsHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <popops/DynamicSlice.hpp>
#include <tilescope/sim/GraphModel.hpp>

using namespace poplibstest;

namespace {

using Shape = std::vector<std::size_t>;

std::size_t count(const Shape& s) {
    std::size_t n = 1;
    for (auto d : s)
        n *= d;
    return n;
}

/// For each element of the slice of shape `sub` (in row-major order) the flat index of its
/// source in `shape`: dimension dims[i] starts at offsets[i] (0 when out of range) and wraps.
std::vector<std::size_t> sourceIndices(const Shape& shape, const Shape& dims, const Shape& sub,
                                       const std::vector<unsigned>& offsets) {
    std::vector<std::size_t> out(count(sub));
    Shape index(shape.size(), 0);
    for (std::size_t e = 0; e < out.size(); ++e) {
        std::size_t rem = e;
        for (std::size_t d = shape.size(); d-- > 0;) {
            index[d] = rem % sub[d];
            rem /= sub[d];
        }
        for (std::size_t i = 0; i < dims.size(); ++i) {
            const std::size_t n = shape[dims[i]];
            const std::size_t first = offsets[i] >= n ? 0 : offsets[i];
            index[dims[i]] = (first + index[dims[i]]) % n;
        }
        std::size_t flat = 0;
        for (std::size_t d = 0; d < shape.size(); ++d)
            flat = flat * shape[d] + index[d];
        out[e] = flat;
    }
    return out;
}

struct Case {
    Shape shape, dims, sizes;
    std::vector<std::vector<unsigned>> offsets; // each runs the same compiled graph
};

std::vector<Case> cases() {
    return {
        {{10}, {0}, {3}, {{0}, {7}, {9}, {10}, {1000}}},
        {{7, 5}, {0}, {2}, {{0}, {5}, {6}, {7}}},
        {{7, 5}, {1}, {3}, {{0}, {2}, {4}, {0xffffffffu}}},
        {{7, 5}, {0, 1}, {3, 2}, {{6, 4}, {4, 3}, {8, 1}}},
        {{3, 5, 6}, {1}, {4}, {{1}, {4}, {5}}},
        {{3, 5, 6}, {2, 0}, {5, 2}, {{1, 2}, {5, 0}, {0, 3}}},
        {{4, 9, 3}, {1}, {9}, {{0}, {8}}}, // the whole dimension, rotated
    };
}

Shape slicedShape(const Case& c) {
    Shape s = c.shape;
    for (std::size_t i = 0; i < c.dims.size(); ++i)
        s[c.dims[i]] = c.sizes[i];
    return s;
}

std::vector<double> asDoubles(const std::vector<unsigned>& v) {
    return {v.begin(), v.end()};
}

} // namespace

TEST_CASE("dynamicSlice matches the host for several shapes and offsets, wrapping like PopLibs") {
    for (const auto& type : {poplar::FLOAT, poplar::HALF, poplar::INT}) {
        for (const auto& c : cases()) {
            INFO("type " << type << ", shape " << c.shape.size() << "-d, dims[0] " << c.dims[0]);
            Harness h(5);
            const auto tv = integers(count(c.shape), -500, 500, 3);
            auto t = h.input(type, c.shape, tv, "t");
            auto offset =
                h.input(poplar::UNSIGNED_INT, {c.dims.size()}, asDoubles(c.offsets[0]), "offset");
            auto s = popops::dynamicSlice(h.graph, t, offset, c.dims, c.sizes, h.prog, "slice");
            REQUIRE(s.shape() == slicedShape(c));
            h.output(s, "s");
            for (const auto& offsets : c.offsets) {
                INFO("offset[0] " << offsets[0]);
                h.setInput("offset", asDoubles(offsets));
                const auto got = h.run().at("s");
                const auto src = sourceIndices(c.shape, c.dims, slicedShape(c), offsets);
                REQUIRE(got.size() == src.size());
                for (std::size_t i = 0; i < src.size(); ++i)
                    CHECK(got[i] == tv[src[i]]);
            }
        }
    }
}

TEST_CASE("dynamicUpdate writes the slice back at run-time offsets and leaves the rest") {
    for (const auto& type : {poplar::FLOAT, poplar::HALF}) {
        for (const auto& c : cases()) {
            INFO("type " << type << ", shape " << c.shape.size() << "-d, dims[0] " << c.dims[0]);
            Harness h(5);
            const auto tv = integers(count(c.shape), -500, 500, 5);
            const auto sv = integers(count(slicedShape(c)), 600, 900, 6);
            auto t = h.input(type, c.shape, tv, "t");
            auto s = h.input(type, slicedShape(c), sv, "s");
            auto offset =
                h.input(poplar::UNSIGNED_INT, {c.dims.size()}, asDoubles(c.offsets[0]), "offset");
            popops::dynamicUpdate(h.graph, t, s, offset, c.dims, c.sizes, h.prog, "update");
            h.output(t, "t");
            for (const auto& offsets : c.offsets) {
                INFO("offset[0] " << offsets[0]);
                h.setInput("offset", asDoubles(offsets));
                const auto got = h.run().at("t");
                auto want = tv;
                const auto dst = sourceIndices(c.shape, c.dims, slicedShape(c), offsets);
                for (std::size_t i = 0; i < dst.size(); ++i)
                    want[dst[i]] = sv[i];
                CHECK(got == want);
            }
        }
    }
}

TEST_CASE("dynamicSlice of an update round-trips, on sliceable tensors") {
    Harness h(6);
    auto t = popops::createSliceableTensor(h.graph, poplar::FLOAT, {13, 4}, {0}, {3}, 0, "table");
    CHECK(t.shape() == Shape{13, 4});
    CHECK_NOTHROW(h.graph.getTileMapping(t));
    auto rows = popops::createSliceTensor(h.graph, t, {0}, {3}, 2, "rows");
    CHECK(rows.shape() == Shape{2, 3, 4});
    const auto tv = values(52, -1, 1, 7);
    h.addInput(t, tv, "t");
    auto offset = h.input(poplar::UNSIGNED_INT, {1}, {11}, "offset");
    auto s = h.input(poplar::FLOAT, {3, 4}, values(12, 2, 3, 8), "s");
    popops::dynamicUpdate(h.graph, t, s, offset, {0}, {3}, h.prog, "put");
    h.output(popops::dynamicSlice(h.graph, t, offset, {0}, {3}, h.prog, "get"), "got");
    const auto r = h.run();
    auto want = values(12, 2, 3, 8); // rows 11, 12 and (wrapped) 0, as stored in FLOAT
    for (auto& w : want)
        w = static_cast<float>(w);
    CHECK(r.at("got") == want);
}

TEST_CASE("dynamicSlice rejects bad arguments with clear errors and records operations") {
    Harness h(4);
    auto t = h.input(poplar::FLOAT, {6, 4}, values(24, -1, 1, 9), "t");
    auto offset = h.input(poplar::UNSIGNED_INT, {1}, {2}, "offset");
    auto intOffset = h.input(poplar::INT, {1}, {2}, "intOffset");
    CHECK_THROWS_WITH(popops::dynamicSlice(h.graph, t, offset, {2}, {1}, h.prog),
                      Catch::Contains("dimension 2 is out of range"));
    CHECK_THROWS_WITH(popops::dynamicSlice(h.graph, t, offset, {0}, {7}, h.prog),
                      Catch::Contains("slice size 7"));
    CHECK_THROWS_WITH(popops::dynamicSlice(h.graph, t, intOffset, {0}, {1}, h.prog),
                      Catch::Contains("UNSIGNED_INT"));
    CHECK_THROWS_WITH(popops::dynamicSlice(h.graph, t, offset, {0, 1}, {1, 1}, h.prog),
                      Catch::Contains("same non-zero number"));
    auto wrong = h.input(poplar::FLOAT, {2, 3}, values(6, 0, 1, 10), "wrong");
    CHECK_THROWS_WITH(popops::dynamicUpdate(h.graph, t, wrong, offset, {0}, {2}, h.prog),
                      Catch::Contains("must have type float and shape {2,4}"));

    h.output(popops::dynamicSlice(h.graph, t, offset, {0}, {2}, h.prog, "rowsOut"), "rows");
    poplar::Engine engine(h.graph, h.prog);
    const auto& ops = engine.compileRecords().operations;
    const auto it = std::find_if(ops.begin(), ops.end(),
                                 [](const auto& op) { return op.name == "dynamicSlice"; });
    REQUIRE(it != ops.end());
    CHECK(it->layer == "PopLibs");
    CHECK(!it->programs.empty());
}

namespace {

/// The tiles holding any of `t`'s elements.
std::vector<unsigned> tilesOf(const poplar::Graph& g, const poplar::Tensor& t) {
    std::vector<unsigned> out;
    const auto mapping = g.getTileMapping(t);
    for (unsigned tile = 0; tile < mapping.size(); ++tile)
        if (!mapping[tile].empty())
            out.push_back(tile);
    return out;
}

} // namespace

TEST_CASE("sliceable tensors are laid out as PopLibs lays them out, HALF as FLOAT") {
    // createSliceableTensorGivenOrder: the unsliced elements cut into max(ceil(U / tiles),
    // minGrainSize) per tile from tile 0, every row of the sliced dimension with its columns;
    // no vector-width grain, so an embedding's 16-element rows spread over 16 of 1,472 tiles
    // in HALF as in FLOAT (they were 4 and 8 with a 4-HALF / 2-FLOAT grain).
    for (const auto& type : {poplar::FLOAT, poplar::HALF}) {
        INFO("type " << type);
        Harness h(1472);
        auto table =
            popops::createSliceableTensor(h.graph, type, {32, 16}, {0}, {1}, 0, "embedding");
        std::vector<unsigned> want(16);
        for (unsigned i = 0; i < 16; ++i)
            want[i] = i;
        CHECK(tilesOf(h.graph, table) == want);
        // Column c of every row on tile c: a slice of any row needs no exchange.
        for (unsigned c = 0; c < 16; ++c)
            CHECK(tilesOf(h.graph, table.slice(c, c + 1, 1)) == std::vector<unsigned>{c});
        // minGrainSize still sets the least elements per tile.
        auto coarse = popops::createSliceableTensor(h.graph, type, {32, 16}, {0}, {1}, 4, "coarse");
        CHECK(tilesOf(h.graph, coarse) == std::vector<unsigned>{0, 1, 2, 3});
        // A 3-d tensor sliced in its middle dimension: 4 x 5 = 20 unsliced elements, 20 tiles.
        auto cube = popops::createSliceableTensor(h.graph, type, {4, 9, 5}, {1}, {1}, 0, "cube");
        CHECK(tilesOf(h.graph, cube).size() == 20);
        CHECK(tilesOf(h.graph, cube.slice(0, 1, 0).slice(2, 3, 2)).size() == 1);

        // The slice follows the base: its result is cloned from the base's first row, and one
        // vertex runs on each tile holding a column of that row.
        auto offset = h.input(poplar::UNSIGNED_INT, {1}, {5}, "offset");
        auto row = popops::dynamicSlice(h.graph, table, offset, {0}, {1}, h.prog, "row");
        CHECK(tilesOf(h.graph, row) == want);
        const auto& model = *h.graph.model();
        REQUIRE(model.computeSets.size() == 1);
        std::vector<unsigned> vertexTiles;
        for (const auto& v : model.vertices)
            vertexTiles.push_back(static_cast<unsigned>(v.tile));
        std::sort(vertexTiles.begin(), vertexTiles.end());
        CHECK(vertexTiles == want);
    }
}

TEST_CASE("a dynamic slice of a linearly mapped tensor runs where the base's first row lies") {
    Harness h(4);
    // {6, 10} FLOAT mapped in grains of 1 over 4 tiles: 15 elements a tile, so row 0's columns
    // 0..9 all sit on tile 0, and the vertex and result go there (PopLibs' generateVertices).
    auto t = h.input(poplar::FLOAT, {6, 10}, poplibstest::values(60, -1, 1, 4), "t");
    auto offset = h.input(poplar::UNSIGNED_INT, {1}, {3}, "offset");
    auto s = popops::dynamicSlice(h.graph, t, offset, {0}, {2}, h.prog, "s");
    CHECK(tilesOf(h.graph, s) == std::vector<unsigned>{0, 1});
    CHECK(tilesOf(h.graph, s.slice(0, 1, 0)) == std::vector<unsigned>{0});
    const auto& model = *h.graph.model();
    REQUIRE(model.vertices.size() == 1);
    CHECK(model.vertices[0].tile == 0);
    h.output(s, "s");
    const auto got = h.run().at("s");
    const auto tv = poplibstest::values(60, -1, 1, 4);
    for (std::size_t i = 0; i < 20; ++i)
        CHECK(got[i] == Approx(static_cast<float>(tv[30 + i])));
}
