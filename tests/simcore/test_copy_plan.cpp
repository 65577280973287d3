// Copy plans (batched byte runs) against element-by-element copies: many small regions,
// transposed and strided views, overlapping halos, and copies whose source and destination
// share elements, both on the plan itself and through Engine programs.
#include "tilescope/sim/CopyPlan.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <numeric>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <vector>

using tilescope::sim::CopyPlan;
using tilescope::sim::ElementRange;
using tilescope::sim::TensorView;
namespace views = tilescope::sim::views;

namespace {

/// Host storage for a few float variables and the view of each whole variable.
struct Store {
    std::vector<std::vector<float>> vars;
    CopyPlan::Bases bases;

    explicit Store(const std::vector<std::vector<std::size_t>>& shapes) {
        for (const auto& s : shapes) {
            vars.emplace_back(views::product(s));
            std::iota(vars.back().begin(), vars.back().end(), float(1000 * vars.size()));
        }
        for (auto& v : vars)
            bases.push_back(reinterpret_cast<std::byte*>(v.data()));
        shapes_ = shapes;
    }
    TensorView whole(std::uint32_t var) const {
        TensorView t;
        t.type = tilescope::sim::ElementType::Float;
        t.shape = shapes_[var];
        t.ranges.push_back({var, 0, views::product(shapes_[var])});
        return t;
    }
    /// The view's elements one by one as (variable, element).
    static std::vector<std::pair<std::uint32_t, std::uint64_t>> elements(const TensorView& t) {
        std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
        for (const auto& r : t.ranges)
            for (auto e = r.begin; e < r.end; ++e)
                out.emplace_back(r.variable, e);
        return out;
    }
    float& at(const std::pair<std::uint32_t, std::uint64_t>& e) { return vars[e.first][e.second]; }

private:
    std::vector<std::vector<std::size_t>> shapes_;
};

/// Copies element i of src to element i of dst one at a time, through a buffer.
void elementwiseCopy(Store& s, const TensorView& src, const TensorView& dst) {
    const auto from = Store::elements(src), to = Store::elements(dst);
    REQUIRE(from.size() == to.size());
    std::vector<float> buf;
    for (const auto& e : from)
        buf.push_back(s.at(e));
    for (std::size_t i = 0; i < to.size(); ++i)
        s.at(to[i]) = buf[i];
}

/// Column j of a rows x cols variable view: `rows` one-element regions.
TensorView column(const TensorView& t, std::size_t j) {
    return views::slice(t, j, j + 1, 1);
}

} // namespace

TEST_CASE("copy plan: many one-element regions of transposed views match element-wise copies",
          "[copyplan]") {
    Store plan({{24, 40}, {40, 24}}), expected({{24, 40}, {40, 24}});
    // b = a transposed: every element is its own region on one side.
    const auto src = plan.whole(0);
    const auto dst = views::dimShuffle(plan.whole(1), {1, 0});
    REQUIRE(dst.ranges.size() == 24 * 40);
    REQUIRE_FALSE(CopyPlan::overlaps(src, dst));
    const auto p = CopyPlan::direct(src, dst, plan.bases);
    CHECK(p.bytes() == 24 * 40 * sizeof(float));
    p.execute();
    elementwiseCopy(expected, src, dst);
    CHECK(plan.vars == expected.vars);
}

TEST_CASE("copy plan: contiguous pieces merge into one run per contiguous stretch", "[copyplan]") {
    Store s({{16, 16}, {16, 16}});
    // Rows 2..9 of a to rows 5..12 of b, cut into single elements and concatenated back.
    std::vector<TensorView> pieces, targets;
    for (std::size_t r = 2; r < 10; ++r)
        for (std::size_t c = 0; c < 16; ++c) {
            pieces.push_back(views::slice(views::slice(s.whole(0), r, r + 1, 0), c, c + 1, 1));
            targets.push_back(views::slice(views::slice(s.whole(1), r + 3, r + 4, 0), c, c + 1, 1));
        }
    const auto src = views::concat(pieces, 1), dst = views::concat(targets, 1);
    const auto p = CopyPlan::direct(src, dst, s.bases);
    // 128 elements, one contiguous stretch on both sides.
    CHECK(p.runs().size() == 1);
    CHECK(p.bytes() == 8 * 16 * sizeof(float));
}

