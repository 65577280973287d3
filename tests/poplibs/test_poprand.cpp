// poprand::uniform and poprand::normal: determinism across tile mappings and host thread counts,
// sensitivity to the seed, and sample statistics within bounds of several standard errors.

#include "PoplibsHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>

using namespace poplibstest;

namespace {

struct Moments {
    double mean = 0, variance = 0;
};

Moments moments(const std::vector<double>& v) {
    Moments m;
    m.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
    for (double x : v)
        m.variance += (x - m.mean) * (x - m.mean);
    m.variance /= double(v.size() - 1);
    return m;
}

/// Uniform and normal draws of a {rows, cols} reference on `tiles` tiles, the reference mapped
/// linearly (or all on the last tile when `oneTile`), with host threads `threads`.
std::map<std::string, std::vector<double>> draw(unsigned tiles, bool oneTile,
                                                std::vector<double> seed, std::uint32_t modifier,
                                                const std::string& threads = "0") {
    Harness h(tiles);
    poprand::addCodelets(h.graph);
    auto ref = h.graph.addVariable(poplar::FLOAT, {37, 29}, "reference");
    if (oneTile)
        h.graph.setTileMapping(ref, tiles - 1);
    else
        poputil::mapTensorLinearly(h.graph, ref);
    auto s = h.input(poplar::UNSIGNED_INT, {2}, seed, "seed");
    h.output(poprand::uniform(h.graph, &s, modifier, ref, poplar::FLOAT, -1, 1, h.prog), "u");
    h.output(poprand::normal(h.graph, &s, modifier, ref, poplar::HALF, 0, 1, h.prog), "n");
    return h.run({{"tilescope.hostThreads", threads}});
}

} // namespace

TEST_CASE("poprand is deterministic by seed whatever the tile mapping and thread count") {
    const auto a = draw(4, false, {7, 11}, 3);
    const auto b = draw(9, false, {7, 11}, 3, "1");
    const auto c = draw(5, true, {7, 11}, 3, "3");
    CHECK(a.at("u") == b.at("u"));
    CHECK(a.at("u") == c.at("u"));
    CHECK(a.at("n") == b.at("n"));
    CHECK(a.at("n") == c.at("n"));

    // Another seed word or modifier gives an unrelated stream: (almost) no equal elements.
    for (const auto& other :
         {draw(4, false, {7, 12}, 3), draw(4, false, {8, 11}, 3), draw(4, false, {7, 11}, 4)}) {
        const auto& u = other.at("u");
        std::size_t same = 0;
        for (std::size_t i = 0; i < u.size(); ++i)
            same += u[i] == a.at("u")[i];
        CHECK(same < 3);
    }
}

TEST_CASE("poprand reads the seed at run time, a null seed repeats across runs") {
    Harness h(6);
    poprand::addCodelets(h.graph);
    auto ref = h.input(poplar::FLOAT, {500}, values(500, 0, 1, 1), "ref");
    auto s = h.input(poplar::UNSIGNED_INT, {2}, {1, 2}, "seed");
    h.output(poprand::uniform(h.graph, &s, 0, ref, poplar::FLOAT, 0, 1, h.prog), "seeded");
    h.output(poprand::uniform(h.graph, nullptr, 0, ref, poplar::FLOAT, 0, 1, h.prog), "null1");
    h.output(poprand::uniform(h.graph, nullptr, 0, ref, poplar::FLOAT, 0, 1, h.prog), "null2");
    const auto first = h.run();
    h.setInput("seed", {1, 5});
    const auto second = h.run();
    CHECK(first.at("seeded") != second.at("seeded"));
    CHECK(first.at("null1") == second.at("null1"));
    CHECK(first.at("null1") != first.at("null2"));
    h.setInput("seed", {1, 2});
    CHECK(h.run().at("seeded") == first.at("seeded"));
}

