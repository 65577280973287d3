// Tensor views: shapes, element order and aliasing, checked through the simulator's view.

#include <catch2/catch.hpp>
#include <numeric>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

/// Flat element indices of `t` within variable `var` (all tests use one variable per tensor).
std::vector<std::uint64_t> elements(const Tensor& t) {
    std::vector<std::uint64_t> out;
    for (const auto& r : t.view().ranges)
        for (auto e = r.begin; e < r.end; ++e)
            out.push_back(e);
    return out;
}

std::vector<std::uint64_t> iota(std::uint64_t n, std::uint64_t from = 0) {
    std::vector<std::uint64_t> v(n);
    std::iota(v.begin(), v.end(), from);
    return v;
}

} // namespace

TEST_CASE("shape queries and indexing", "[tensor]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    Tensor t = g.addVariable(FLOAT, {2, 3, 4}, "t");
    CHECK(t.rank() == 3);
    CHECK(t.shape() == std::vector<std::size_t>{2, 3, 4});
    CHECK(t.dim(2) == 4);
    CHECK(t.numElements() == 24);
    CHECK(t.elementType() == FLOAT);
    CHECK(t[1].shape() == std::vector<std::size_t>{3, 4});
    CHECK(elements(t[1]) == iota(12, 12));
    CHECK(elements(t[1][2]) == iota(4, 20));
    CHECK(elements(t.index({1, 2, 3})) == std::vector<std::uint64_t>{23});
    CHECK(t.index({1, 2, 3}).rank() == 0);
    CHECK_THROWS_AS(t[2], index_error);
    CHECK_THROWS_AS(t.dim(3), index_error);
    CHECK_THROWS_WITH(t[5], Catch::Contains("'t'"));
}

TEST_CASE("slices in one and several dimensions", "[tensor]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    Tensor t = g.addVariable(INT, {3, 4}, "t");
    CHECK(elements(t.slice(1, 3)) == iota(8, 4));
    CHECK(elements(t.slice(1, 3, 1)) == std::vector<std::uint64_t>{1, 2, 5, 6, 9, 10});
    CHECK(elements(t.slice({1, 1}, {3, 3})) == std::vector<std::uint64_t>{5, 6, 9, 10});
    CHECK(t.slice(Interval(0, 2), 1).shape() == std::vector<std::size_t>{3, 2});
    CHECK(t.slices({Interval(0, 1), Interval(2, 3)}).size() == 2);
    CHECK_THROWS_AS(t.slice(2, 5), index_error);
    CHECK_THROWS_AS(t.slice(3, 2), index_error);
    CHECK_THROWS_AS(t.slice(std::vector<std::size_t>{0}, std::vector<std::size_t>{1}), index_error);
}

TEST_CASE("reshape, flatten, transpose, dimShuffle and dimRoll", "[tensor]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    Tensor t = g.addVariable(FLOAT, {2, 3}, "t");
    CHECK(t.reshape({3, 2}).shape() == std::vector<std::size_t>{3, 2});
    CHECK(elements(t.reshape({3, 2})) == iota(6));
    CHECK(t.flatten().shape() == std::vector<std::size_t>{6});
    CHECK(elements(t.transpose()) == std::vector<std::uint64_t>{0, 3, 1, 4, 2, 5});
    CHECK(t.transpose().shape() == std::vector<std::size_t>{3, 2});
    Tensor u = g.addVariable(FLOAT, {2, 3, 4}, "u");
    CHECK(u.dimShuffle({2, 0, 1}).shape() == std::vector<std::size_t>{4, 2, 3});
    CHECK(elements(u.dimShuffle({2, 0, 1})[1][1]) == std::vector<std::uint64_t>{13, 17, 21});
    CHECK(u.dimRoll(2, 0).shape() == std::vector<std::size_t>{4, 2, 3});
    CHECK(u.flatten(1, 3).shape() == std::vector<std::size_t>{2, 12});
    CHECK_THROWS_AS(t.reshape({4, 2}), tensor_creation_error);
    CHECK_THROWS_AS(u.transpose(), tensor_creation_error);
    CHECK_THROWS_AS(u.dimShuffle({0, 0, 1}), tensor_creation_error);
}

