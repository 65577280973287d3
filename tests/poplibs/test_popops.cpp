// popops against host references: element-wise operations with broadcasting and in-place forms,
// fill, zero, cast, scaled add/subtract and reductions, for several shapes including ones that do
// not divide evenly over the tiles.

#include "PoplibsHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/Reduction.hpp>
#include <popops/ScaledAdd.hpp>

using namespace poplibstest;
using poplar::FLOAT;
using poplar::HALF;
using poplar::INT;
using popops::expr::BinaryOpType;
using popops::expr::UnaryOpType;

namespace {

std::size_t product(const std::vector<std::size_t>& s) {
    std::size_t n = 1;
    for (auto d : s)
        n *= d;
    return n;
}

/// Index into a tensor of shape `from` (right-aligned, broadcast) for the flat index `i` of
/// a tensor of shape `to`.
std::size_t broadcastIndex(std::size_t i, const std::vector<std::size_t>& to,
                           const std::vector<std::size_t>& from) {
    std::size_t index = 0, stride = 1;
    for (std::size_t d = 0; d < to.size(); ++d) {
        const std::size_t dim = to.size() - 1 - d;
        const std::size_t coord = i % to[dim];
        i /= to[dim];
        if (d < from.size()) {
            const std::size_t fdim = from.size() - 1 - d;
            index += (from[fdim] == 1 ? 0 : coord) * stride;
            stride *= from[fdim];
        }
    }
    return index;
}

double binaryRef(BinaryOpType op, double a, double b) {
    switch (op) {
    case BinaryOpType::ADD:
        return a + b;
    case BinaryOpType::SUBTRACT:
        return a - b;
    case BinaryOpType::MULTIPLY:
        return a * b;
    case BinaryOpType::DIVIDE:
        return a / b;
    case BinaryOpType::MAXIMUM:
        return std::max(a, b);
    case BinaryOpType::MINIMUM:
        return std::min(a, b);
    case BinaryOpType::POWER:
        return std::pow(a, b);
    case BinaryOpType::EQUAL:
        return a == b;
    case BinaryOpType::GREATER_THAN:
        return a > b;
    case BinaryOpType::LESS_THAN:
        return a < b;
    default: // the others are tested in test_popops_misc.cpp
        break;
    }
    return 0;
}

double unaryRef(UnaryOpType op, double x) {
    switch (op) {
    case UnaryOpType::ABSOLUTE:
        return std::abs(x);
    case UnaryOpType::EXPONENT:
        return std::exp(x);
    case UnaryOpType::LOGARITHM:
        return std::log(x);
    case UnaryOpType::NEGATE:
        return -x;
    case UnaryOpType::RELU:
        return x > 0 ? x : 0;
    case UnaryOpType::SIGMOID:
        return 1 / (1 + std::exp(-x));
    case UnaryOpType::SQRT:
        return std::sqrt(x);
    case UnaryOpType::SQUARE:
        return x * x;
    case UnaryOpType::TANH:
        return std::tanh(x);
    default: // the others are tested in test_popops_misc.cpp
        break;
    }
    return 0;
}

/// FLOAT results match to 1e-5 relative; HALF results to 2^-9 relative (about one HALF ulp
/// after computing in float and rounding once) plus 1e-3 absolute near zero.
void checkClose(const std::vector<double>& got, const std::vector<double>& want,
                const poplar::Type& type) {
    REQUIRE(got.size() == want.size());
    const double rel = type == HALF ? 1.0 / 512 : 1e-5;
    const double abs = type == HALF ? 1e-3 : 1e-6;
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i);
        CHECK(std::abs(got[i] - want[i]) <= abs + rel * std::abs(want[i]));
    }
}

struct BroadcastCase {
    std::vector<std::size_t> a, b, out;
};

} // namespace

