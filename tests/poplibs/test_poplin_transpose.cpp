// poplin::matMul of transposed operands (K^T of attention, x^T of a weight gradient): the operand
// is made row-major by Transpose2d vertices on the tiles that hold it, which moves values only, so
// products are bit-identical to those of the same operand stored row-major; the vertices' cycles
// follow PopLibs' Transpose2d estimator.

#include "PoplibsHarness.hpp"
#include "popops/Transpose2d.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <catch2/catch.hpp>
#include <poplin/MatMul.hpp>

using namespace poplibstest;
using poplar::FLOAT;
using poplar::HALF;

namespace {

/// The values of a row-major {rows, cols} matrix, transposed.
std::vector<double> transposed(const std::vector<double>& v, std::size_t rows, std::size_t cols) {
    std::vector<double> t(v.size());
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            t[c * rows + r] = v[r * cols + c];
    return t;
}

/// Names of the vertex types in compute sets whose name ends in `suffix`.
std::vector<std::string> vertexTypesIn(const poplar::Graph& graph, const std::string& suffix) {
    std::vector<std::string> types;
    const auto& model = *graph.model();
    for (const auto& cs : model.computeSets) {
        if (cs.name.size() < suffix.size() ||
            cs.name.compare(cs.name.size() - suffix.size(), suffix.size(), suffix) != 0)
            continue;
        for (auto v : cs.vertices)
            types.push_back(model.vertexTypes.at(model.vertices[v].type).name);
    }
    return types;
}

} // namespace

TEST_CASE("matMul of transposed operands equals, bit for bit, matMul of the same values stored "
          "row-major") {
    // Non-integer values, so any change of summation order or of a value would show.
    const std::size_t M = 24, K = 40, N = 36;
    for (auto type : {FLOAT, HALF}) {
        INFO("type " << type);
        Harness h(16);
        const auto av = values(M * K, -1, 1, 3);
        const auto bv = values(K * N, -1, 1, 4);
        // B^T stored {N, K} and A^T stored {K, M}: the products read their transposes.
        auto bT = h.input(type, {N, K}, transposed(bv, K, N), "bT");
        auto aT = h.input(type, {K, M}, transposed(av, M, K), "aT");
        auto a = h.input(type, {M, K}, av, "a");
        auto b = h.input(type, {K, N}, bv, "b");
        h.output(poplin::matMul(h.graph, a, b, h.prog, FLOAT, "rowMajor"), "want");
        h.output(poplin::matMul(h.graph, a, bT.transpose(), h.prog, FLOAT, "bTransposed"), "bt");
        h.output(poplin::matMul(h.graph, aT.transpose(), b, h.prog, FLOAT, "aTransposed"), "at");
        CHECK(vertexTypesIn(h.graph, "rowMajor/Transpose").empty());
        const auto r = h.run();
        CHECK(r.at("bt") == r.at("want"));
        CHECK(r.at("at") == r.at("want"));
    }
}

TEST_CASE("a transposed operand gets a Transpose compute set of Transpose2d vertices and no "
          "copies") {
    Harness h(16);
    auto k = h.input(FLOAT, {64, 32}, values(64 * 32, -1, 1, 5), "k");
    auto q = h.input(FLOAT, {64, 32}, values(64 * 32, -1, 1, 6), "q");
    h.output(poplin::matMul(h.graph, q, k.transpose(), h.prog, "scores"), "s");
    const auto types = vertexTypesIn(h.graph, "scores/Transpose");
    REQUIRE_FALSE(types.empty());
    for (const auto& t : types)
        CHECK(t == "popops::Transpose2d<float>");
    // Every element of the operand is moved by exactly one transpose vertex, on the tile that
    // holds it (so the Transpose compute set needs no exchange).
    const auto& model = *h.graph.model();
    std::size_t moved = 0;
    for (const auto& cs : model.computeSets)
        if (cs.name.size() >= 9 && cs.name.compare(cs.name.size() - 9, 9, "Transpose") == 0)
            for (auto v : cs.vertices) {
                const auto& vertex = model.vertices[v];
                const auto& type = model.vertexTypes.at(vertex.type);
                for (std::size_t f = 0; f < type.fields.size(); ++f)
                    if (type.fields[f].name == "src")
                        for (const auto& item : vertex.fields[f].items)
                            moved += item->numElements();
            }
    CHECK(moved == 64 * 32);
    CHECK(h.run().count("s") == 1);
}

TEST_CASE("Transpose2d cycles follow PopLibs' estimator, fast and slow paths") {
    using tilescope::poplibs::transpose2dCycles;
    // 4-byte fast path: 27 + matrices * (11 + rows/2 * (6 + 3 * (cols/2 - 1))).
    CHECK(transpose2dCycles(FLOAT, 8, 16, 1) == 27 + 11 + 4 * (6 + 3 * 7));
    CHECK(transpose2dCycles(FLOAT, 8, 16, 3) == 27 + 3 * (11 + 4 * (6 + 3 * 7)));
    // 4-byte slow path (odd sizes, or strides past 512): 13 + m * (8 + cols * (5 + rows * 2)).
    CHECK(transpose2dCycles(FLOAT, 3, 5, 1) == 13 + 8 + 5 * (5 + 6));
    CHECK(transpose2dCycles(FLOAT, 64, 40, 1) == 13 + 8 + 40 * (5 + 128));
    // 2-byte fast path with >= 8 columns: 37 + m * (12 + rows/4 * (15 + 4 * (cols/4 - 2))).
    CHECK(transpose2dCycles(HALF, 8, 16, 1) == 37 + 12 + 2 * (15 + 4 * 2));
    // 2-byte, 4 columns: 4x4 is 32 + 15 m; Nx4 is 28 + m * (17 + 20 + 4 * (rows/4 - 2)).
    CHECK(transpose2dCycles(HALF, 4, 4, 2) == 32 + 30);
    CHECK(transpose2dCycles(HALF, 12, 4, 1) == 28 + 17 + 20 + 4);
    // 2-byte slow path: 15 + m * (8 + cols * (5 + rows * 5 / 2)).
    CHECK(transpose2dCycles(HALF, 3, 3, 1) == 15 + 8 + 3 * (5 + 7));
}
