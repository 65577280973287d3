// The PopLibs pieces programs use beyond the core operations, against host references: the
// extra named element-wise functions (rounding, trigonometry, comparisons, remainder), the
// logical operations on BOOL, BOOL and UNSIGNED_INT in cast and fill, allTrue,
// createOutputForElementWiseOp, the zero overloads, and reductions with LOGICAL_AND/OR, a scale
// tensor and a vector of compute sets.

#include "PoplibsHarness.hpp"

#include <catch2/catch.hpp>
#include <poplar/exceptions.hpp>
#include <popops/AllTrue.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ElementWiseUtil.hpp>
#include <popops/Fill.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>

using namespace poplibstest;
using poplar::BOOL;
using poplar::FLOAT;
using poplar::HALF;
using poplar::INT;
using poplar::UNSIGNED_INT;

namespace {

void checkClose(const std::vector<double>& got, const std::vector<double>& want, double tol) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i << ": " << got[i] << " vs " << want[i]);
        CHECK(std::abs(got[i] - want[i]) <= tol * (1 + std::abs(want[i])));
    }
}

std::vector<double> mapHost(const std::vector<double>& x, double (*f)(double)) {
    std::vector<double> out;
    for (double v : x)
        out.push_back(f(v));
    return out;
}

double signum(double x) {
    return (0 < x) - (x < 0);
}
double inverse(double x) {
    return 1 / x;
}
double rsqrt(double x) {
    return 1 / std::sqrt(x);
}
double roundHost(double x) {
    return std::round(x);
}

} // namespace

TEST_CASE("extra unary functions match the host in FLOAT and HALF") {
    for (const auto& type : {FLOAT, HALF}) {
        Harness h;
        auto xv = values(37, -3.7, 3.7, 5);
        xv[0] = 2.5; // ROUND takes halves away from zero
        xv[1] = -2.5;
        xv[2] = 0;
        if (type == HALF)
            for (auto& v : xv)
                v = toHalf(v);
        auto pos = xv;
        for (auto& v : pos)
            v = std::abs(v) + 0.25;
        auto x = h.input(type, {37}, xv, "x");
        auto p = h.input(type, {37}, pos, "p");
        h.output(popops::ceil(h.graph, x, h.prog), "ceil");
        h.output(popops::floor(h.graph, x, h.prog), "floor");
        h.output(popops::round(h.graph, x, h.prog), "round");
        h.output(popops::signum(h.graph, x, h.prog), "signum");
        h.output(popops::cos(h.graph, x, h.prog), "cos");
        h.output(popops::sin(h.graph, x, h.prog), "sin");
        h.output(popops::inv(h.graph, p, h.prog), "inv");
        h.output(popops::rsqrt(h.graph, p, h.prog), "rsqrt");
        const auto r = h.run();
        const double tol = type == HALF ? 2.0 / 512 : 1e-5;
        checkClose(r.at("ceil"), mapHost(xv, [](double v) { return std::ceil(v); }), 0);
        checkClose(r.at("floor"), mapHost(xv, [](double v) { return std::floor(v); }), 0);
        checkClose(r.at("round"), mapHost(xv, roundHost), 0);
        CHECK(r.at("round")[0] == 3);
        CHECK(r.at("round")[1] == -3);
        checkClose(r.at("signum"), mapHost(xv, signum), 0);
        checkClose(r.at("cos"), mapHost(xv, [](double v) { return std::cos(v); }), tol);
        checkClose(r.at("sin"), mapHost(xv, [](double v) { return std::sin(v); }), tol);
        checkClose(r.at("inv"), mapHost(pos, inverse), tol);
        checkClose(r.at("rsqrt"), mapHost(pos, rsqrt), tol);
    }
}

