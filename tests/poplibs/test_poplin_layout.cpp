// The layout of poplin::matMul's result as PopLibs returns it (the convolution's output: A's
// rows, its output channels, innermost in groups of the AMP's conv units), what a following
// product does with it (regroups it as its weights, in the compute set that regroups B), and
// what element-wise work and clones do with a tensor whose memory order is not its index order.

#include "PoplibsHarness.hpp"
#include "VertexEstimates.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>
#include <poplin/MatMul.hpp>
#include <popops/ElementWise.hpp>

using namespace poplibstest;
using poplar::FLOAT;
using poplar::HALF;

namespace {

std::uint64_t variableElements(const poplar::Graph& graph, const std::string& name) {
    for (const auto& v : graph.model()->variables)
        if (v.name == name)
            return v.numElements;
    return 0;
}

} // namespace

TEST_CASE("a product's result has A's rows innermost in groups of the conv units") {
    for (auto [type, group] :
         {std::pair{FLOAT, std::size_t(8)}, std::pair{HALF, std::size_t(16)}}) {
        INFO("type " << type);
        Harness h(16);
        const std::size_t M = 32, K = 48, N = 40;
        auto a = h.input(type, {M, K}, integers(M * K, -2, 2, 1), "a");
        auto b = h.input(type, {K, N}, integers(K * N, -2, 2, 2), "b");
        const poplar::Tensor c = poplin::matMul(h.graph, a, b, h.prog, FLOAT, "mm");
        // A column's rows are contiguous in runs of `group` (one conv unit group), not beyond.
        CHECK(c.slice({0, 3}, {group, 4}).flatten().isContiguous());
        CHECK_FALSE(c.slice({0, 3}, {group + 1, 4}).flatten().isContiguous());
        CHECK_FALSE(c[0].isContiguous());
    }
}

TEST_CASE("a product's result taken as the next product's A is regrouped with B in one "
          "PreArrange compute set, with exact results") {
    Harness h(16);
    const std::size_t M = 32, K = 48, N = 40, P = 24;
    const auto av = integers(M * K, -2, 2, 3), bv = integers(K * N, -2, 2, 4);
    const auto dv = integers(N * P, -2, 2, 5);
    auto a = h.input(FLOAT, {M, K}, av, "a");
    auto b = h.input(FLOAT, {K, N}, bv, "b");
    auto d = h.input(FLOAT, {N, P}, dv, "d");
    const poplar::Tensor c = poplin::matMul(h.graph, a, b, h.prog, "first");
    h.output(poplin::matMul(h.graph, c, d, h.prog, "second"), "e");
    // The first product's A is row-major (input channels innermost): used as it is.
    CHECK(variableElements(h.graph, "first/weightsRearranged") == 0);
    // The second's A (the first's result) is regrouped and copied to the planned layout; its
    // transpositions share the compute set with D's.
    CHECK(variableElements(h.graph, "second/weightsRearranged") == M * N);
    CHECK(variableElements(h.graph, "second/inputRearranged") == N * P);
    CHECK(elementsMovedIn(h.graph, "second/PreArrange") == M * N + N * P);
    std::size_t preArrangeSets = 0;
    for (const auto& cs : h.graph.model()->computeSets)
        preArrangeSets += cs.name == "second/PreArrange";
    CHECK(preArrangeSets == 1);
    CHECK(h.run().at("e") == matMulReference(matMulReference(av, bv, M, K, N), dv, M, N, P));
}

TEST_CASE("a regroup spreads its transpositions over the tiles from the first, as SDK 2.x does") {
    // B {K, N} row-major is regrouped for the product: its preRegroup variable holds the
    // transpositions, spread evenly over the IPU's tiles from tile 0 (later PopLibs dithers the
    // first tile with a hash; SDK 2.x does not). Data already on its transposition's tile is
    // copied there by the Copy's on-tile part, a compute set of Poplar's copy vertices.
    Harness h(16);
    const std::size_t M = 16, K = 64, N = 32;
    auto a = h.input(FLOAT, {M, K}, integers(M * K, -2, 2, 7), "a");
    auto b = h.input(FLOAT, {K, N}, integers(K * N, -2, 2, 8), "b");
    poplin::matMul(h.graph, a, b, h.prog, "mm");
    const auto& model = *h.graph.model();
    const tilescope::sim::VariableInfo* pre = nullptr;
    for (const auto& v : model.variables)
        if (v.name == "mm/preRegroup")
            pre = &v;
    REQUIRE(pre != nullptr);
    std::vector<std::size_t> perTile(16, 0);
    for (auto t : pre->tileOf)
        ++perTile.at(static_cast<std::size_t>(t));
    CHECK(perTile.front() > 0);
    // Used tiles come first, each holding as many elements as the first (the last may hold fewer).
    std::size_t used = 0;
    while (used < perTile.size() && perTile[used] > 0)
        ++used;
    for (std::size_t t = 0; t < used; ++t)
        CHECK(perTile[t] <= perTile.front());
    for (std::size_t t = used; t < perTile.size(); ++t)
        CHECK(perTile[t] == 0);
    const poplar::Engine engine(h.graph, h.prog);
    bool onTileCopy = false;
    for (const auto& cs : engine.compileRecords().computeSets)
        onTileCopy = onTileCopy || cs.name.find("/OnTileCopy-0") != std::string::npos;
    CHECK(onTileCopy);
}

TEST_CASE("a clone keeps its original's memory order, and element-wise work on both reads "
          "whole runs") {
    Harness h(4);
    const std::size_t M = 16, N = 24;
    const auto xv = integers(M * N, -3, 3, 6);
    auto x = h.input(FLOAT, {N, M}, xv, "x");
    const poplar::Tensor xt = x.transpose(); // {M, N}, columns contiguous
    const poplar::Tensor y = h.graph.clone(xt, "y");
    CHECK(y.transpose()[0].isContiguous());
    CHECK_FALSE(y[0].isContiguous());
    // A new order when asked for one.
    const poplar::Tensor z = h.graph.clone(xt, "z", poplar::TensorCloneMethod::CREATE_NEW_ORDER);
    CHECK(z[0].isContiguous());
    // x^T + x^T: the vertices read x in memory order, so each field is a few regions, not one
    // region per element.
    const poplar::Tensor sum = popops::add(h.graph, xt, xt, h.prog, "sum");
    std::size_t regions = 0, fields = 0;
    const auto& model = *h.graph.model();
    for (const auto& cs : model.computeSets)
        if (cs.name.find("sum") != std::string::npos)
            for (auto v : cs.vertices)
                for (const auto& field : model.vertices[v].fields)
                    for (const auto& item : field.items) {
                        regions += item->ranges.size();
                        ++fields;
                    }
    REQUIRE(fields > 0);
    CHECK(regions <= 2 * fields);
    h.output(sum, "sum");
    const auto r = h.run();
    for (std::size_t m = 0; m < M; ++m)
        for (std::size_t n = 0; n < N; ++n)
            CHECK(r.at("sum")[m * N + n] == 2 * xv[n * M + m]);
}