TEST_CASE("copy plan: halo exchange with overlapping source halos, gather and scatter",
          "[copyplan]") {
    // A 12 x 12 grid in 3 x 3 blocks of 4 x 4; every block's halo ring (padded 6 x 6 blocks in
    // a second variable) is filled from its neighbours' edge rows and columns in one copy, and
    // each block's window (block plus halo) is gathered from the grid: windows overlap.
    Store plan({{12, 12}, {3, 3, 6, 6}}), expected({{12, 12}, {3, 3, 6, 6}});
    const auto grid = plan.whole(0);
    const auto padded = plan.whole(1);
    std::vector<TensorView> from, to;
    auto block = [&](std::size_t bi, std::size_t bj) {
        return views::slice(views::slice(padded, bi, bi + 1, 0), bj, bj + 1, 1);
    };
    for (std::size_t bi = 0; bi < 3; ++bi)
        for (std::size_t bj = 0; bj < 3; ++bj) {
            const auto mine = block(bi, bj);
            const std::size_t r0 = bi * 4, c0 = bj * 4;
            if (bi > 0) { // north halo from the grid row above the block
                from.push_back(views::slice(views::slice(grid, r0 - 1, r0, 0), c0, c0 + 4, 1));
                to.push_back(views::slice(views::slice(mine, 0, 1, 2), 1, 5, 3));
            }
            if (bj > 0) { // west halo from the grid column left of the block
                from.push_back(views::slice(views::slice(grid, r0, r0 + 4, 0), c0 - 1, c0, 1));
                to.push_back(views::slice(views::slice(mine, 1, 5, 2), 0, 1, 3));
            }
            if (bj < 2) { // east halo
                from.push_back(views::slice(views::slice(grid, r0, r0 + 4, 0), c0 + 4, c0 + 5, 1));
                to.push_back(views::slice(views::slice(mine, 1, 5, 2), 5, 6, 3));
            }
        }
    auto flat = [](const TensorView& t) {
        TensorView f = t;
        f.shape = {static_cast<std::size_t>(t.numElements())};
        return f;
    };
    std::vector<TensorView> flatFrom, flatTo;
    for (const auto& t : from)
        flatFrom.push_back(flat(t));
    for (const auto& t : to)
        flatTo.push_back(flat(t));
    const auto src = views::concat(flatFrom, 0), dst = views::concat(flatTo, 0);
    CopyPlan::direct(src, dst, plan.bases).execute();
    elementwiseCopy(expected, src, dst);
    CHECK(plan.vars == expected.vars);

    // Overlapping windows gathered into buffers and scattered back transposed.
    for (std::size_t bi = 0; bi < 3; ++bi) {
        const std::size_t r0 = bi ? bi * 4 - 1 : 0, r1 = std::min<std::size_t>(bi * 4 + 5, 12);
        const auto window = views::slice(views::slice(grid, r0, r1, 0), 2, 9, 1);
        const auto n = window.numElements();
        std::vector<float> buf(n), want;
        CopyPlan::gather(window, plan.bases, reinterpret_cast<std::byte*>(buf.data())).execute();
        for (const auto& e : Store::elements(window))
            want.push_back(expected.at(e));
        CHECK(buf == want);
        std::vector<float> direct(n);
        CopyPlan::gatherNow(window, plan.bases, reinterpret_cast<std::byte*>(direct.data()));
        CHECK(direct == want);
        const auto target = views::dimShuffle(window, {1, 0});
        CopyPlan::scatter(reinterpret_cast<const std::byte*>(buf.data()), target, plan.bases)
            .execute();
        const auto cells = Store::elements(target);
        for (std::size_t i = 0; i < cells.size(); ++i)
            expected.at(cells[i]) = want[i];
        CHECK(plan.vars == expected.vars);
    }
}

