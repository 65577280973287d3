// poputil tile mapping helpers.

#include "PoplibsHarness.hpp"

#include <catch2/catch.hpp>
#include <poputil/VertexTemplates.hpp>

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
