// popops::multiSlice, multiUpdate, multiUpdateAdd and multiUpdateMax against host references:
// FLOAT, HALF and INT tables, one and several parts of entries (a small memory share forces the
// plan to split them), a sliced dimension other than the first, repeated indices and indices
// past the end, all read at run time; and SlicePlan / embedding::plan themselves.

#include "PoplibsHarness.hpp"
#include "popops/SlicePlanInternal.hpp" // the plan's splits

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <poplar/exceptions.hpp>
#include <popops/DynamicSlice.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>

using namespace poplibstest;

namespace {

using Shape = std::vector<std::size_t>;

std::vector<double> asDoubles(const std::vector<unsigned>& v) {
    return {v.begin(), v.end()};
}

double rounded(const poplar::Type& type, double x) {
    return type == poplar::HALF ? toHalf(x) : x;
}

/// A table of `entries` x `elems` and the plan: none (empty constraints), or PopLibs' planner
/// with these planConstraints (entries split into parts, lookups into groups, or both).
struct Table {
    std::size_t entries, elems;
    std::string constraints;
    bool split() const { return !constraints.empty(); }
};

const std::vector<std::string> kConstraints = {
    "", R"({"slicedDimSplit": 3})", R"({"lookupSplit": 3})",
    R"({"lookupSplit": 2, "slicedDimSplit": 2, "unslicedDimSplit": 2})"};

popops::SlicePlan makePlan(Harness& h, const poplar::Type& type, const Table& c, std::size_t n) {
    if (!c.split())
        return popops::SlicePlan();
    return popops::embedding::plan(h.g(), type, c.entries, c.elems, {n},
                                   {{"planConstraints", c.constraints}});
}

const std::vector<unsigned> kIndices = {3, 0, 36, 3, 17, 40, 9, 36, 1000, 22, 5};

} // namespace

TEST_CASE("multiSlice matches the host, one and several parts, indices past the end give zeros",
          "[popops][multiSlice]") {
    for (const auto& type : {poplar::FLOAT, poplar::HALF, poplar::INT}) {
        for (const auto& constraints : kConstraints)
            for (const Table& c : {Table{37, 5, constraints}, Table{37, 3, constraints}}) {
                Harness h(16);
                const std::size_t n = kIndices.size();
                const auto plan = makePlan(h, type, c, n);
                poplar::Tensor t = popops::createSliceableTensor(h.g(), type, {c.entries, c.elems},
                                                                 {0}, {1}, plan, {}, "table");
                const auto data = integers(c.entries * c.elems, -50, 50, 3);
                h.addInput(t, data, "table");
                poplar::Tensor idx =
                    h.input(poplar::UNSIGNED_INT, {n, 1}, asDoubles(kIndices), "idx");
                poplar::Tensor s =
                    popops::multiSlice(h.g(), t, idx, {0}, {1}, h.prog, plan, {}, "lookup");
                REQUIRE(s.shape() == Shape{n, 1, c.elems});
                h.output(s, "s");
                const auto out = h.run()["s"];
                for (std::size_t i = 0; i < n; ++i)
                    for (std::size_t e = 0; e < c.elems; ++e) {
                        const double want = kIndices[i] < c.entries
                                                ? rounded(type, data[kIndices[i] * c.elems + e])
                                                : 0.0;
                        INFO(type.toString() << " " << c.entries << "x" << c.elems << " plan "
                                             << plan << " index " << i << " element " << e);
                        CHECK(out[i * c.elems + e] == want);
                    }
            }
    }
}

TEST_CASE("multiSlice slices a dimension other than the first", "[popops][multiSlice]") {
    Harness h(8);
    const Shape shape = {3, 10, 4};
    const auto data = integers(120, -9, 9, 5);
    poplar::Tensor t = h.input(poplar::FLOAT, shape, data, "t");
    const std::vector<unsigned> idx = {9, 2, 2, 0};
    poplar::Tensor offsets = h.input(poplar::UNSIGNED_INT, {4}, asDoubles(idx), "idx");
    poplar::Tensor s =
        popops::multiSlice(h.g(), t, offsets, {1}, {1}, h.prog, popops::SlicePlan(), {});
    REQUIRE(s.shape() == Shape{4, 3, 1, 4});
    h.output(s, "s");
    const auto out = h.run()["s"];
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t a = 0; a < 3; ++a)
            for (std::size_t b = 0; b < 4; ++b)
                CHECK(out[(i * 3 + a) * 4 + b] == data[(a * 10 + idx[i]) * 4 + b]);
}