TEST_CASE("copy plan: overlap detection", "[copyplan]") {
    Store s({{8, 8}, {8, 8}});
    const auto a = s.whole(0), b = s.whole(1);
    CHECK_FALSE(CopyPlan::overlaps(a, b));
    CHECK(CopyPlan::overlaps(views::slice(a, 0, 5, 0), views::slice(a, 4, 8, 0)));
    CHECK_FALSE(CopyPlan::overlaps(views::slice(a, 0, 4, 0), views::slice(a, 4, 8, 0)));
    // A column and a row of the same variable cross at one element.
    CHECK(CopyPlan::overlaps(column(a, 3), views::slice(a, 6, 7, 0)));
    CHECK_FALSE(CopyPlan::overlaps(column(a, 3), column(a, 4)));
    CHECK(CopyPlan::overlaps(views::concat({column(b, 1), column(a, 7)}, 0), column(a, 7)));
}

TEST_CASE("copy plan: Copy programs with shared elements, transposes and halos give the "
          "element-wise result",
          "[copyplan][engine]") {
    poplar::IPUModel ipu;
    ipu.tilesPerIPU = 4;
    poplar::Device device = ipu.createDevice();
    poplar::Graph graph(device.getTarget());
    const std::size_t n = 8;
    poplar::Tensor x = graph.addVariable(poplar::FLOAT, {n, n}, "x");
    poplar::Tensor y = graph.addVariable(poplar::FLOAT, {n, n}, "y");
    for (unsigned t = 0; t < 4; ++t) {
        graph.setTileMapping(x.slice(t * 2, t * 2 + 2), t);
        graph.setTileMapping(y.slice(t * 2, t * 2 + 2), 3 - t);
    }
    poplar::program::Sequence prog;
    // Shift down by one row inside x: source and destination share rows 1..6.
    prog.add(poplar::program::Copy(x.slice(0, n - 1), x.slice(1, n)));
    // y = x transposed, then y's first column from x's last row (one-element regions).
    prog.add(poplar::program::Copy(x.transpose(), y));
    prog.add(poplar::program::Copy(x[n - 1], y.slice(0, 1, 1).flatten()));
    // x's columns 0..3 swapped with 4..7 in one copy through views sharing no element.
    prog.add(poplar::program::Copy(poplar::concat(x.slice(0, 4, 1), x.slice(4, n, 1), 1),
                                   poplar::concat(y.slice(4, n, 1), y.slice(0, 4, 1), 1)));
    graph.createHostWrite("x", x);
    graph.createHostRead("x", x);
    graph.createHostRead("y", y);
    poplar::Engine engine(graph, prog);
    engine.load(device);
    std::vector<float> hx(n * n);
    std::iota(hx.begin(), hx.end(), 1.0f);
    engine.writeTensor("x", hx.data(), hx.data() + hx.size());
    engine.run(0);
    std::vector<float> gx(n * n), gy(n * n);
    engine.readTensor("x", gx.data(), gx.data() + gx.size());
    engine.readTensor("y", gy.data(), gy.data() + gy.size());

    std::vector<float> ex = hx, ey(n * n);
    for (std::size_t r = n - 1; r >= 1; --r) // through a buffer: row r gets the old row r - 1
        for (std::size_t c = 0; c < n; ++c)
            ex[r * n + c] = hx[(r - 1) * n + c];
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < n; ++c)
            ey[r * n + c] = ex[c * n + r];
    for (std::size_t r = 0; r < n; ++r)
        ey[r * n] = ex[(n - 1) * n + r];
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < n; ++c)
            ey[r * n + (c + 4) % n] = ex[r * n + c];
    CHECK(gx == ex);
    CHECK(gy == ey);
}