TEST_CASE("broadcast, expand, squeeze, reverse, subSample, upsample", "[tensor]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    Tensor t = g.addVariable(FLOAT, {3}, "t");
    CHECK(elements(t.broadcast(2, 0)) == std::vector<std::uint64_t>{0, 1, 2, 0, 1, 2});
    CHECK(t.expand({0, 2}).shape() == std::vector<std::size_t>{1, 3, 1});
    CHECK(t.expand({0}).squeeze({0}).shape() == std::vector<std::size_t>{3});
    CHECK_THROWS_AS(t.squeeze({0}), index_error);
    CHECK(elements(t.reverse(0)) == std::vector<std::uint64_t>{2, 1, 0});
    CHECK(elements(t.subSample(2, 0)) == std::vector<std::uint64_t>{0, 2});
    CHECK(elements(t.upsample(2, 0)) == std::vector<std::uint64_t>{0, 0, 1, 1, 2, 2});
    CHECK(t.reverse(0).isContiguous() == false);
    CHECK(t.isContiguous());
    CHECK(t.broadcast(2, 0).containsAliases());
    CHECK_FALSE(t.containsAliases());
}

TEST_CASE("concat joins along any dimension and checks shapes and types", "[tensor]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    Tensor a = g.addVariable(FLOAT, {2, 2}, "a");
    Tensor b = g.addVariable(FLOAT, {2, 1}, "b");
    Tensor c = concat(a, b, 1);
    CHECK(c.shape() == std::vector<std::size_t>{2, 3});
    const auto& r = c.view().ranges;
    REQUIRE(r.size() == 4);
    CHECK(r[0].variable == r[2].variable);
    CHECK(r[1].variable == r[3].variable);
    CHECK(r[0].variable != r[1].variable);
    CHECK(concat({a, a, a}).shape() == std::vector<std::size_t>{6, 2});
    CHECK(append(a, a[0], 0).shape() == std::vector<std::size_t>{3, 2});
    CHECK_THROWS_AS(concat(a, b, 0), index_error);
    CHECK_THROWS_AS(concat(a, g.addVariable(INT, {2, 2}, "i"), 0), type_error);
}

TEST_CASE("views share storage when the engine runs", "[tensor][engine]") {
    Device device = IPUModel().createDevice();
    Graph g(device.getTarget());
    Tensor m = g.addVariable(INT, {3, 3}, "m");
    g.setTileMapping(m, 0);
    g.setTileMapping(m[2], 1);
    Tensor ones = g.addConstant<int>(INT, {3}, 1);
    g.setTileMapping(ones, 1);
    g.createHostWrite("m-in", m);
    g.createHostRead("m-out", m);
    g.createHostRead("diag", m.flatten().subSample(4, 0));
    // Write the transpose's first row (m's first column), then the reversed last row.
    Sequence prog{Copy(ones, m.transpose()[0]), Copy(m[0].reverse(0), m[2])};
    Engine e(g, prog);
    e.load(device);
    std::vector<int> in = {0, 2, 3, 4, 5, 6, 7, 8, 9};
    e.writeTensor("m-in", in.data(), in.data() + in.size());
    e.run();
    std::vector<int> out(9), diag(3);
    e.readTensor("m-out", out.data(), out.data() + out.size());
    e.readTensor("diag", diag.data(), diag.data() + diag.size());
    CHECK(out == std::vector<int>{1, 2, 3, 1, 5, 6, 3, 2, 1});
    CHECK(diag == std::vector<int>{1, 5, 1});
}

namespace {

/// Naive reference: the source flat index of every element of a view, tracked as a host array
/// transformed with the same operation, element by element.
struct ReferenceView {
    std::vector<std::size_t> shape;
    std::vector<std::uint64_t> flat;