TEST_CASE("poprand sample statistics are within five standard errors") {
    const std::size_t n = 20000;
    Harness h(7);
    poprand::addCodelets(h.graph);
    auto ref = h.graph.addVariable(poplar::FLOAT, {n}, "ref");
    poputil::mapTensorLinearly(h.graph, ref);
    auto s = h.input(poplar::UNSIGNED_INT, {2}, {12345, 678}, "seed");
    h.output(poprand::uniform(h.graph, &s, 1, ref, poplar::FLOAT, -2, 3, h.prog), "u");
    h.output(poprand::normal(h.graph, &s, 2, ref, poplar::FLOAT, 1.5, 0.5, h.prog), "n");
    h.output(poprand::normal(h.graph, &s, 3, ref, poplar::HALF, -1, 2, h.prog), "nh");
    h.output(poprand::uniform(h.graph, &s, 4, ref, poplar::INT, -3, 4, h.prog), "i");
    const auto r = h.run();

    // Uniform on [-2, 3): mean 0.5, variance 25/12, fourth central moment 625/80.
    const auto& u = r.at("u");
    CHECK(*std::min_element(u.begin(), u.end()) >= -2);
    CHECK(*std::max_element(u.begin(), u.end()) < 3);
    const auto mu = moments(u);
    CHECK(std::abs(mu.mean - 0.5) < 5 * std::sqrt(25.0 / 12 / n));
    CHECK(std::abs(mu.variance - 25.0 / 12) <
          5 * std::sqrt((625.0 / 80 - std::pow(25.0 / 12, 2)) / n));

    // Normal: mean and variance (standard error of the variance sqrt(2 / n) sigma^2) and the
    // fraction within one standard deviation (0.6827).
    // HALF values carry a rounding error of up to 2^-11 relative: a little extra allowance.
    for (const auto& [name, mean, sd, rounding] :
         {std::tuple{"n", 1.5, 0.5, 0.0}, std::tuple{"nh", -1.0, 2.0, 2e-3}}) {
        INFO(name);
        const auto& v = r.at(name);
        const auto m = moments(v);
        const double tolMean = 5 * sd / std::sqrt(double(n)) + rounding;
        CHECK(std::abs(m.mean - mean) < tolMean);
        CHECK(std::abs(m.variance - sd * sd) < 5 * std::sqrt(2.0 / n) * sd * sd + 4 * rounding);
        const auto within = std::count_if(v.begin(), v.end(), [&, mean = mean, sd = sd](double x) {
            return std::abs(x - mean) <= sd;
        });
        CHECK(std::abs(double(within) / n - 0.6827) < 5 * std::sqrt(0.6827 * 0.3173 / n));
    }

    // INT on [-3, 4]: only those integers, each with frequency 1/8.
    std::map<double, std::size_t> counts;
    for (double x : r.at("i"))
        ++counts[x];
    REQUIRE(counts.size() == 8);
    for (const auto& [value, c] : counts) {
        INFO("value " << value);
        CHECK(value >= -3);
        CHECK(value <= 4);
        CHECK(value == std::floor(value));
        CHECK(std::abs(double(c) / n - 0.125) < 5 * std::sqrt(0.125 * 0.875 / n));
    }
}

TEST_CASE("poprand rejects bad arguments clearly") {
    Harness h(2);
    poprand::addCodelets(h.graph);
    auto ref = h.input(poplar::FLOAT, {8}, values(8, 0, 1, 1), "ref");
    auto badSeed = h.input(poplar::UNSIGNED_INT, {3}, {1, 2, 3}, "badSeed");
    CHECK_THROWS_WITH(poprand::uniform(h.graph, &badSeed, 0, ref, poplar::FLOAT, 0, 1, h.prog),
                      Catch::Contains("2 elements"));
    CHECK_THROWS_WITH(poprand::uniform(h.graph, nullptr, 0, ref, poplar::FLOAT, 2, 1, h.prog),
                      Catch::Contains("exceeds maxVal"));
    CHECK_THROWS_WITH(poprand::normal(h.graph, nullptr, 0, ref, poplar::INT, 0, 1, h.prog),
                      Catch::Contains("not supported"));
    CHECK_THROWS_WITH(poprand::normal(h.graph, nullptr, 0, ref, poplar::FLOAT, 0, -1, h.prog),
                      Catch::Contains("negative"));
}