TEST_CASE("binary operations broadcast like numpy and match the host") {
    const std::vector<BroadcastCase> cases = {
        {{7}, {7}, {7}},                // fewer elements than tiles x grain
        {{13, 3}, {13, 3}, {13, 3}},    // 39 elements: not divisible by 8 tiles
        {{3, 5}, {5}, {3, 5}},          // row vector
        {{4, 1}, {1, 6}, {4, 6}},       // both sides broadcast
        {{2, 3, 4}, {3, 1}, {2, 3, 4}}, // middle dimension
        {{1}, {9, 2}, {9, 2}},          // scalar-like first operand
    };
    const std::vector<BinaryOpType> ops = {BinaryOpType::ADD,       BinaryOpType::SUBTRACT,
                                           BinaryOpType::MULTIPLY,  BinaryOpType::DIVIDE,
                                           BinaryOpType::MAXIMUM,   BinaryOpType::MINIMUM,
                                           BinaryOpType::POWER,     BinaryOpType::GREATER_THAN,
                                           BinaryOpType::LESS_THAN, BinaryOpType::EQUAL};
    for (const auto& type : {FLOAT, HALF}) {
        for (const auto& c : cases) {
            Harness h;
            const auto av = integers(product(c.a), 1, 4, 3);
            const auto bv = integers(product(c.b), 1, 4, 5);
            auto a = h.input(type, c.a, av, "a");
            auto b = h.input(type, c.b, bv, "b");
            for (std::size_t o = 0; o < ops.size(); ++o)
                h.output(popops::map(h.graph, ops[o], a, b, h.prog), "out" + std::to_string(o));
            const auto results = h.run();
            for (std::size_t o = 0; o < ops.size(); ++o) {
                INFO("type " << type << " op " << int(ops[o]) << " shapes " << c.a.size() << "/"
                             << c.b.size());
                std::vector<double> want(product(c.out));
                for (std::size_t i = 0; i < want.size(); ++i) {
                    want[i] = binaryRef(ops[o], av[broadcastIndex(i, c.out, c.a)],
                                        bv[broadcastIndex(i, c.out, c.b)]);
                    if (type == HALF)
                        want[i] = toHalf(want[i]);
                }
                checkClose(results.at("out" + std::to_string(o)), want, type);
            }
        }
    }
}

TEST_CASE("named element-wise functions and INT arithmetic") {
    Harness h;
    const auto av = integers(23, -9, 9, 7);
    auto bv = integers(23, 1, 5, 8);
    auto a = h.input(INT, {23}, av, "a");
    auto b = h.input(INT, {23}, bv, "b");
    h.output(popops::add(h.graph, a, b, h.prog, "sum"), "add");
    h.output(popops::div(h.graph, a, b, h.prog), "div");
    h.output(popops::neg(h.graph, a, h.prog), "neg");
    h.output(popops::abs(h.graph, a, h.prog), "abs");
    h.output(popops::square(h.graph, a, h.prog), "square");
    const auto r = h.run();
    for (std::size_t i = 0; i < av.size(); ++i) {
        CHECK(r.at("add")[i] == av[i] + bv[i]);
        CHECK(r.at("div")[i] == double(int(av[i]) / int(bv[i])));
        CHECK(r.at("neg")[i] == -av[i]);
        CHECK(r.at("abs")[i] == std::abs(av[i]));
        CHECK(r.at("square")[i] == av[i] * av[i]);
    }
}

TEST_CASE("unary operations match the host in FLOAT and HALF") {
    const std::vector<UnaryOpType> ops = {
        UnaryOpType::ABSOLUTE, UnaryOpType::EXPONENT, UnaryOpType::LOGARITHM,
        UnaryOpType::NEGATE,   UnaryOpType::RELU,     UnaryOpType::SIGMOID,
        UnaryOpType::SQRT,     UnaryOpType::SQUARE,   UnaryOpType::TANH};
    for (const auto& type : {FLOAT, HALF}) {
        for (const std::vector<std::size_t>& shape :
             {std::vector<std::size_t>{5}, std::vector<std::size_t>{17, 3}}) {
            Harness h;
            auto xv = values(product(shape), 0.1, 3.0, 11);
            if (type == HALF)
                for (auto& x : xv)
                    x = toHalf(x);
            auto x = h.input(type, shape, xv, "x");
            for (std::size_t o = 0; o < ops.size(); ++o)
                h.output(popops::map(h.graph, ops[o], x, h.prog), "out" + std::to_string(o));
            // In place: x becomes -x.
            popops::negInPlace(h.graph, x, h.prog);
            h.output(x, "x");
            const auto r = h.run();
            for (std::size_t o = 0; o < ops.size(); ++o) {
                INFO("type " << type << " op " << int(ops[o]));
                std::vector<double> want(xv.size());
                for (std::size_t i = 0; i < want.size(); ++i)
                    want[i] = unaryRef(ops[o], xv[i]);
                checkClose(r.at("out" + std::to_string(o)), want, type);
            }
            std::vector<double> negated(xv.size());
            std::transform(xv.begin(), xv.end(), negated.begin(), [](double v) { return -v; });
            checkClose(r.at("x"), negated, type);
        }
    }
}