TEST_CASE("multiSlice with indices known when building copies the slices", "[popops][multiSlice]") {
    Harness h(4);
    const auto data = values(6 * 3, -1, 1, 2);
    poplar::Tensor t = h.input(poplar::FLOAT, {6, 3}, data, "t");
    const std::vector<unsigned> idx = {5, 1, 5};
    poplar::Tensor s = popops::multiSlice(h.g(), t, idx, 0, h.prog, "static");
    REQUIRE(s.shape() == Shape{3, 1, 3});
    h.output(s, "s");
    const auto out = h.run()["s"];
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t e = 0; e < 3; ++e)
            CHECK(out[i * 3 + e] == Approx(data[idx[i] * 3 + e]));
    CHECK_THROWS_AS(popops::multiSlice(h.g(), t, std::vector<unsigned>{6}, 0, h.prog),
                    poputil::poplibs_error);
}

TEST_CASE("multiUpdate, multiUpdateAdd and multiUpdateMax match the host",
          "[popops][multiUpdate]") {
    enum Kind { Write, Add, Max };
    for (const auto& type : {poplar::FLOAT, poplar::HALF, poplar::INT}) {
        for (const auto& constraints : kConstraints) {
            const Table c{37, 6, constraints};
            for (Kind kind : {Write, Add, Max}) {
                Harness h(16);
                const std::size_t n = kIndices.size();
                const auto plan = makePlan(h, type, c, n);
                poplar::Tensor t = popops::createSliceableTensor(h.g(), type, {c.entries, c.elems},
                                                                 {0}, {1}, plan, {}, "table");
                const auto data = integers(c.entries * c.elems, -20, 20, 7);
                h.addInput(t, data, "table");
                poplar::Tensor idx =
                    h.input(poplar::UNSIGNED_INT, {n, 1}, asDoubles(kIndices), "idx");
                poplar::Tensor s = popops::createSliceTensor(h.g(), type, {c.entries, c.elems}, {0},
                                                             {1}, n, plan, {}, "updates");
                const auto updates = integers(n * c.elems, -8, 8, 11);
                h.addInput(s, updates, "updates");
                const double scale = type == poplar::INT ? 3.0 : 0.5;
                if (kind == Write && plan.getImpl().lookupSplit > 1) {
                    // Split lookups need an operation to combine the groups' updates.
                    CHECK_THROWS_AS(
                        popops::multiUpdate(h.g(), t, s, idx, {0}, {1}, h.prog, plan, {}),
                        poputil::poplibs_error);
                    continue;
                }
                if (kind == Write) {
                    popops::multiUpdate(h.g(), t, s, idx, {0}, {1}, h.prog, plan, {});
                } else if (kind == Add) {
                    const auto scaleType = type == poplar::HALF ? poplar::FLOAT : type;
                    poplar::Tensor k = h.input(scaleType, {}, {scale}, "scale");
                    popops::multiUpdateAdd(h.g(), t, s, idx, k, {0}, {1}, h.prog, plan, {});
                } else {
                    popops::multiUpdateMax(h.g(), t, s, idx, {0}, {1}, h.prog, plan, {});
                }
                h.output(t, "t");
                const auto out = h.run()["t"];
                std::vector<double> want = data;
                for (std::size_t i = 0; i < n; ++i) {
                    if (kIndices[i] >= c.entries)
                        continue;
                    for (std::size_t e = 0; e < c.elems; ++e) {
                        double& w = want[kIndices[i] * c.elems + e];
                        const double u = updates[i * c.elems + e];
                        w = kind == Write ? u : kind == Add ? w + scale * u : std::max(w, u);
                    }
                }
                INFO(type.toString() << " plan " << plan << " kind " << kind);
                CHECK(out == want);
            }
        }
    }
}

