// popops::map over expressions: fused into one compute set, broadcasting, constants, INT, BOOL
// results, in place, and the errors.

#include "PoplibsHarness.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <catch2/catch.hpp>
#include <popops/ElementWise.hpp>

using namespace poplibstest;
using namespace popops::expr;
using poplar::FLOAT;
using poplar::HALF;
using poplar::INT;

TEST_CASE("map evaluates _1 + _2 * _3 with broadcasting in one compute set") {
    Harness h;
    const auto av = integers(20, -5, 5, 1), bv = integers(5, -5, 5, 2), cv = integers(4, -5, 5, 3);
    auto a = h.input(FLOAT, {4, 5}, av, "a");
    auto b = h.input(FLOAT, {5}, bv, "b");
    auto c = h.input(FLOAT, {4, 1}, cv, "c");
    const auto setsBefore = h.graph.model()->computeSets.size();
    h.output(popops::map(h.graph, _1 + _2 * _3, {a, b, c}, h.prog, "fused"), "out");
    CHECK(h.graph.model()->computeSets.size() == setsBefore + 1);
    const auto r = h.run();
    for (std::size_t i = 0; i < 20; ++i)
        CHECK(r.at("out")[i] == av[i] + bv[i % 5] * cv[i / 5]);
}

TEST_CASE("map with constants and functions in HALF, and INT arithmetic") {
    Harness h;
    auto xv = values(13, -2, 2, 4);
    std::transform(xv.begin(), xv.end(), xv.begin(), toHalf);
    auto x = h.input(HALF, {13}, xv, "x");
    h.output(popops::map(h.graph, Exp(_1) * 2.0f + 1, {x}, h.prog), "half");
    const auto iv = integers(11, -9, 9, 5), jv = integers(11, -9, 9, 6);
    auto i = h.input(INT, {11}, iv, "i");
    auto j = h.input(INT, {11}, jv, "j");
    h.output(popops::map(h.graph, Max(_1, _2) - 3, {i, j}, h.prog), "int");
    h.output(popops::map(h.graph, Gt(_1, _2 + 1), {i, j}, h.prog), "bool");
    const auto r = h.run();
    for (std::size_t k = 0; k < xv.size(); ++k) {
        const double want = std::exp(xv[k]) * 2 + 1;
        CHECK(std::abs(r.at("half")[k] - want) <= 2.0 / 1024 * want);
    }
    for (std::size_t k = 0; k < iv.size(); ++k) {
        CHECK(r.at("int")[k] == std::max(iv[k], jv[k]) - 3);
        CHECK(r.at("bool")[k] == double(iv[k] > jv[k] + 1));
    }
}

TEST_CASE("mapInPlace writes the first tensor, bad expressions are refused clearly") {
    Harness h;
    const auto av = values(9, -1, 1, 7), bv = values(3, -1, 1, 8);
    auto a = h.input(FLOAT, {3, 3}, av, "a");
    auto b = h.input(FLOAT, {3}, bv, "b");
    popops::mapInPlace(h.graph, _1 * _1 + _2, {a, b}, h.prog);
    h.output(a, "a");
    const auto r = h.run();
    for (std::size_t k = 0; k < 9; ++k)
        CHECK(std::abs(r.at("a")[k] - (float(av[k]) * float(av[k]) + float(bv[k % 3]))) <= 1e-6);

    CHECK_THROWS_WITH(popops::map(h.graph, _1 + _3, {a, b}, h.prog),
                      Catch::Contains("_3") && Catch::Contains("2 tensors"));
    CHECK_THROWS_WITH(popops::mapInPlace(h.graph, _1 + _2, {b, a}, h.prog),
                      Catch::Contains("'b'") && Catch::Contains("{3,3}"));
    auto i = h.input(INT, {3}, {1, 2, 3}, "i");
    CHECK_THROWS_WITH(popops::map(h.graph, Exp(_1), {i}, h.prog), Catch::Contains("int tensors"));
    auto c = h.input(FLOAT, {2}, {1, 2}, "c");
    CHECK_THROWS_WITH(popops::map(h.graph, _1 + _2, {b, c}, h.prog),
                      Catch::Contains("'b'") && Catch::Contains("'c'") &&
                          Catch::Contains("cannot be broadcast"));
}
