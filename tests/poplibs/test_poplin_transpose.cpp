// poplin::matMul's operand layouts as PopLibs' convolution wants them (A row-major, B's transpose
// row-major: input channels K innermost for both): a transposed A (x^T of a weight gradient) is
// made row-major by Transpose2d vertices on the tiles that hold it; a row-major B is regrouped as
// PopLibs does it (gathered onto the tiles in groups, transposed there, copied to the planned
// layout); a transposed B (K^T of attention) is
// used as it is. Values are only moved, so products are bit-identical whatever the layout; the
// vertices' cycles follow PopLibs' Transpose2d estimator.

#include "PoplibsHarness.hpp"
#include "VertexEstimates.hpp"
#include "popops/Transpose2d.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <poplin/MatMul.hpp>
#include <set>

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
        // B's columns lie on the 16 tiles in groups of 18 (90 elements a tile): a multiple of
        // FLOAT's regroup grain (2), so B is regrouped with transposes, not of HALF's (4), so
        // PopLibs only copies it to the planned layout.
        CHECK(vertexTypesIn(h.graph, "rowMajor/PreArrange").empty() == (type == HALF));
        CHECK(vertexTypesIn(h.graph, "bTransposed/PreArrange").empty());
        CHECK_FALSE(vertexTypesIn(h.graph, "aTransposed/Transpose").empty());
        const auto r = h.run();
        CHECK(r.at("bt") == r.at("want"));
        CHECK(r.at("at") == r.at("want"));
    }
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

/// The tiles that run vertices of compute set `name`, and the most vertices on one of them.
std::pair<std::size_t, std::size_t> tilesOf(const poplar::Graph& graph, const std::string& name) {
    const auto& model = *graph.model();
    std::map<std::int32_t, std::size_t> perTile;
    for (const auto& cs : model.computeSets)
        if (cs.name == name)
            for (auto v : cs.vertices)
                ++perTile[model.vertices[v].tile];
    std::size_t most = 0;
    for (const auto& [tile, n] : perTile)
        most = std::max(most, n);
    return {perTile.size(), most};
}

TEST_CASE("a row-major B is regrouped in PopLibs' three steps: gathered, transposed, copied to "
          "the planned layout") {
    Harness h(16);
    // B {80, 40} mapped linearly, 200 elements a tile: its columns come in groups of 40 on one
    // tile; the AMP wants groups of 16 input channels. PopLibs halves the 40 so that the 3200
    // elements make 10 transpositions of 16 x 20 (more, smaller ones while tiles are free).
    const std::size_t M = 32, K = 80, N = 40;
    auto a = h.input(FLOAT, {M, K}, values(M * K, -1, 1, 9), "a");
    auto b = h.input(FLOAT, {K, N}, values(K * N, -1, 1, 10), "b");
    h.output(poplin::matMul(h.graph, a, b, h.prog, "mm"), "c");
    const auto& model = *h.graph.model();
    std::map<std::string, std::uint64_t> sizes;
    for (const auto& v : model.variables)
        sizes[v.name] = v.numElements;
    // The gathered groups, their transposes and the planned layout each hold B once.
    CHECK(sizes.at("mm/preRegroup") == K * N);
    CHECK(sizes.at("mm/partialTranspose") == K * N);
    CHECK(sizes.at("mm/inputRearranged") == K * N);
    // One transposition on each of 10 tiles, each a 16 x 20 source.
    CHECK(tilesOf(h.graph, "mm/PreArrange") == std::make_pair(std::size_t(10), std::size_t(1)));
    CHECK(elementsMovedIn(h.graph, "mm/PreArrange") == K * N);
    for (const auto& cs : model.computeSets)
        if (cs.name == "mm/PreArrange")
            for (auto v : cs.vertices) {
                const auto& vertex = model.vertices[v];
                const auto& type = model.vertexTypes.at(vertex.type);
                for (std::size_t f = 0; f < type.fields.size(); ++f)
                    if (type.fields[f].name == "numSrcRows" ||
                        type.fields[f].name == "numSrcColumns") {
                        unsigned short n = 0;
                        std::memcpy(&n, vertex.fields[f].stateValue.data(), sizeof n);
                        CHECK(n == (type.fields[f].name == "numSrcRows" ? 16 : 20));
                    }
            }
    // The same values, B given with columns in groups of 5 (odd): no regroup, only the copy.
    Harness odd(16);
    auto a2 = odd.input(FLOAT, {M, K}, values(M * K, -1, 1, 9), "a");
    auto b2 = odd.graph.addVariable(FLOAT, {K, N}, "b");
    for (std::size_t r = 0; r < K; ++r)
        for (std::size_t c = 0; c < N; c += 5)
            odd.graph.setTileMapping(b2[r].slice(c, c + 5), unsigned((r * N + c) / 5 % 16));
    odd.addInput(b2, values(K * N, -1, 1, 10), "b");
    odd.output(poplin::matMul(odd.graph, a2, b2, odd.prog, "mm"), "c");
    CHECK(tilesOf(odd.graph, "mm/PreArrange").first == 0);
    CHECK(h.run().at("c") == odd.run().at("c"));
}

TEST_CASE("on two IPUs each of B's transpositions stays on the IPU that holds it") {
    // B spread linearly over both IPUs' 16 tiles: the transpositions whose elements the first IPU
    // holds are transposed there, the others on the second; the product is the one-IPU product.
    const std::size_t M = 32, K = 80, N = 40;
    const auto av = values(M * K, -1, 1, 11);
    const auto bv = values(K * N, -1, 1, 12);
    Harness two(8, 2);
    two.output(poplin::matMul(two.graph, two.input(FLOAT, {M, K}, av, "a"),
                              two.input(FLOAT, {K, N}, bv, "b"), two.prog, "mm"),
               "c");
    const auto& model = *two.graph.model();
    std::set<std::int32_t> ipus;
    for (const auto& cs : model.computeSets)
        if (cs.name == "mm/PreArrange")
            for (auto v : cs.vertices)
                ipus.insert(model.vertices[v].tile / 8);
    CHECK(ipus == std::set<std::int32_t>{0, 1});
    Harness one(16);
    one.output(poplin::matMul(one.graph, one.input(FLOAT, {M, K}, av, "a"),
                              one.input(FLOAT, {K, N}, bv, "b"), one.prog, "mm"),
               "c");
    CHECK(two.run().at("c") == one.run().at("c"));
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
