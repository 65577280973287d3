// TileMappingRuns (a variable's tile mapping as runs, for exchange planning) and
// FlatIntervalReader::appendElement (strided walks of a view), each checked against a
// brute-force walk over every element.

#include <catch2/catch.hpp>
#include <cstdint>
#include <poplar/Graph.hpp>
#include <tilescope/sim/TensorView.hpp>
#include <tilescope/sim/TileMappingRuns.hpp>
#include <tuple>
#include <vector>

using namespace poplar;
namespace sim = tilescope::sim;

namespace {

/// Deterministic pseudo-random numbers (a 32-bit LCG), the same on every platform.
struct Lcg {
    std::uint32_t s;
    std::uint32_t next(std::uint32_t bound) {
        s = s * 1664525u + 1013904223u;
        return (s >> 8) % bound;
    }
};

/// A variable of `n` elements mapped in runs of 1 to `maxRun` elements to tiles 0..tiles-1.
Tensor scatteredVariable(Graph& g, std::size_t n, unsigned tiles, unsigned maxRun, Lcg& rng) {
    Tensor t = g.addVariable(FLOAT, {n}, "scattered");
    for (std::size_t e = 0; e < n;) {
        const std::size_t end = std::min(n, e + 1 + rng.next(maxRun));
        g.setTileMapping(t.slice(e, end), rng.next(tiles));
        e = end;
    }
    return t;
}

} // namespace

TEST_CASE("tile mapping runs cut ranges as a walk over every element does", "[compiler]") {
    Graph g(Target::createIPUTarget(1, 8, "ipu2"));
    Lcg rng{7};
    const Tensor t = scatteredVariable(g, 5000, 8, 12, rng);
    const Tensor linear = g.addVariable(FLOAT, {64}, "linear");
    g.setTileMapping(linear, 3);
    const auto& model = *g.model();
    const sim::TileMappingRuns runs(model);
    const auto v = t.view().ranges.at(0).variable;
    const auto& tileOf = model.variables[v].tileOf;

    // Runs are maximal: neighbours on different tiles.
    std::size_t expectedRuns = 1;
    for (std::size_t e = 1; e < tileOf.size(); ++e)
        expectedRuns += tileOf[e] != tileOf[e - 1];
    CHECK(runs.numRuns(v) == expectedRuns);
    CHECK(runs.numRuns(linear.view().ranges.at(0).variable) == 1);

    for (int trial = 0; trial < 300; ++trial) {
        const std::uint64_t a = rng.next(5000), b = a + rng.next(5001 - std::uint32_t(a));
        std::vector<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>> got, want;
        runs.forEachRun(v, a, b, [&](std::uint32_t tile, std::uint64_t lo, std::uint64_t hi) {
            got.emplace_back(tile, lo, hi);
        });
        for (std::uint64_t e = a; e < b; ++e) {
            const auto tile = static_cast<std::uint32_t>(tileOf[e]);
            if (!want.empty() && std::get<0>(want.back()) == tile && std::get<2>(want.back()) == e)
                std::get<2>(want.back()) = e + 1;
            else
                want.emplace_back(tile, e, e + 1);
        }
        REQUIRE(got == want);
        if (a < 5000)
            REQUIRE(runs.tileOf(v, a) == tileOf[a]);
    }
}