TEST_CASE("comparisons give BOOL and remainder follows the dividend's sign") {
    Harness h;
    const auto av = integers(29, -6, 6, 2);
    const auto bv = integers(29, -3, 3, 9);
    std::vector<double> divisors = bv;
    for (auto& d : divisors)
        d = d == 0 ? 4 : d;
    auto a = h.input(INT, {29}, av, "a");
    auto b = h.input(INT, {29}, bv, "b");
    auto d = h.input(INT, {29}, divisors, "d");
    auto af = h.input(FLOAT, {29}, av, "af");
    auto df = h.input(FLOAT, {29}, divisors, "df");
    auto gteq = popops::gteq(h.graph, a, b, h.prog);
    CHECK(gteq.elementType() == BOOL);
    h.output(gteq, "gteq");
    h.output(popops::lteq(h.graph, a, b, h.prog), "lteq");
    h.output(popops::neq(h.graph, a, b, h.prog), "neq");
    h.output(popops::rem(h.graph, a, d, h.prog), "rem");
    h.output(popops::rem(h.graph, af, df, h.prog), "remf");
    const auto r = h.run();
    for (std::size_t i = 0; i < av.size(); ++i) {
        INFO(av[i] << " ? " << bv[i]);
        CHECK(r.at("gteq")[i] == double(av[i] >= bv[i]));
        CHECK(r.at("lteq")[i] == double(av[i] <= bv[i]));
        CHECK(r.at("neq")[i] == double(av[i] != bv[i]));
        CHECK(r.at("rem")[i] == double(int(av[i]) % int(divisors[i])));
        CHECK(r.at("remf")[i] == std::fmod(av[i], divisors[i]));
    }
}

TEST_CASE("logical operations on BOOL tensors, out of place and in place") {
    Harness h;
    const std::vector<double> av = {1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1};
    const std::vector<double> bv = {1, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1};
    auto a = h.input(BOOL, {11}, av, "a");
    auto b = h.input(BOOL, {11}, bv, "b");
    auto notA = popops::logicalNot(h.graph, a, h.prog);
    CHECK(notA.elementType() == BOOL);
    h.output(notA, "not");
    h.output(popops::logicalAnd(h.graph, a, b, h.prog), "and");
    h.output(popops::logicalOr(h.graph, a, b, h.prog), "or");
    h.output(popops::eq(h.graph, a, b, h.prog), "eq");
    auto c = h.graph.clone(b, "c");
    h.prog.add(poplar::program::Copy(b, c));
    popops::logicalOrInPlace(h.graph, c, a, h.prog);
    popops::logicalNotInPlace(h.graph, c, h.prog);
    h.output(c, "norInPlace");
    const auto r = h.run();
    for (std::size_t i = 0; i < av.size(); ++i) {
        const bool x = av[i] != 0, y = bv[i] != 0;
        CHECK(r.at("not")[i] == double(!x));
        CHECK(r.at("and")[i] == double(x && y));
        CHECK(r.at("or")[i] == double(x || y));
        CHECK(r.at("eq")[i] == double(x == y));
        CHECK(r.at("norInPlace")[i] == double(!(x || y)));
    }
}

TEST_CASE("logical operations refuse other types and arithmetic refuses BOOL") {
    Harness h;
    auto f = h.input(FLOAT, {4}, {1, 0, 2, 0}, "f");
    auto b = h.input(BOOL, {4}, {1, 0, 1, 0}, "b");
    CHECK_THROWS_AS(popops::logicalNot(h.graph, f, h.prog), poplar::poplar_error);
    CHECK_THROWS_AS(popops::logicalAnd(h.graph, f, f, h.prog), poplar::poplar_error);
    CHECK_THROWS_AS(popops::add(h.graph, b, b, h.prog), poplar::poplar_error);
    CHECK_THROWS_AS(popops::ceil(h.graph, h.input(INT, {2}, {1, 2}, "i"), h.prog),
                    poplar::poplar_error);
    // Logical operations inside expressions are refused with a message naming the alternative.
    CHECK_THROWS_WITH(popops::map(h.graph, popops::expr::Not(popops::expr::_1), {f}, h.prog),
                      Catch::Contains("logicalNot"));
}

