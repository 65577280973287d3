// popops::topK, topKWithPermutation and topKKeyValue against a host sort, for each SortOrder,
// largest and smallest, batch dimensions and ties.

#include "PoplibsHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <popops/SortOrder.hpp>
#include <popops/TopK.hpp>
#include <sstream>

using namespace poplibstest;
using poplar::FLOAT;
using popops::SortOrder;
using popops::TopKParams;

namespace {

/// The host's columns of one row's top k in the order the params ask (NONE: best first); ties
/// keep the lower column first.
std::vector<std::size_t> hostTopK(const std::vector<double>& row, const TopKParams& p) {
    std::vector<std::size_t> order(row.size());
    for (std::size_t c = 0; c < row.size(); ++c)
        order[c] = c;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return p.largest ? row[a] > row[b] : row[a] < row[b];
    });
    order.resize(p.k);
    const bool ascending =
        p.sortOrder == SortOrder::ASCENDING || (p.sortOrder == SortOrder::NONE && !p.largest);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return ascending ? row[a] < row[b] : row[a] > row[b];
    });
    return order;
}

} // namespace

TEST_CASE("popops::topKWithPermutation matches the host for each order, largest and smallest") {
    const std::size_t B0 = 2, B1 = 3, N = 6, K = 4;
    for (const auto& type : {FLOAT, poplar::HALF, poplar::INT, poplar::UNSIGNED_INT})
        for (bool largest : {true, false})
            for (SortOrder order : {SortOrder::NONE, SortOrder::ASCENDING, SortOrder::DESCENDING}) {
                const TopKParams params(K, largest, order);
                INFO("type " << type << " params " << params);
                Harness h;
                auto xv = integers(B0 * B1 * N, 0, 5, 17); // few values: many ties
                auto x = h.input(type, {B0, B1, N}, xv, "x");
                auto top = popops::topKWithPermutation(h.graph, h.prog, x, params);
                CHECK(top.first.shape() == std::vector<std::size_t>{B0, B1, K});
                CHECK(top.second.shape() == std::vector<std::size_t>{B0, B1, K});
                CHECK(top.first.elementType() == type);
                CHECK(top.second.elementType() == poplar::UNSIGNED_INT);
                h.output(top.first, "values");
                h.output(top.second, "indices");
                const auto r = h.run();
                for (std::size_t row = 0; row < B0 * B1; ++row) {
                    const std::vector<double> in(xv.begin() + row * N, xv.begin() + (row + 1) * N);
                    const auto want = hostTopK(in, params);
                    for (std::size_t j = 0; j < K; ++j) {
                        INFO("row " << row << " output " << j);
                        CHECK(r.at("indices")[row * K + j] == double(want[j]));
                        CHECK(r.at("values")[row * K + j] == in[want[j]]);
                    }
                }
            }
}

TEST_CASE("popops::topK of a 1D tensor, and topKKeyValue permutes the values alike") {
    Harness h;
    const std::vector<double> keys = {3, -1, 7, 7, 0, 5};
    const std::vector<double> vals = {10, 11, 12, 13, 14, 15};
    auto k = h.input(FLOAT, {6}, keys, "keys");
    auto v = h.input(poplar::INT, {6}, vals, "vals");
    h.output(popops::topK(h.graph, h.prog, k, TopKParams(3, true, SortOrder::DESCENDING)), "top");
    auto kv = popops::topKKeyValue(h.graph, h.prog, k, v, TopKParams(2, false, SortOrder::NONE));
    CHECK(kv.second.elementType() == poplar::INT);
    h.output(kv.first, "kvKeys");
    h.output(kv.second, "kvValues");
    const auto r = h.run();
    CHECK(r.at("top") == std::vector<double>{7, 7, 5});
    CHECK(r.at("kvKeys") == std::vector<double>{-1, 0});
    CHECK(r.at("kvValues") == std::vector<double>{11, 14});
}

TEST_CASE("popops topK rejects bad input with poplar_error and prints its parameters") {
    Harness h;
    auto x = h.input(FLOAT, {2, 3}, values(6, 0, 1), "x");
    CHECK_THROWS_AS(popops::topK(h.graph, h.prog, x, TopKParams(4, true, SortOrder::NONE)),
                    poplar::poplar_error);
    CHECK_THROWS_AS(popops::topK(h.graph, h.prog, x, TopKParams(0, true, SortOrder::NONE)),
                    poplar::poplar_error);
    auto wrongShape = h.input(FLOAT, {3, 2}, values(6, 0, 1), "w");
    CHECK_THROWS_AS(
        popops::topKKeyValue(h.graph, h.prog, x, wrongShape, TopKParams(1, true, SortOrder::NONE)),
        poplar::poplar_error);
    auto b = h.graph.addVariable(poplar::BOOL, {2, 3}, "b");
    h.graph.setTileMapping(b, 0);
    CHECK_THROWS_AS(popops::topK(h.graph, h.prog, b, TopKParams(1, true, SortOrder::NONE)),
                    poplar::poplar_error);
    std::ostringstream os;
    os << TopKParams(3, false, SortOrder::ASCENDING, true) << " " << SortOrder::NONE;
    CHECK(os.str() == "{k=3, largest=false, sortOrder=ASCENDING, stableSort=true} NONE");
}