TEST_CASE("in-place binary operations broadcast the second operand") {
    Harness h;
    const auto av = integers(30, 0, 9, 1);
    const auto bv = integers(6, 0, 9, 2);
    auto a = h.input(FLOAT, {5, 6}, av, "a");
    auto b = h.input(FLOAT, {6}, bv, "b");
    popops::addInPlace(h.graph, a, b, h.prog);
    popops::mulInPlace(h.graph, a, b, h.prog);
    h.output(a, "a");
    const auto r = h.run();
    for (std::size_t i = 0; i < av.size(); ++i)
        CHECK(r.at("a")[i] == (av[i] + bv[i % 6]) * bv[i % 6]);

    Harness bad;
    auto small = bad.input(FLOAT, {6}, bv, "small");
    auto big = bad.input(FLOAT, {5, 6}, av, "big");
    CHECK_THROWS_WITH(popops::addInPlace(bad.graph, small, big, bad.prog),
                      Catch::Contains("'small'") && Catch::Contains("{5,6}"));
    CHECK_THROWS_WITH(
        popops::add(bad.graph, big, bad.input(FLOAT, {4}, values(4, 0, 1), "four"), bad.prog),
        Catch::Contains("cannot be broadcast") && Catch::Contains("'four'"));
}

TEST_CASE("fill, zero and cast") {
    Harness h;
    auto f = h.g().addVariable(FLOAT, {11, 3}, "f");
    poputil::mapTensorLinearly(h.graph, f, 1, 1);
    auto i = h.g().addVariable(INT, {9}, "i");
    poputil::mapTensorLinearly(h.graph, i, 1, 1);
    popops::fill(h.graph, f, h.prog, 2.5);
    popops::zero(h.graph, i, h.prog);
    h.output(f, "f");
    h.output(i, "i");
    const auto xv = values(19, -50, 50, 4);
    auto x = h.input(FLOAT, {19}, xv, "x");
    h.output(popops::cast(h.graph, x, INT, h.prog), "toInt");
    h.output(popops::cast(h.graph, x, HALF, h.prog), "toHalf");
    const auto r = h.run();
    CHECK(r.at("f") == std::vector<double>(33, 2.5));
    CHECK(r.at("i") == std::vector<double>(9, 0.0));
    for (std::size_t k = 0; k < xv.size(); ++k) {
        CHECK(r.at("toInt")[k] == std::trunc(float(xv[k])));
        CHECK(r.at("toHalf")[k] == toHalf(xv[k]));
    }
}

TEST_CASE("scaledAddTo and scaledSubtractFrom") {
    Harness h;
    const auto av = values(37, -1, 1, 1);
    const auto bv = values(37, -1, 1, 2);
    auto a = h.input(FLOAT, {37}, av, "a");
    auto b = h.input(FLOAT, {37}, bv, "b");
    auto c = h.input(FLOAT, {37}, av, "c");
    popops::scaledAddTo(h.graph, a, b, 0.5f, h.prog);
    popops::scaledSubtractFrom(h.graph, c, b, 0.25f, h.prog);
    h.output(a, "a");
    h.output(c, "c");
    const auto r = h.run();
    std::vector<double> wantA(37), wantC(37);
    for (std::size_t i = 0; i < 37; ++i) {
        wantA[i] = float(av[i]) + 0.5f * float(bv[i]);
        wantC[i] = float(av[i]) - 0.25f * float(bv[i]);
    }
    checkClose(r.at("a"), wantA, FLOAT);
    checkClose(r.at("c"), wantC, FLOAT);
}