TEST_CASE("cast converts to and from BOOL and UNSIGNED_INT: non-zero is true") {
    Harness h;
    const std::vector<double> fv = {0, 1.5, -2, 0.25, -0.0, 7, 3.75};
    auto f = h.input(FLOAT, {7}, fv, "f");
    auto hf = h.input(HALF, {7}, fv, "h");
    auto i = h.input(INT, {7}, {0, 3, -1, 0, 2, 0, 9}, "i");
    auto fb = popops::cast(h.graph, f, BOOL, h.prog);
    CHECK(fb.elementType() == BOOL);
    h.output(fb, "f2b");
    h.output(popops::cast(h.graph, hf, BOOL, h.prog), "h2b");
    auto ib = popops::cast(h.graph, i, BOOL, h.prog);
    h.output(ib, "i2b");
    h.output(popops::cast(h.graph, fb, FLOAT, h.prog), "b2f");
    h.output(popops::cast(h.graph, ib, HALF, h.prog), "b2h");
    h.output(popops::cast(h.graph, ib, INT, h.prog), "b2i");
    h.output(popops::cast(h.graph, ib, UNSIGNED_INT, h.prog), "b2u");
    auto u = popops::cast(h.graph, f, UNSIGNED_INT, h.prog);
    h.output(u, "f2u");
    h.output(popops::cast(h.graph, u, FLOAT, h.prog), "u2f");
    const auto r = h.run();
    const std::vector<double> fTrue = {0, 1, 1, 1, 0, 1, 1};
    const std::vector<double> iTrue = {0, 1, 1, 0, 1, 0, 1};
    CHECK(r.at("f2b") == fTrue);
    CHECK(r.at("h2b") == fTrue);
    CHECK(r.at("i2b") == iTrue);
    CHECK(r.at("b2f") == fTrue);
    CHECK(r.at("b2h") == iTrue);
    CHECK(r.at("b2i") == iTrue);
    CHECK(r.at("b2u") == iTrue);
    // Negative values saturate at 0 rather than wrapping.
    const std::vector<double> wantU = {0, 1, 0, 0, 0, 7, 3};
    CHECK(r.at("f2u") == wantU);
    CHECK(r.at("u2f") == wantU);
}

TEST_CASE("fill and zero cover BOOL and UNSIGNED_INT, their compute-set forms") {
    Harness h;
    auto b = h.graph.addVariable(BOOL, {9}, "b");
    auto u = h.graph.addVariable(UNSIGNED_INT, {9}, "u");
    poputil::mapTensorLinearly(h.graph, b, 1, 1);
    poputil::mapTensorLinearly(h.graph, u, 1, 1);
    popops::fill(h.graph, b, h.prog, 2.0);
    popops::fill(h.graph, u, h.prog, 41u);
    h.output(b, "b");
    h.output(u, "u");
    auto z = h.input(FLOAT, {4, 5}, values(20, 1, 2, 4), "z");
    auto zi = h.input(INT, {12}, integers(12, 1, 9, 5), "zi");
    poplar::ComputeSet cs = h.graph.addComputeSet("zeroes");
    // Rows 1 and 3 zeroed by vertices on tile 2; all of zi by the mapping form.
    popops::zero(h.graph, z, {poplar::Interval(5, 10), poplar::Interval(15, 20)}, 2, cs);
    popops::zero(h.graph, zi, h.graph.getTileMapping(zi), cs);
    auto filled = h.graph.addVariable(HALF, {6}, "filled");
    poputil::mapTensorLinearly(h.graph, filled, 1, 1);
    auto filledOnTile = h.graph.addVariable(INT, {3}, "filledOnTile");
    h.graph.setTileMapping(filledOnTile, 6);
    popops::fill(h.graph, filled, h.graph.getTileMapping(filled), cs, 1.5);
    popops::fill(h.graph, filledOnTile, 4, cs, -7);
    h.output(filled, "filled");
    h.output(filledOnTile, "filledOnTile");
    h.prog.add(poplar::program::Execute(cs));
    h.output(z, "z");
    h.output(zi, "zi");
    auto whole = h.input(HALF, {3}, {1, 2, 3}, "whole");
    popops::zero(h.graph, whole, h.prog, "zeroWhole");
    h.output(whole, "whole");
    const auto r = h.run();
    CHECK(r.at("b") == std::vector<double>(9, 1));
    CHECK(r.at("u") == std::vector<double>(9, 41));
    const auto zv = values(20, 1, 2, 4);
    for (std::size_t i = 0; i < 20; ++i) {
        const bool zeroed = (i >= 5 && i < 10) || i >= 15;
        CHECK(r.at("z")[i] == (zeroed ? 0.0 : double(float(zv[i]))));
    }
    CHECK(r.at("zi") == std::vector<double>(12, 0));
    CHECK(r.at("filled") == std::vector<double>(6, 1.5));
    CHECK(r.at("filledOnTile") == std::vector<double>(3, -7));
    CHECK(r.at("whole") == std::vector<double>(3, 0));
}

