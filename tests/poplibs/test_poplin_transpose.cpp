// poplin::matMul's operand layouts as PopLibs' convolution wants them (A row-major, B's transpose
// row-major: input channels K innermost for both): a transposed A (x^T of a weight gradient) is
// made row-major by Transpose2d vertices on the tiles that hold it; a row-major B is pre-arranged
// (copied to the planned rectangles, transposed there); a transposed B (K^T of attention) is
// used as it is. Values are only moved, so products are bit-identical whatever the layout; the
// vertices' cycles follow PopLibs' Transpose2d estimator.

#include "PoplibsHarness.hpp"
#include "popops/Transpose2d.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <catch2/catch.hpp>
#include <cstring>
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
        CHECK_FALSE(vertexTypesIn(h.graph, "rowMajor/PreArrange").empty());
        CHECK(vertexTypesIn(h.graph, "bTransposed/PreArrange").empty());
        CHECK_FALSE(vertexTypesIn(h.graph, "aTransposed/Transpose").empty());
        const auto r = h.run();
        CHECK(r.at("bt") == r.at("want"));
        CHECK(r.at("at") == r.at("want"));
    }
}

/// Elements read by the `src` fields of the vertices in compute sets whose name ends in `suffix`.
std::size_t elementsMovedIn(const poplar::Graph& graph, const std::string& suffix) {
    const auto& model = *graph.model();
    std::size_t moved = 0;
    for (const auto& cs : model.computeSets)
        if (cs.name.size() >= suffix.size() &&
            cs.name.compare(cs.name.size() - suffix.size(), suffix.size(), suffix) == 0)
            for (auto v : cs.vertices) {
                const auto& vertex = model.vertices[v];
                const auto& type = model.vertexTypes.at(vertex.type);
                for (std::size_t f = 0; f < type.fields.size(); ++f)
                    if (type.fields[f].name == "src")
                        for (const auto& item : vertex.fields[f].items)
                            moved += item->numElements();
            }
    return moved;
}

TEST_CASE("a transposed A gets a Transpose compute set of Transpose2d vertices, a transposed B "
          "none") {
    Harness h(16);
    auto x = h.input(FLOAT, {64, 32}, values(64 * 32, -1, 1, 5), "x");
    auto k = h.input(FLOAT, {64, 32}, values(64 * 32, -1, 1, 5), "k");
    auto q = h.input(FLOAT, {64, 32}, values(64 * 32, -1, 1, 6), "q");
    // The weight gradient's x^T is A: transposed where it lives, every element by exactly one
    // transpose vertex on the tile that holds it (so the compute set needs no exchange).
    h.output(poplin::matMul(h.graph, x.transpose(), q, h.prog, "grad"), "g");
    const auto types = vertexTypesIn(h.graph, "grad/Transpose");
    REQUIRE_FALSE(types.empty());
    for (const auto& t : types)
        CHECK(t == "popops::Transpose2d<float>");
    CHECK(elementsMovedIn(h.graph, "grad/Transpose") == 64 * 32);
    // Attention's K^T is B: its transpose, K itself, has the input channels innermost already.
    h.output(poplin::matMul(h.graph, q, k.transpose(), h.prog, "scores"), "s");
    CHECK(vertexTypesIn(h.graph, "scores/Transpose").empty());
    CHECK(vertexTypesIn(h.graph, "scores/PreArrange").empty());
    const auto r = h.run();
    CHECK(r.count("g") == 1);
    CHECK(r.count("s") == 1);
}

TEST_CASE("a row-major B is pre-arranged: each element moved once, in groups of input channels") {
    Harness h(16);
    const std::size_t M = 48, K = 80, N = 40;
    const auto av = values(M * K, -1, 1, 7);
    const auto bv = values(K * N, -1, 1, 8);
    auto a = h.input(FLOAT, {M, K}, av, "a");
    auto b = h.input(FLOAT, {K, N}, bv, "b");
    h.output(poplin::matMul(h.graph, a, b, h.prog, "mm"), "c");
    const auto types = vertexTypesIn(h.graph, "mm/PreArrange");
    REQUIRE_FALSE(types.empty());
    for (const auto& t : types)
        CHECK(t == "popops::Transpose2d<float>");
    CHECK(elementsMovedIn(h.graph, "mm/PreArrange") == K * N);
    // Each vertex transposes at most one group of the AMP's input channels (16 FLOAT on ipu2).
    const auto& model = *h.graph.model();
    for (const auto& cs : model.computeSets)
        if (cs.name == "mm/PreArrange")
            for (auto v : cs.vertices) {
                const auto& vertex = model.vertices[v];
                const auto& type = model.vertexTypes.at(vertex.type);
                for (std::size_t f = 0; f < type.fields.size(); ++f)
                    if (type.fields[f].name == "numSrcRows") {
                        unsigned short rows = 0;
                        REQUIRE(vertex.fields[f].stateValue.size() == sizeof rows);
                        std::memcpy(&rows, vertex.fields[f].stateValue.data(), sizeof rows);
                        CHECK(rows >= 1);
                        CHECK(rows <= 16);
                    }
            }
    // A B created by createMatMulInputRHS is laid out as the product wants it: no pre-arrangement.
    auto b2 = poplin::createMatMulInputRHS(h.graph, FLOAT, {M, K}, {K, N}, "b2");
    h.prog.add(poplar::program::Copy(b, b2));
    h.output(poplin::matMul(h.graph, a, b2, h.prog, "created"), "c2");
    CHECK(vertexTypesIn(h.graph, "created/PreArrange").empty());
    const auto r = h.run();
    CHECK(r.at("c") == r.at("c2"));
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
