// popops::reduce in two stages: when an output's tile would receive more partials from other
// tiles than PopLibs' final stage reads, each tile first reduces the partials it holds.

#include "PoplibsHarness.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <popops/Reduce.hpp>

using namespace poplibstest;
using poplar::FLOAT;
using popops::Operation;

namespace {

/// The names of the compute sets `prog` compiles to.
std::vector<std::string> computeSetNames(Harness& h) {
    poplar::Engine engine(h.graph, h.prog);
    std::vector<std::string> names;
    for (const auto& cs : engine.compileRecords().computeSets)
        names.push_back(cs.name);
    return names;
}

bool hasNameEnding(const std::vector<std::string>& names, const std::string& suffix) {
    return std::any_of(names.begin(), names.end(), [&](const std::string& n) {
        return n.size() >= suffix.size() &&
               n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0;
    });
}

} // namespace

TEST_CASE("popops::reduce of rows spread over tiles reduces on each tile first, same results") {
    const std::size_t rows = 4, columns = 1000;
    for (const auto& type : {FLOAT, poplar::HALF, poplar::INT}) {
        INFO("type " << type);
        Harness h;
        const auto xv = integers(rows * columns, -3, 3, 7);
        auto x = h.input(type, {rows, columns}, xv, "x");
        const poplar::Type outType = type == poplar::HALF ? FLOAT : type;
        h.output(popops::reduce(h.graph, x, outType, {1}, {Operation::ADD}, h.prog, "sum"), "sum");
        h.output(popops::reduce(h.graph, x, outType, {0, 1}, {Operation::MAX}, h.prog, "max"),
                 "max");
        h.output(popops::reduce(h.graph, x, outType, {1}, {Operation::SQUARE_ADD}, h.prog, "sq"),
                 "sq");
        const auto names = computeSetNames(h);
        CHECK(hasNameEnding(names, "reduce/onTile"));
        CHECK(hasNameEnding(names, "reduce/final"));
        const auto r = h.run();
        double most = xv[0];
        for (std::size_t row = 0; row < rows; ++row) {
            double sum = 0, sq = 0;
            for (std::size_t c = 0; c < columns; ++c) {
                const double v = xv[row * columns + c];
                sum += v;
                sq += v * v;
                most = std::max(most, v);
            }
            CHECK(r.at("sum")[row] == sum);
            CHECK(r.at("sq")[row] == sq);
        }
        CHECK(r.at("max")[0] == most);
    }
}

TEST_CASE("a staged reduceWithOutput updates and scales its output once") {
    Harness h;
    const auto xv = integers(3 * 512, -4, 4, 3);
    auto x = h.input(FLOAT, {3, 512}, xv, "x");
    auto acc = h.input(FLOAT, {3}, {10, 20, 30}, "acc");
    auto scale = h.graph.addConstant(FLOAT, {}, 0.5f, "half");
    h.graph.setTileMapping(scale, 0);
    popops::reduceWithOutput(h.graph, x, acc, {1}, {Operation::ADD, true, scale}, h.prog, "acc");
    h.output(acc, "acc");
    CHECK(hasNameEnding(computeSetNames(h), "reduce/final"));
    const auto r = h.run();
    for (std::size_t row = 0; row < 3; ++row) {
        double sum = 0;
        for (std::size_t c = 0; c < 512; ++c)
            sum += xv[row * 512 + c];
        CHECK(r.at("acc")[row] == 10.0 * (row + 1) + 0.5 * sum);
    }
}

TEST_CASE("reductions whose outputs receive few partials stay in one stage") {
    Harness h;
    auto x = h.input(FLOAT, {4, 16}, integers(64, -3, 3, 5), "x");
    h.output(popops::reduce(h.graph, x, {1}, {Operation::ADD}, h.prog, "sum"), "sum");
    const auto names = computeSetNames(h);
    CHECK_FALSE(hasNameEnding(names, "reduce/onTile"));
    CHECK(hasNameEnding(names, "reduce"));
}

TEST_CASE("outputs whose partials lie on more than 32 tiles get a further stage, same results") {
    // Each of the 6 rows spread over 48 tiles: 48 per-tile values are more than PopLibs' final
    // stage reads (32), so groups of 24 are reduced first, each on the tile of its first value.
    const std::size_t rows = 6, columns = 48 * 16;
    Harness h(48);
    const auto xv = integers(rows * columns, -3, 3, 11);
    auto x = h.graph.addVariable(FLOAT, {rows, columns}, "x");
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t t = 0; t < 48; ++t)
            h.graph.setTileMapping(x[r].slice(t * 16, (t + 1) * 16), unsigned(t));
    h.addInput(x, xv, "x");
    h.output(popops::reduce(h.graph, x, {1}, {Operation::ADD}, h.prog, "sum"), "sum");
    const auto names = computeSetNames(h);
    CHECK(hasNameEnding(names, "reduce/onTile"));
    CHECK(hasNameEnding(names, "reduce/stage2"));
    CHECK_FALSE(hasNameEnding(names, "reduce/stage3"));
    CHECK(hasNameEnding(names, "reduce/final"));
    // A tile's outputs of the first stage share a vertex per worker: 6 rows of 16 partials on
    // each of the 48 tiles make one vertex per tile and row (6 workers), not more.
    const auto& model = *h.graph.model();
    std::size_t firstStageSets = 0;
    for (const auto& cs : model.computeSets)
        if (hasNameEnding(std::vector<std::string>{cs.name}, "reduce/onTile")) {
            ++firstStageSets;
            CHECK(cs.vertices.size() == 48 * 6);
        }
    CHECK(firstStageSets == 1);
    const auto r = h.run();
    for (std::size_t row = 0; row < rows; ++row) {
        double sum = 0;
        for (std::size_t c = 0; c < columns; ++c)
            sum += xv[row * columns + c];
        CHECK(r.at("sum")[row] == sum);
    }
}