TEST_CASE("allTrue gives a scalar BOOL: the AND of every element") {
    for (bool allSet : {true, false}) {
        Harness h;
        std::vector<double> v(30, 1);
        if (!allSet)
            v[17] = 0;
        auto t = h.input(BOOL, {5, 6}, v, "t");
        auto result = popops::allTrue(h.graph, t, h.prog);
        CHECK(result.elementType() == BOOL);
        CHECK(result.rank() == 0);
        h.output(result, "all");
        // Typical use: the flag of an If.
        auto flag = h.input(INT, {}, {0}, "flag");
        poplar::program::Sequence thenBody, elseBody;
        auto seven = h.graph.addConstant(INT, {}, 7);
        auto three = h.graph.addConstant(INT, {}, 3);
        h.graph.setTileMapping(seven, 0);
        h.graph.setTileMapping(three, 0);
        thenBody.add(poplar::program::Copy(seven, flag));
        elseBody.add(poplar::program::Copy(three, flag));
        h.prog.add(poplar::program::If(result, thenBody, elseBody));
        h.output(flag, "flag");
        const auto r = h.run();
        CHECK(r.at("all")[0] == double(allSet));
        CHECK(r.at("flag")[0] == (allSet ? 7 : 3));
    }
    Harness h;
    CHECK_THROWS_AS(popops::allTrue(h.graph, h.input(FLOAT, {2}, {1, 1}, "f"), h.prog),
                    poplar::poplar_error);
}

TEST_CASE("createOutputForElementWiseOp maps like the best-spread input") {
    Harness h(8);
    // `spread` covers 4 tiles, `packed` sits on tile 7, `aliased` is a broadcast view.
    auto spread = h.graph.addVariable(FLOAT, {4, 6}, "spread");
    for (unsigned row = 0; row < 4; ++row)
        h.graph.setTileMapping(spread[row], row + 1);
    auto packed = h.graph.addVariable(FLOAT, {4, 6}, "packed");
    h.graph.setTileMapping(packed, 7);
    auto row = h.graph.addVariable(FLOAT, {1, 6}, "row");
    h.graph.setTileMapping(row, 0);
    auto aliased = row.broadcast(4, 0);

    auto out = popops::createOutputForElementWiseOp(h.graph, {aliased, packed, spread}, HALF);
    CHECK(out.elementType() == HALF);
    CHECK(out.shape() == spread.shape());
    CHECK(h.graph.getTileMapping(out) == h.graph.getTileMapping(spread));

    auto onlyAliased = popops::createOutputForElementWiseOp(h.graph, {aliased}, INT);
    // No suitable input: mapped linearly (24 elements fit the first tile's minimum share).
    CHECK(
        h.graph.getTileMapping(onlyAliased) ==
        poplar::Graph::TileToTensorMapping{{poplar::Interval(0, 24)}, {}, {}, {}, {}, {}, {}, {}});

    CHECK_THROWS_AS(popops::createOutputForElementWiseOp(h.graph, {spread, row}, FLOAT),
                    poplar::poplar_error);
    CHECK_THROWS_AS(popops::createOutputForElementWiseOp(h.graph, {}, FLOAT), poplar::poplar_error);
}