TEST_CASE("tile mapping runs tell neighbours on a tile for short and long gaps", "[compiler]") {
    Graph g(Target::createIPUTarget(1, 16, "ipu2"));
    Lcg rng{11};
    // Runs of up to 3 elements over 16 tiles: gaps of a few elements and of thousands, so both
    // the direct scan and the per-tile index answer.
    const Tensor t = scatteredVariable(g, 20000, 16, 3, rng);
    const auto& model = *g.model();
    const sim::TileMappingRuns runs(model);
    const auto v = t.view().ranges.at(0).variable;
    const auto& tileOf = model.variables[v].tileOf;
    for (int trial = 0; trial < 2000; ++trial) {
        const std::uint32_t tile = rng.next(16);
        const std::uint64_t from = rng.next(20000);
        const std::uint64_t span = trial % 2 ? rng.next(40) : rng.next(20000);
        const std::uint64_t to = std::min<std::uint64_t>(20000, from + span);
        bool none = true;
        for (auto e = from; e < to; ++e)
            none = none && tileOf[e] != std::int32_t(tile);
        REQUIRE(runs.adjacentOnTile(v, tile, from, to) == none);
    }
    // Both ends on the tile, as exchange pieces ask: the element before `from` and the one at
    // `to` are the tile's, near each other or far apart.
    std::vector<std::vector<std::uint64_t>> onTile(16);
    for (std::uint64_t e = 0; e < tileOf.size(); ++e)
        onTile[std::size_t(tileOf[e])].push_back(e);
    for (int trial = 0; trial < 2000; ++trial) {
        const auto& elements = onTile[rng.next(16)];
        const std::size_t i = rng.next(std::uint32_t(elements.size()));
        const std::size_t j =
            std::min(elements.size() - 1, i + (trial % 2 ? rng.next(3) : rng.next(500)));
        const std::uint64_t from = elements[i] + 1, to = elements[j];
        const auto tile = static_cast<std::uint32_t>(tileOf[elements[i]]);
        bool none = to >= from;
        for (auto e = from; e < to; ++e)
            none = none && tileOf[e] != std::int32_t(tile);
        REQUIRE(runs.adjacentOnTile(v, tile, from, to) == none);
    }
    CHECK(runs.adjacentOnTile(v, 0, 10, 10));
    CHECK_FALSE(runs.adjacentOnTile(v, 0, 10, 9)); // an end before the start
}

TEST_CASE("a strided walk with hints finds the elements a direct search does", "[tensor]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    // A view of many short ranges: every other element of two variables, interleaved.
    const Tensor a = g.addVariable(FLOAT, {3000}, "a");
    const Tensor b = g.addVariable(FLOAT, {3000}, "b");
    const Tensor view = concat(a.reshape({1000, 3}), b.reshape({1000, 3}), 1).flatten();
    sim::views::FlatIntervalReader hinted(view.view()), direct(view.view());
    Lcg rng{5};
    std::vector<std::size_t> hints(7, 0);
    for (int trial = 0; trial < 5000; ++trial) {
        const std::uint64_t flat = rng.next(6000);
        sim::TensorView got, want;
        hinted.appendElement(got, flat, hints[trial % hints.size()]);
        direct.appendTo(want, flat, flat + 1);
        REQUIRE(got.ranges == want.ranges);
    }
    // A transpose walks the same way and keeps its elements in order.
    const Tensor m = a.reshape({60, 50});
    const Tensor mt = m.transpose();
    std::size_t i = 0;
    for (std::size_t c = 0; c < 50; ++c)
        for (std::size_t r = 0; r < 60; ++r, ++i) {
            const auto& range = mt.view().ranges.at(i);
            REQUIRE(range.begin == r * 50 + c);
            REQUIRE(range.size() == 1);
        }
}

TEST_CASE("a reader cuts views of ranges of one size and of mixed sizes as their elements are",
          "[tensor]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    const Tensor a = g.addVariable(FLOAT, {40, 30}, "a");
    const Tensor b = g.addVariable(FLOAT, {40, 7}, "b");
    // Stretches of ranges of one size (a transpose: single elements; b's rows: 7) between
    // ranges of other sizes, and a slice that starts inside a range.
    const Tensor mixed = concat({a.transpose().flatten(), b.flatten().slice(3, 250),
                                 a.slice(5, 9, 0).flatten(), b.transpose().flatten()});
    const auto& view = mixed.view();
    std::vector<std::pair<std::uint32_t, std::uint64_t>> elements; // (variable, offset) by flat
    for (const auto& r : view.ranges)
        for (auto e = r.begin; e < r.end; ++e)
            elements.emplace_back(r.variable, e);
    sim::views::FlatIntervalReader reader(view);
    Lcg rng{3};
    for (int trial = 0; trial < 3000; ++trial) {
        const std::uint64_t lo = rng.next(std::uint32_t(elements.size()));
        const std::uint64_t hi =
            lo + 1 + rng.next(std::uint32_t(std::min<std::size_t>(50, elements.size() - lo)));
        sim::TensorView part;
        reader.appendTo(part, lo, hi);
        std::uint64_t flat = lo;
        for (const auto& r : part.ranges)
            for (auto e = r.begin; e < r.end; ++e, ++flat)
                REQUIRE(elements[flat] == std::make_pair(r.variable, e));
        REQUIRE(flat == hi);
    }
}
