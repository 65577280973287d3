// poplin::matMulAcc and matMulGroupedAcc against the host: C += k * A x B with k a number or a
// scalar tensor, and an accumulator of the wrong shape refused by name.

#include "PoplibsHarness.hpp"

#include <catch2/catch.hpp>
#include <poplin/MatMul.hpp>

using namespace poplibstest;
using poplar::FLOAT;

TEST_CASE("poplin::matMulAcc and matMulGroupedAcc add k * A x B to C") {
    Harness h;
    const std::size_t G = 2, M = 3, K = 4, N = 2;
    const auto av = integers(G * M * K, -3, 3, 1), bv = integers(G * K * N, -3, 3, 2);
    const auto cv = integers(G * M * N, -5, 5, 3);
    auto a = h.input(FLOAT, {G, M, K}, av, "a");
    auto b = h.input(FLOAT, {G, K, N}, bv, "b");
    auto c = h.input(FLOAT, {G, M, N}, cv, "c");
    auto c0 = h.input(FLOAT, {M, N}, std::vector<double>(cv.begin(), cv.begin() + M * N), "c0");
    auto k = h.graph.addConstant(FLOAT, {}, -2.0f, "k");
    h.graph.setTileMapping(k, 0);
    poplin::matMulGroupedAcc(h.graph, c, k, a, b, h.prog);
    poplin::matMulAcc(h.graph, c0, 0.5f, a[0], b[0], h.prog);
    h.output(c, "c");
    h.output(c0, "c0");
    const auto r = h.run();
    for (std::size_t g = 0; g < G; ++g)
        for (std::size_t m = 0; m < M; ++m)
            for (std::size_t n = 0; n < N; ++n) {
                double dot = 0;
                for (std::size_t i = 0; i < K; ++i)
                    dot += av[(g * M + m) * K + i] * bv[(g * K + i) * N + n];
                const std::size_t at = (g * M + m) * N + n;
                CHECK(r.at("c")[at] == cv[at] - 2.0 * dot);
                if (g == 0)
                    CHECK(r.at("c0")[at] == cv[at] + 0.5 * dot);
            }
    auto wrong = h.input(FLOAT, {N, M}, std::vector<double>(M * N, 0.0), "wrong");
    CHECK_THROWS_WITH(poplin::matMulAcc(h.graph, wrong, 1.0f, a[0], b[0], h.prog),
                      Catch::Contains("'wrong'") && Catch::Contains("product's shape"));
}