TEST_CASE("reductions: LOGICAL_AND/OR, a scale tensor with update, and compute-set forms") {
    Harness h;
    const std::vector<double> bv = {1, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1};
    auto b = h.input(BOOL, {3, 4}, bv, "b");
    h.output(popops::reduce(h.graph, b, {1}, popops::Operation::LOGICAL_AND, h.prog), "and");
    h.output(popops::reduce(h.graph, b, {1}, popops::Operation::LOGICAL_OR, h.prog), "or");

    const auto xv = values(24, -1, 1, 12);
    auto x = h.input(FLOAT, {4, 6}, xv, "x");
    auto scale = h.input(FLOAT, {}, {0.5}, "scale");
    auto acc = h.input(FLOAT, {6}, std::vector<double>(6, 10), "acc");
    // acc += 0.5 * sum over rows
    popops::reduceWithOutput(h.graph, x, acc, {0}, {popops::Operation::ADD, true, scale}, h.prog);
    h.output(acc, "acc");
    auto halfScale = h.input(HALF, {1}, {2}, "halfScale");
    h.output(
        popops::reduce(h.graph, x, {1}, {popops::Operation::SQUARE_ADD, false, halfScale}, h.prog),
        "sq");

    // Two reductions in the same compute set.
    std::vector<poplar::ComputeSet> css;
    auto rowMax = popops::reduce(h.graph, x, {1}, popops::Operation::MAX, css);
    auto colMin = popops::reduce(h.graph, x, FLOAT, {0}, popops::Operation::MIN, css);
    auto total = h.graph.addVariable(FLOAT, {}, "total");
    h.graph.setTileMapping(total, 3);
    popops::reduceWithOutput(h.graph, x, total, {0, 1}, popops::Operation::ADD, css);
    REQUIRE(css.size() == 3);
    for (const auto& cs : css)
        h.prog.add(poplar::program::Execute(cs));
    h.output(rowMax, "rowMax");
    h.output(colMin, "colMin");
    h.output(total, "total");
    const auto r = h.run();

    CHECK(r.at("and") == std::vector<double>{0, 0, 1});
    CHECK(r.at("or") == std::vector<double>{1, 1, 1});
    std::vector<double> wantAcc(6, 10), wantSq(4, 0), wantMax(4, -1e9), wantMin(6, 1e9);
    double wantTotal = 0;
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 6; ++j) {
            const double v = float(xv[i * 6 + j]);
            wantAcc[j] += 0.5 * v;
            wantSq[i] += 2 * v * v;
            wantMax[i] = std::max(wantMax[i], v);
            wantMin[j] = std::min(wantMin[j], v);
            wantTotal += v;
        }
    checkClose(r.at("acc"), wantAcc, 1e-5);
    checkClose(r.at("sq"), wantSq, 1e-5);
    checkClose(r.at("rowMax"), wantMax, 0);
    checkClose(r.at("colMin"), wantMin, 0);
    checkClose(r.at("total"), {wantTotal}, 1e-5);
}

TEST_CASE("reduction errors name the problem") {
    Harness h;
    auto x = h.input(FLOAT, {4}, {1, 2, 3, 4}, "x");
    auto i = h.input(INT, {4}, {1, 2, 3, 4}, "i");
    auto scale = h.input(FLOAT, {}, {2}, "scale");
    CHECK_THROWS_WITH(popops::reduce(h.graph, x, {0}, popops::Operation::LOGICAL_AND, h.prog),
                      Catch::Contains("BOOL to BOOL"));
    CHECK_THROWS_WITH(
        popops::reduce(h.graph, x, {0}, {popops::Operation::MAX, false, scale}, h.prog),
        Catch::Contains("ADD and SQUARE_ADD only"));
    CHECK_THROWS_WITH(
        popops::reduce(h.graph, i, {0}, {popops::Operation::ADD, false, scale}, h.prog),
        Catch::Contains("FLOAT or HALF input"));
}