TEST_CASE("embedding plans split the table, print, compare and check their options",
          "[popops][multiSlice][plan]") {
    Harness h(16);
    const auto whole = popops::embedding::plan(h.g(), poplar::FLOAT, 100, 8, {4}, {});
    // 8 FLOATs in PopLibs' grains of lcm(8-byte data path, 4) / 4 = 2 elements: 4 blocks at most.
    CHECK(whole.getImpl().unslicedGrain == 2);
    CHECK(whole.getImpl().unslicedSplit <= 4);
    CHECK(whole.getImpl().tilesUsed() <= 16);
    const auto split = popops::embedding::plan(
        h.g(), poplar::FLOAT, 100, 8, {4},
        {{"planConstraints", R"({"slicedDimSplit": 2, "unslicedDimSplit": 4})"}});
    CHECK(split.getImpl().slicedSplit == 2);
    CHECK(split.getImpl().unslicedSplit == 4);
    CHECK(whole != split);
    CHECK(whole ==
          popops::embedding::plan(h.g(), poplar::FLOAT, 100, 8, {4}, {{"usedForSlice", "true"}}));
    CHECK((whole < split) != (split < whole));
    std::ostringstream os;
    os << split;
    CHECK_THAT(os.str(), Catch::Contains("slicedSplit 2"));
    popops::SlicePlan copy = split;
    CHECK(copy == split);

    CHECK_THROWS_AS(popops::embedding::plan(h.g(), poplar::FLOAT, 10, 4, {1}, {{"bogus", "1"}}),
                    poplar::invalid_option);
    CHECK_THROWS_AS(
        popops::embedding::plan(h.g(), poplar::FLOAT, 10, 4, {1},
                                {{"usedForSlice", "false"}, {"usedForUpdate", "false"}}),
        poplar::invalid_option);
    CHECK_THROWS_AS(
        popops::embedding::plan(h.g(), poplar::FLOAT, 10, 4, {1}, {{"operationForUpdate", "mul"}}),
        poplar::invalid_option);
    for (const char* bad :
         {"[1]", "{\"lookupSplit\": 0}", "{\"bogus\": 2}", "not json", "{\"slicedDimSplit\": -1}"})
        CHECK_THROWS_AS(
            popops::embedding::plan(h.g(), poplar::FLOAT, 10, 4, {1}, {{"planConstraints", bad}}),
            poplar::invalid_option);
    CHECK_THROWS_AS(popops::embedding::plan(h.g(), poplar::FLOAT, 10, 4, {1},
                                            {{"planMinimisationTarget", "memory"}}),
                    poplar::invalid_option);

    // A tensor laid out by a plan: every (part, block) piece on its own tile, 8 tiles.
    poplar::Tensor t =
        popops::createSliceableTensor(h.g(), poplar::FLOAT, {100, 8}, {0}, {1}, split, {}, "t");
    const auto mapping = h.g().getTileMapping(t);
    std::size_t used = 0;
    for (const auto& intervals : mapping)
        used += intervals.empty() ? 0 : 1;
    CHECK(used == 8);
    poplar::Tensor idx = popops::createIndicesTensor(h.g(), {0}, 5, split, {}, "idx");
    CHECK(idx.shape() == Shape{5, 1});
    CHECK(idx.elementType() == poplar::UNSIGNED_INT);

    // A plan for another table, slices of more than one entry, or several dims are refused.
    poplar::Tensor other = h.g().addVariable(poplar::FLOAT, {50, 8}, "other");
    h.g().setTileMapping(other, 0);
    CHECK_THROWS_AS(popops::multiSlice(h.g(), other, idx, {0}, {1}, h.prog, split, {}),
                    poputil::poplibs_error);
    CHECK_THROWS_AS(popops::multiSlice(h.g(), other, idx, {0}, {2}, h.prog, whole, {}),
                    poputil::poplibs_error);
    CHECK_THROWS_AS(popops::multiSlice(h.g(), other, idx, {0, 1}, {1, 1}, h.prog, whole, {}),
                    poputil::poplibs_error);
}