    std::uint64_t at(const std::vector<std::size_t>& idx) const {
        std::uint64_t f = 0;
        for (std::size_t d = 0; d < shape.size(); ++d)
            f = f * shape[d] + idx[d];
        return flat[f];
    }
    /// Builds a view of `newShape` whose element idx is this view's element source(idx).
    template <typename Fn> ReferenceView map(std::vector<std::size_t> newShape, Fn source) const {
        ReferenceView out{newShape, {}};
        std::size_t n = 1;
        for (auto d : newShape)
            n *= d;
        std::vector<std::size_t> idx(newShape.size(), 0);
        for (std::size_t i = 0; i < n; ++i) {
            std::size_t rem = i;
            for (std::size_t d = newShape.size(); d-- > 0;) {
                idx[d] = rem % newShape[d];
                rem /= newShape[d];
            }
            out.flat.push_back(at(source(idx)));
        }
        return out;
    }
};

} // namespace

TEST_CASE("composed views match an element-by-element reference", "[tensor]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    Tensor base = g.addVariable(FLOAT, {5, 6, 7}, "t");
    ReferenceView ref{{5, 6, 7}, iota(210)};
    Tensor t = base;
    std::uint32_t seed = 12345;
    auto next = [&](std::uint32_t n) {
        seed = seed * 1664525u + 1013904223u;
        return (seed >> 8) % n;
    };
    for (int step = 0; step < 60; ++step) {
        const unsigned dim = next(unsigned(ref.shape.size()));
        const std::size_t size = ref.shape[dim];
        switch (next(6)) {
        case 0: { // slice, possibly not at the ends
            const std::size_t b = next(unsigned(size)), e = b + 1 + next(unsigned(size - b));
            t = t.slice(b, e, dim);
            auto shape = ref.shape;
            shape[dim] = e - b;
            ref = ref.map(shape, [&](auto idx) {
                idx[dim] += b;
                return idx;
            });
            break;
        }
        case 1: { // transpose of two dimensions
            const unsigned other = next(unsigned(ref.shape.size()));
            std::vector<unsigned> perm(ref.shape.size());
            std::iota(perm.begin(), perm.end(), 0u);
            std::swap(perm[dim], perm[other]);
            t = t.dimShuffle(perm);
            auto shape = ref.shape;
            std::swap(shape[dim], shape[other]);
            ref = ref.map(shape, [&](auto idx) {
                std::swap(idx[dim], idx[other]);
                return idx;
            });
            break;
        }
        case 2: // reverse
            t = t.reverse(dim);
            ref = ref.map(ref.shape, [&](auto idx) {
                idx[dim] = size - 1 - idx[dim];
                return idx;
            });
            break;
        case 3: { // subSample
            const unsigned stride = 1 + next(3);
            t = t.subSample(stride, dim);
            auto shape = ref.shape;
            shape[dim] = (size + stride - 1) / stride;
            ref = ref.map(shape, [&](auto idx) {
                idx[dim] *= stride;
                return idx;
            });
            break;
        }
        case 4: // broadcast or upsample, kept small
            if (t.numElements() < 400) {
                const unsigned k = 2;
                auto shape = ref.shape;
                shape[dim] *= k;
                if (next(2)) {
                    t = t.broadcast(k, dim);
                    ref = ref.map(shape, [&](auto idx) {
                        idx[dim] %= size;
                        return idx;
                    });
                } else {
                    t = t.upsample(k, dim, UpsampleMethod::REPEAT);
                    ref = ref.map(shape, [&](auto idx) {
                        idx[dim] /= k;
                        return idx;
                    });
                }
            }
            break;
        default: // back to the full variable now and then, so shapes stay interesting
            if (t.numElements() < 8) {
                t = base;
                ref = ReferenceView{{5, 6, 7}, iota(210)};
            }
            break;
        }
        REQUIRE(t.shape() == ref.shape);
        REQUIRE(elements(t) == ref.flat);
    }
    // Concatenation along an inner dimension of two differently sliced views.
    Tensor a = base.slice(1, 3, 1), b = base.slice(4, 6, 1).reverse(2);
    ReferenceView full{{5, 6, 7}, iota(210)};
    Tensor c = concat(a, b, 1);
    ReferenceView rc = full.map({5, 4, 7}, [&](auto idx) {
        if (idx[1] < 2)
            idx[1] += 1;
        else {
            idx[1] += 2;
            idx[2] = 6 - idx[2];
        }
        return idx;
    });
    CHECK(elements(c) == rc.flat);
}