TEST_CASE("binary functions take a number for either operand, as the SDK's forms do") {
    Harness h;
    const auto xv = integers(10, -4, 4, 6);
    auto x = h.input(FLOAT, {2, 5}, xv, "x");
    auto i = h.input(INT, {10}, xv, "i");
    h.output(popops::mul(h.graph, x, 2.5f, h.prog), "mul");
    h.output(popops::sub(h.graph, 1.0, x, h.prog), "rsub");
    h.output(popops::gt(h.graph, x, 0.0f, h.prog), "gt");
    h.output(popops::rem(h.graph, i, 3, h.prog), "rem");
    auto y = h.graph.clone(x, "y");
    h.prog.add(poplar::program::Copy(x, y));
    popops::addInPlace(h.graph, y, 0.5f, h.prog);
    h.output(y, "y");
    const auto r = h.run();
    for (std::size_t k = 0; k < xv.size(); ++k) {
        CHECK(r.at("mul")[k] == 2.5 * xv[k]);
        CHECK(r.at("rsub")[k] == 1 - xv[k]);
        CHECK(r.at("gt")[k] == double(xv[k] > 0));
        CHECK(r.at("rem")[k] == double(int(xv[k]) % 3));
        CHECK(r.at("y")[k] == xv[k] + 0.5);
    }
    // The number's kind must match the tensor's type, as in the SDK.
    CHECK_THROWS_WITH(popops::mul(h.graph, x, 2, h.prog), Catch::Contains("type mismatch"));
    CHECK_THROWS_WITH(popops::add(h.graph, i, 1.5f, h.prog), Catch::Contains("type mismatch"));
}

TEST_CASE("select and clamp broadcast their operands and have in-place forms") {
    for (const auto& type : {FLOAT, HALF, INT}) {
        INFO("type " << type);
        Harness h;
        const auto av = integers(12, -5, 5, 13);
        const auto bv = integers(12, -5, 5, 14);
        const std::vector<double> cv = {1, 0, 0, 1};
        auto a = h.input(type, {3, 4}, av, "a");
        auto b = h.input(type, {3, 4}, bv, "b");
        auto cond = h.input(BOOL, {4}, cv, "cond"); // broadcast over the rows
        auto lo = h.input(type, {}, {-2}, "lo");
        auto hi = h.input(type, {3, 1}, {0, 1, 3}, "hi");
        h.output(popops::select(h.graph, a, b, cond, h.prog), "select");
        h.output(popops::clamp(h.graph, a, lo, hi, h.prog), "clamp");
        auto a2 = h.graph.clone(a, "a2");
        h.prog.add(poplar::program::Copy(a, a2));
        popops::selectInPlace(h.graph, a2, b, cond, h.prog);
        popops::clampInPlace(h.graph, a2, lo, hi, h.prog);
        h.output(a2, "inPlace");
        const auto r = h.run();
        for (std::size_t i = 0; i < 12; ++i) {
            const double hiv = i / 4 == 0 ? 0 : (i / 4 == 1 ? 1 : 3);
            const double sel = cv[i % 4] != 0 ? av[i] : bv[i];
            CHECK(r.at("select")[i] == sel);
            CHECK(r.at("clamp")[i] == std::min(std::max(av[i], -2.0), hiv));
            CHECK(r.at("inPlace")[i] == std::min(std::max(sel, -2.0), hiv));
        }
    }
    Harness h;
    auto f = h.input(FLOAT, {2}, {1, 2}, "f");
    auto i = h.input(INT, {2}, {1, 2}, "i");
    CHECK_THROWS_WITH(popops::select(h.graph, f, f, f, h.prog), Catch::Contains("must be BOOL"));
    CHECK_THROWS_WITH(popops::clamp(h.graph, f, i, f, h.prog),
                      Catch::Contains("same element type"));
}