TEST_CASE("PopLibs' embedding planner: a 30,000 x 768 HALF table, 512 lookups, 1,472 tiles",
          "[popops][multiSlice][plan]") {
    poplar::Graph g(poplar::Target::createIPUTarget(1, "ipu2"));
    // By hand, PopLibs' model (embedding::constructModel) for the slice PopART's Gather plans
    // (usedForSlice only). HALF grains are 4 elements (8 bytes, the data path): 192 per entry.
    // Best split: every grain its own block (u = 192) and 7 parts of entries (s = 7), 1,344
    // tiles; no lookup split (a split would broadcast 34,288 table bytes to every group).
    //   the table on a tile: 1 grain x ceil(30000 / 7) = 4,286 entries = 34,288 bytes; spread
    //   evenly it would be ceil(30000 x 192 / 1472) x 8 = 31,312: the 2,976 more are charged as
    //   exchange at 4 bytes a cycle: 744 cycles;
    //   stage 1: ceil(512 / 6) = 86 indices a worker, ceil(86 x 4286 / 30000) = 13 in range:
    //   13 + 13 x (19 + 2 vectors x 2) + 73 x 8 = 896;
    //   stage 2: ceil(512 / 7) = 74 indices a tile; 7 x 74 x 8 bytes received: 1,036 cycles;
    //   ceil(74 / 6) = 13 a worker, 2 in range: 13 + 2 x (19 + 1 x 2) + 11 x 8 = 143.
    const auto slice =
        popops::embedding::plan(g, poplar::HALF, 30000, 768, {512}, {{"usedForUpdate", "false"}});
    const auto& p = slice.getImpl();
    CHECK(p.unslicedGrain == 4);
    CHECK(p.unslicedSplit == 192);
    CHECK(p.slicedSplit == 7);
    CHECK(p.lookupSplit == 1);
    CHECK(p.tilesUsed() == 1344);
    CHECK(p.estimates.sliceFirstStageExchange == 744);
    CHECK(p.estimates.sliceFirstStageCompute == 896);
    CHECK(p.estimates.sliceSecondStageExchange == 1036);
    CHECK(p.estimates.sliceSecondStageCompute == 143);
    CHECK(p.estimates.totalCycles == 2819);
    CHECK(p.estimates.baseStorageBytesPerTile == 34288);
    // Every other split costs at least as much under the same model.
    for (unsigned u : {96u, 192u})
        for (unsigned s : {1u, 6u, 7u, 8u})
            for (unsigned l : {1u, 2u}) {
                if (u * s * l > 1472)
                    continue;
                popops::SlicePlanInternal c = p;
                c.unslicedSplit = u;
                c.slicedSplit = s;
                c.lookupSplit = l;
                popops::EmbeddingPlanOptions o;
                o.usedForUpdate = false;
                CHECK(popops::detail::estimateEmbedding(g.getTarget(), poplar::HALF, c, o)
                          .totalCycles >= 2819);
            }
}

namespace {
std::pair<int, std::string> runExample(const std::string& cmd) {
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    REQUIRE(p);
    std::string out;
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), p))
        out.append(buf.data(), n);
    const int raw = pclose(p);
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, out};
}
} // namespace

TEST_CASE("embedding_training's loss falls and its embedding matches the host",
          "[examples][multiSlice]") {
    // tiles, vocab, dim, classes, batch, epochs[, memory share]: defaults, odd sizes, one tile,
    // more tiles than the table needs, and a tiny memory share.
    for (const char* args :
         {"", "7 33 5 3 17 8", "1 10 4 2 9 6", "64 12 9 3 40 5", "16 100 8 4 64 10 0.0001"}) {
        // (the last: a memory share no plan's temporaries fit, so PopLibs plans without it)
        const auto [status, output] =
            runExample(std::string(EMBEDDING_TRAINING_EXAMPLE) + " " + args);
        INFO(args << ": " << output);
        CHECK(status == 0);
        CHECK(output.find("\"ok\":true") != std::string::npos);
    }
    const auto [split, splitOutput] =
        runExample(std::string(EMBEDDING_TRAINING_EXAMPLE) + " 16 100 8 4 64 3");
    // 8 FLOATs are 4 grains of 2: PopLibs' planner takes 4 blocks and, with 64 lookups on 16
    // tiles, splits the lookups over the other tiles (cheaper than splitting 100 entries).
    CHECK(splitOutput.find("lookupSplit 4, slicedSplit 1") != std::string::npos);
    CHECK(splitOutput.find("unslicedSplit 4") != std::string::npos);
    const auto [status, output] = runExample(std::string(EMBEDDING_TRAINING_EXAMPLE) + " 4 0");
    CHECK(status == 2);
    CHECK(output.find("must be a positive integer") != std::string::npos);
}
