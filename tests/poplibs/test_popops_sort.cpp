// popops::sort, sortInPlace, sortKeyValue and sortKeyValueInPlace against a host stable sort,
// along each dimension of a 3D tensor, for each supported type, with many ties.

#include "PoplibsHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <popops/Sort.hpp>

using namespace poplibstest;
using poplar::FLOAT;

namespace {

/// Index of element (i0, i1, i2) of a row-major {d0, d1, d2} array.
std::size_t at3(const std::vector<std::size_t>& d, std::size_t i0, std::size_t i1, std::size_t i2) {
    return (i0 * d[1] + i1) * d[2] + i2;
}

/// For each 1D slice of `keys` along `dim`, the stable ascending order of its positions: out[i]
/// is the flat index whose key lands at flat index i after the sort.
std::vector<std::size_t> hostSortOrder(const std::vector<double>& keys,
                                       const std::vector<std::size_t>& d, unsigned dim) {
    std::vector<std::size_t> out(keys.size());
    std::vector<std::size_t> other;
    for (unsigned x = 0; x < 3; ++x)
        if (x != dim)
            other.push_back(x);
    for (std::size_t a = 0; a < d[other[0]]; ++a)
        for (std::size_t b = 0; b < d[other[1]]; ++b) {
            std::vector<std::size_t> slice;
            for (std::size_t j = 0; j < d[dim]; ++j) {
                std::size_t idx[3];
                idx[other[0]] = a;
                idx[other[1]] = b;
                idx[dim] = j;
                slice.push_back(at3(d, idx[0], idx[1], idx[2]));
            }
            std::vector<std::size_t> sorted = slice;
            std::stable_sort(sorted.begin(), sorted.end(),
                             [&](std::size_t x, std::size_t y) { return keys[x] < keys[y]; });
            for (std::size_t j = 0; j < slice.size(); ++j)
                out[slice[j]] = sorted[j];
        }
    return out;
}

} // namespace

TEST_CASE("popops::sort and sortInPlace match a host sort along each dimension") {
    const std::vector<std::size_t> d = {2, 3, 5};
    for (const auto& type : {FLOAT, poplar::HALF, poplar::INT, poplar::UNSIGNED_INT})
        for (unsigned dim = 0; dim < 3; ++dim) {
            INFO("type " << type << " dim " << dim);
            Harness h;
            const auto xv = integers(30, 0, 6, 5 + dim);
            auto x = h.input(type, d, xv, "x");
            auto y = h.input(type, d, xv, "y");
            auto sorted = popops::sort(h.graph, x, dim, h.prog);
            CHECK(sorted.shape() == d);
            CHECK(sorted.elementType() == type);
            popops::sortInPlace(h.graph, y, dim, h.prog);
            h.output(sorted, "sorted");
            h.output(y, "inPlace");
            h.output(x, "x");
            const auto r = h.run();
            const auto order = hostSortOrder(xv, d, dim);
            for (std::size_t i = 0; i < xv.size(); ++i) {
                INFO("element " << i);
                CHECK(r.at("sorted")[i] == xv[order[i]]);
                CHECK(r.at("inPlace")[i] == xv[order[i]]);
            }
            CHECK(r.at("x") == xv); // sort leaves its input alone
        }
}

TEST_CASE("popops::sortKeyValue carries values stably and the in-place form sorts both") {
    const std::vector<std::size_t> d = {3, 4, 2};
    for (unsigned dim = 0; dim < 3; ++dim) {
        INFO("dim " << dim);
        Harness h;
        const auto kv = integers(24, 0, 2, 11 + dim); // three keys: many ties
        std::vector<double> vv(24);
        for (std::size_t i = 0; i < vv.size(); ++i)
            vv[i] = double(i) * 10;
        auto k = h.input(FLOAT, d, kv, "k");
        auto v = h.input(poplar::INT, d, vv, "v");
        auto permuted = popops::sortKeyValue(h.graph, k, v, dim, h.prog);
        CHECK(permuted.elementType() == poplar::INT);
        h.output(permuted, "permuted");
        popops::sortKeyValueInPlace(h.graph, k, v, dim, h.prog);
        h.output(k, "k");
        h.output(v, "v");
        const auto r = h.run();
        const auto order = hostSortOrder(kv, d, dim);
        for (std::size_t i = 0; i < kv.size(); ++i) {
            INFO("element " << i);
            CHECK(r.at("permuted")[i] == vv[order[i]]);
            CHECK(r.at("v")[i] == vv[order[i]]);
            CHECK(r.at("k")[i] == kv[order[i]]);
        }
    }
}

TEST_CASE("popops sorts refuse a missing dimension, mismatched shapes and BOOL by name") {
    Harness h;
    auto x = h.input(FLOAT, {2, 3}, values(6, 0, 1), "x");
    CHECK_THROWS_WITH(popops::sort(h.graph, x, 2, h.prog),
                      Catch::Contains("dimension 2") && Catch::Contains("'x'"));
    auto w = h.input(FLOAT, {3, 2}, values(6, 0, 1), "w");
    CHECK_THROWS_WITH(popops::sortKeyValue(h.graph, x, w, 1, h.prog),
                      Catch::Contains("'w'") && Catch::Contains("shape of keys"));
    auto b = h.graph.addVariable(poplar::BOOL, {4}, "b");
    h.graph.setTileMapping(b, 0);
    CHECK_THROWS_AS(popops::sortInPlace(h.graph, b, 0, h.prog), poplar::poplar_error);
}
