// poputil tile mapping helpers, broadcasting and utilities.

#include "PoplibsHarness.hpp"

#include <catch2/catch.hpp>
#include <poplar/exceptions.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduction.hpp>
#include <poputil/Broadcast.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

using namespace poplibstest;

TEST_CASE("calcLinearTileMapping spreads grains over consecutive tiles") {
    Harness h(8);
    // 100 elements in grains of 4: 25 grains over 8 tiles = 4 grains (16 elements) per tile.
    const auto m = poputil::calcLinearTileMapping(h.graph, {10, 10}, 1, 4);
    REQUIRE(m.size() == 8);
    for (unsigned t = 0; t < 6; ++t)
        CHECK(m[t] == std::vector<poplar::Interval>{{t * 16, t * 16 + 16}});
    CHECK(m[6] == std::vector<poplar::Interval>{{96, 100}});
    CHECK(m[7].empty());
    // A minimum of 40 elements per tile: 3 tiles used.
    const auto few = poputil::calcLinearTileMapping(h.graph, {100}, 40, 4);
    CHECK(few[0] == std::vector<poplar::Interval>{{0, 40}});
    CHECK(few[2] == std::vector<poplar::Interval>{{80, 100}});
    CHECK(few[3].empty());
    CHECK_THROWS_WITH(poputil::calcLinearTileMapping(h.graph, {4}, 1, 0),
                      Catch::Contains("grain size"));
}

TEST_CASE("mapTensorLinearly and getTileImbalance") {
    Harness h(4);
    auto t = h.g().addVariable(poplar::FLOAT, {13}, "t");
    poputil::mapTensorLinearly(h.graph, t, 1, 1);
    // 13 over 4 tiles: 4, 4, 4, 1; balanced is 4 per tile.
    CHECK(poputil::getTileImbalance(h.graph, t) == 0);
    auto skewed = h.g().addVariable(poplar::FLOAT, {13}, "skewed");
    h.g().setTileMapping(skewed.slice(0, 10), 0);
    h.g().setTileMapping(skewed.slice(10, 13), 1);
    CHECK(poputil::getTileImbalance(h.graph, skewed) == 6);
    // The default mapping: at least 128 bytes (32 FLOATs) per tile, 2-element grains.
    auto big = h.g().addVariable(poplar::FLOAT, {40}, "big");
    poputil::mapTensorLinearly(h.graph, big);
    const auto m = h.g().getTileMapping(big);
    CHECK(m[0] == std::vector<poplar::Interval>{{0, 32}});
    CHECK(m[1] == std::vector<poplar::Interval>{{32, 40}});
}

TEST_CASE("templateVertex names template instances") {
    CHECK(poputil::templateVertex("popops::ScaledAdd", poplar::FLOAT) ==
          "popops::ScaledAdd<float>");
    CHECK(poputil::templateVertex("X", poplar::HALF, 3, true) == "X<half,3,true>");
}

TEST_CASE("broadcastToMatch, extendDimensionsToMatch, duplicate, cloneN and index helpers") {
    Harness h(4);
    auto a = h.input(poplar::FLOAT, {3, 1}, {1, 2, 3}, "a");
    auto b = h.input(poplar::FLOAT, {4}, {10, 20, 30, 40}, "b");
    auto c = h.input(poplar::FLOAT, {}, {100}, "c");
    poplar::Tensor a2 = a, b2 = b, c2 = c;
    poputil::broadcastToMatch(a2, b2, c2);
    CHECK(a2.shape() == std::vector<std::size_t>{3, 4});
    CHECK(c2.shape() == std::vector<std::size_t>{3, 4});
    poplar::Tensor a3 = a, b3 = b;
    poputil::broadcastToMatch(a3, b3);
    CHECK(b3.shape() == std::vector<std::size_t>{3, 4});
    poplar::Tensor b4 = b;
    poputil::broadcastToMatch(b4, {2, 3, 4});
    CHECK(b4.shape() == std::vector<std::size_t>{2, 3, 4});
    poplar::Tensor bad = b;
    CHECK_THROWS_AS(poputil::broadcastToMatch(bad, {3, 5}), poplar::poplar_error);
    CHECK(poputil::extendDimensionsToMatch(a2, b).shape() == std::vector<std::size_t>{1, 4});

    auto copy = poputil::duplicate(h.graph, b, h.prog, "copy");
    CHECK(h.graph.getTileMapping(copy) == h.graph.getTileMapping(b));
    auto clones = poputil::cloneN(h.graph, b, 3, "clones");
    CHECK(clones.shape() == std::vector<std::size_t>{3, 4});
    CHECK(h.graph.getTileMapping(clones[2]) == h.graph.getTileMapping(b));
    h.prog.add(poplar::program::Copy(b4[1], clones));
    h.output(copy, "copy");
    h.output(clones, "clones");
    const auto r = h.run();
    CHECK(r.at("copy") == std::vector<double>{10, 20, 30, 40});
    CHECK(r.at("clones") == std::vector<double>{10, 20, 30, 40, 10, 20, 30, 40, 10, 20, 30, 40});

    const std::vector<std::size_t> shape = {2, 3, 4};
    CHECK(poputil::unflattenIndex(shape, 17) == std::vector<std::size_t>{1, 1, 1});
    CHECK(poputil::flattenIndex(shape, std::vector<std::size_t>{1, 1, 1}) == 17);
    CHECK(poputil::intervalSequenceNumElements({{{0, 3}, {5, 6}}, {{10, 14}}}) == 8);
    CHECK(poputil::balancedPartition(10, 4) == std::vector<int>{3, 3, 2, 2});
}

TEST_CASE(
    "PopLibs argument errors are poputil::poplibs_error, which poplar_error handlers also catch") {
    Harness h;
    auto x = h.input(poplar::FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6}, "x");
    try {
        popops::reduce(h.graph, x, {2}, popops::Operation::ADD, h.prog);
        FAIL("reducing over a dimension the tensor lacks did not throw");
    } catch (const poputil::poplibs_error& e) {
        CHECK(e.type == "poplibs_error");
        CHECK(std::string(e.what()).find("dimension 2 is out of range") != std::string::npos);
    }
    CHECK_THROWS_AS(popops::add(h.graph, x, h.input(poplar::FLOAT, {4}, {1, 2, 3, 4}, "y"), h.prog),
                    poplar::poplar_error);
    CHECK_THROWS_AS(
        popops::add(h.graph, x, h.input(poplar::FLOAT, {5}, {1, 2, 3, 4, 5}, "z"), h.prog),
        std::runtime_error);
}