TEST_CASE("expressions with comparison, remainder, logical and ternary operators") {
    using namespace popops::expr;
    Harness h;
    const auto av = integers(14, -4, 4, 21);
    const auto bv = integers(14, -4, 4, 22);
    auto a = h.input(FLOAT, {14}, av, "a");
    auto b = h.input(FLOAT, {14}, bv, "b");
    auto inRange = popops::map(h.graph, (_1 > -2) && !(_1 >= _2 + 1.0f), {a, b}, h.prog);
    CHECK(inRange.elementType() == BOOL);
    h.output(inRange, "inRange");
    h.output(popops::map(h.graph, _1 % 3 + (_1 != _2), {a, b}, h.prog), "remPlusNeq");
    h.output(popops::map(h.graph, Select(_1, _2, _1 < _2 || _1 == 0), {a, b}, h.prog), "select");
    h.output(popops::map(h.graph, Clamp(_1 * 2.0f, Const(-3), _2), {a, b}, h.prog), "clamp");
    const auto r = h.run();
    for (std::size_t i = 0; i < av.size(); ++i) {
        const double x = av[i], y = bv[i];
        INFO(x << ", " << y);
        CHECK(r.at("inRange")[i] == double(x > -2 && !(x >= y + 1)));
        CHECK(r.at("remPlusNeq")[i] == std::fmod(x, 3) + double(x != y));
        CHECK(r.at("select")[i] == ((x < y || x == 0) ? x : y));
        CHECK(r.at("clamp")[i] == std::min(std::max(2 * x, -3.0), y));
    }
    CHECK_THROWS_WITH(popops::map(h.graph, _1 && _2, {a, b}, h.prog),
                      Catch::Contains("take BOOL operands"));
}

TEST_CASE("cast into an existing tensor, as a program, and into a caller's compute set") {
    Harness h;
    const std::vector<double> fv = {0, 1.75, -2.5, 3};
    auto f = h.input(FLOAT, {2, 2}, fv, "f");
    auto i = h.graph.addVariable(INT, {4}, "i");
    poputil::mapTensorLinearly(h.graph, i, 1, 1);
    popops::cast(h.graph, f, i, h.prog); // shapes may differ when the counts match
    h.output(i, "i");
    auto b = h.graph.addVariable(BOOL, {2, 2}, "b");
    h.graph.setTileMapping(b, 5);
    h.prog.add(popops::cast(h.graph, f, b, "toBool"));
    h.output(b, "b");
    poplar::ComputeSet cs = h.graph.addComputeSet("casts");
    auto half = popops::cast(h.graph, f, HALF, cs);
    auto u = popops::cast(h.graph, i, UNSIGNED_INT, cs);
    h.prog.add(poplar::program::Execute(cs));
    h.output(half, "half");
    h.output(u, "u");
    const auto r = h.run();
    CHECK(r.at("i") == std::vector<double>{0, 1, -2, 3});
    CHECK(r.at("b") == std::vector<double>{0, 1, 1, 1});
    CHECK(r.at("half") == fv);
    // INT to UNSIGNED_INT wraps as C++ does (-2 -> 2^32 - 2, read back through a float).
    CHECK(r.at("u") == std::vector<double>{0, 1, double(float(4294967294.0)), 3});
    CHECK_THROWS_AS(popops::cast(h.graph, f, h.graph.addVariable(INT, {3}), h.prog),
                    poplar::poplar_error);
}