TEST_CASE("reduce over chosen dimensions with each operation") {
    const std::vector<std::size_t> shape = {3, 5, 7};
    const std::vector<std::vector<std::size_t>> dimSets = {{0}, {1}, {2}, {0, 2}, {2, 0, 1}};
    const std::vector<popops::Operation> ops = {popops::Operation::ADD, popops::Operation::MUL,
                                                popops::Operation::MAX, popops::Operation::MIN,
                                                popops::Operation::SQUARE_ADD};
    Harness h;
    const auto xv = integers(product(shape), -3, 3, 9);
    std::vector<double> mulInput(xv.size());
    for (std::size_t i = 0; i < xv.size(); ++i)
        mulInput[i] = (xv[i] >= 0 ? 1.0 : -1.0) * (1 + int(std::abs(xv[i])) % 2); // +-1, +-2
    auto x = h.input(FLOAT, shape, xv, "x");
    auto xm = h.input(FLOAT, shape, mulInput, "xm");
    for (std::size_t d = 0; d < dimSets.size(); ++d)
        for (std::size_t o = 0; o < ops.size(); ++o)
            h.output(popops::reduce(h.graph, ops[o] == popops::Operation::MUL ? xm : x, dimSets[d],
                                    ops[o], h.prog),
                     "r" + std::to_string(d) + "_" + std::to_string(o));
    const auto r = h.run();
    for (std::size_t d = 0; d < dimSets.size(); ++d) {
        std::vector<bool> reduced(3, false);
        for (auto dim : dimSets[d])
            reduced[dim] = true;
        for (std::size_t o = 0; o < ops.size(); ++o) {
            const auto& in = ops[o] == popops::Operation::MUL ? mulInput : xv;
            std::map<std::size_t, std::vector<double>> groups;
            for (std::size_t i = 0; i < in.size(); ++i) {
                const std::size_t c[3] = {i / 35, (i / 7) % 5, i % 7};
                std::size_t key = 0;
                for (int k = 0; k < 3; ++k)
                    if (!reduced[k])
                        key = key * shape[k] + c[k];
                groups[key].push_back(in[i]);
            }
            std::vector<double> want;
            for (const auto& [key, g] : groups) {
                double acc = ops[o] == popops::Operation::MUL ? 1 : 0;
                if (ops[o] == popops::Operation::MAX)
                    acc = *std::max_element(g.begin(), g.end());
                else if (ops[o] == popops::Operation::MIN)
                    acc = *std::min_element(g.begin(), g.end());
                else
                    for (double v : g)
                        acc = ops[o] == popops::Operation::ADD   ? acc + v
                              : ops[o] == popops::Operation::MUL ? acc * v
                                                                 : acc + v * v;
                want.push_back(acc);
            }
            INFO("dims set " << d << " op " << int(ops[o]));
            CHECK(r.at("r" + std::to_string(d) + "_" + std::to_string(o)) == want);
        }
    }
}

TEST_CASE("reduceWithOutput writes or updates an existing tensor, bad dimensions are named") {
    Harness h;
    const auto xv = integers(4 * 9, 0, 5, 2);
    auto x = h.input(FLOAT, {4, 9}, xv, "x");
    auto out = h.input(FLOAT, {9}, std::vector<double>(9, 100.0), "out");
    auto fresh = h.g().addVariable(HALF, {4}, "fresh");
    poputil::mapTensorLinearly(h.graph, fresh, 1, 1);
    popops::reduceWithOutput(h.graph, x, out, {0}, {popops::Operation::ADD, true}, h.prog);
    popops::reduceWithOutput(h.graph, x, fresh, {1}, popops::Operation::MAX, h.prog);
    h.output(out, "out");
    h.output(fresh, "fresh");
    const auto r = h.run();
    for (std::size_t c = 0; c < 9; ++c) {
        double sum = 100;
        for (std::size_t row = 0; row < 4; ++row)
            sum += xv[row * 9 + c];
        CHECK(r.at("out")[c] == sum);
    }
    for (std::size_t row = 0; row < 4; ++row)
        CHECK(r.at("fresh")[row] ==
              *std::max_element(xv.begin() + row * 9, xv.begin() + row * 9 + 9));

    CHECK_THROWS_WITH(popops::reduce(h.graph, x, {2}, popops::Operation::ADD, h.prog),
                      Catch::Contains("dimension 2") && Catch::Contains("'x'"));
    CHECK_THROWS_WITH(
        popops::reduceWithOutput(h.graph, x, out, {1}, popops::Operation::ADD, h.prog),
        Catch::Contains("'out'") && Catch::Contains("{4}"));
}