TEST_CASE("scaledAddTo and scaledSubtractFrom in the SDK's tensor-scale and two-scale forms") {
    Harness h;
    const auto av = values(10, -1, 1, 31), bv = values(10, -1, 1, 32);
    const auto input = [&](const std::string& name) { return h.input(FLOAT, {10}, av, name); };
    auto b = h.input(FLOAT, {10}, bv, "b");
    auto bHalf = h.input(HALF, {10}, bv, "bHalf");
    auto scaleB = h.input(FLOAT, {}, {0.25}, "scaleB");
    auto scaleA = h.input(HALF, {1}, {0.5}, "scaleA");
    auto t1 = input("t1"), t2 = input("t2"), t3 = input("t3"), t4 = input("t4"), t5 = input("t5"),
         t6 = input("t6"), t7 = input("t7");
    popops::scaledAddTo(h.graph, t1, b, scaleB, h.prog);         // a + 0.25 b
    popops::scaledSubtractFrom(h.graph, t2, b, scaleB, h.prog);  // a - 0.25 b
    popops::scaledAddTo(h.graph, t3, scaleA, b, scaleB, h.prog); // 0.5 a + 0.25 b
    popops::scaledAddTo(h.graph, t4, scaleA, b, scaleB, h.prog,
                        popops::ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY); // a - 0.5 a + 0.25 b
    popops::scaledAddTo(h.graph, t5, 2.0f, bHalf, -3.0f, h.prog);             // 2 a - 3 b (B cast)
    popops::scaledSubtractFrom(h.graph, t6, 2.0f, b, 3.0f, h.prog);           // 2 a - 3 b
    popops::scaledSubtractFrom(h.graph, t7, scaleA, b, scaleB, h.prog);       // 0.5 a - 0.25 b
    const std::vector<std::pair<const char*, poplar::Tensor>> results = {
        {"t1", t1}, {"t2", t2}, {"t3", t3}, {"t4", t4}, {"t5", t5}, {"t6", t6}, {"t7", t7}};
    for (const auto& result : results)
        h.output(result.second, result.first);
    const auto r = h.run();
    for (std::size_t i = 0; i < 10; ++i) {
        const double a = float(av[i]), x = float(bv[i]), xh = toHalf(bv[i]);
        const double tol = 1e-5;
        CHECK(std::abs(r.at("t1")[i] - (a + 0.25 * x)) < tol);
        CHECK(std::abs(r.at("t2")[i] - (a - 0.25 * x)) < tol);
        CHECK(std::abs(r.at("t3")[i] - (0.5 * a + 0.25 * x)) < tol);
        CHECK(std::abs(r.at("t4")[i] - (0.5 * a + 0.25 * x)) < tol);
        CHECK(std::abs(r.at("t5")[i] - (2 * a - 3 * xh)) < tol);
        CHECK(std::abs(r.at("t6")[i] - (2 * a - 3 * x)) < tol);
        CHECK(std::abs(r.at("t7")[i] - (0.5 * a - 0.25 * x)) < tol);
    }
    auto intScale = h.input(INT, {}, {1}, "intScale");
    CHECK_THROWS_WITH(popops::scaledAddTo(h.graph, t1, b, intScale, h.prog),
                      Catch::Contains("single FLOAT or HALF element"));
}

TEST_CASE("LOG_ADD reduces values held as logarithms") {
    Harness h;
    const std::vector<double> xv = {0, 1, 2, -1, 100, 101, -500, -500.5};
    auto x = h.input(FLOAT, {4, 2}, xv, "x");
    h.output(popops::reduce(h.graph, x, {1}, popops::Operation::LOG_ADD, h.prog), "rows");
    const auto r = h.run();
    std::vector<double> want;
    for (std::size_t i = 0; i < 4; ++i) {
        const double a = xv[2 * i], b = xv[2 * i + 1], m = std::max(a, b);
        want.push_back(m + std::log(std::exp(a - m) + std::exp(b - m)));
    }
    checkClose(r.at("rows"), want, 1e-6);
    CHECK_THROWS_WITH(popops::reduce(h.graph, h.input(INT, {2}, {1, 2}, "i"), {0},
                                     popops::Operation::LOG_ADD, h.prog),
                      Catch::Contains("FLOAT and HALF only"));
}
