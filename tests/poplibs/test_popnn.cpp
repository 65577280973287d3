// popnn non-linearities, their gradients and calcLoss against host references.

#include "PoplibsHarness.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/LogSoftmax.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>

using namespace poplibstest;
using poplar::FLOAT;
using poplar::HALF;
using popnn::NonLinearityType;

namespace {

double gelu(double x) {
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}

void checkClose(const std::vector<double>& got, const std::vector<double>& want, double tol) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("element " << i << ": " << got[i] << " vs " << want[i]);
        CHECK(std::abs(got[i] - want[i]) <= tol * (1 + std::abs(want[i])));
    }
}

} // namespace

TEST_CASE("nonLinearity matches the host for each type, FLOAT and HALF") {
    for (const auto& type : {FLOAT, HALF}) {
        const double tol = type == HALF ? 2.0 / 1024 : 1e-5;
        Harness h;
        auto xv = values(7 * 5, -3, 3, 2);
        if (type == HALF)
            std::transform(xv.begin(), xv.end(), xv.begin(), toHalf);
        auto x = h.input(type, {7, 5}, xv, "x");
        for (auto nl : {NonLinearityType::RELU, NonLinearityType::SIGMOID, NonLinearityType::TANH,
                        NonLinearityType::GELU, NonLinearityType::SOFTMAX})
            h.output(popnn::nonLinearity(h.graph, nl, x, h.prog), std::to_string(int(nl)));
        const auto r = h.run();
        std::vector<double> relu, sig, th, ge, sm(xv.size());
        for (double v : xv) {
            relu.push_back(v > 0 ? v : 0);
            sig.push_back(1 / (1 + std::exp(-v)));
            th.push_back(std::tanh(v));
            ge.push_back(gelu(v));
        }
        for (std::size_t row = 0; row < 7; ++row) {
            double mx = -1e30, sum = 0;
            for (std::size_t c = 0; c < 5; ++c)
                mx = std::max(mx, xv[row * 5 + c]);
            for (std::size_t c = 0; c < 5; ++c)
                sum += std::exp(xv[row * 5 + c] - mx);
            for (std::size_t c = 0; c < 5; ++c)
                sm[row * 5 + c] = std::exp(xv[row * 5 + c] - mx) / sum;
        }
        INFO("type " << type);
        checkClose(r.at(std::to_string(int(NonLinearityType::RELU))), relu, tol);
        checkClose(r.at(std::to_string(int(NonLinearityType::SIGMOID))), sig, tol);
        checkClose(r.at(std::to_string(int(NonLinearityType::TANH))), th, tol);
        checkClose(r.at(std::to_string(int(NonLinearityType::GELU))), ge,
                   type == HALF ? 4e-3 : 1e-5);
        checkClose(r.at(std::to_string(int(NonLinearityType::SOFTMAX))), sm, tol);
    }
}

TEST_CASE("nonLinearityInputGradient uses the forward outputs") {
    Harness h;
    const auto yv = values(19, 0.05, 0.95, 4);
    const auto gv = values(19, -1, 1, 5);
    auto y = h.input(FLOAT, {19}, yv, "y");
    auto g = h.input(FLOAT, {19}, gv, "g");
    h.output(popnn::nonLinearityInputGradient(h.graph, NonLinearityType::SIGMOID, y, g, h.prog),
             "sig");
    h.output(popnn::nonLinearityInputGradient(h.graph, NonLinearityType::TANH, y, g, h.prog),
             "tanh");
    const auto r = h.run();
    std::vector<double> sig, th;
    for (std::size_t i = 0; i < yv.size(); ++i) {
        sig.push_back(gv[i] * yv[i] * (1 - yv[i]));
        th.push_back(gv[i] * (1 - yv[i] * yv[i]));
    }
    checkClose(r.at("sig"), sig, 1e-5);
    checkClose(r.at("tanh"), th, 1e-5);
}

TEST_CASE("GELU input gradient takes the forward inputs and matches the host, FLOAT and HALF") {
    // d/dx of the tanh approximation the forward pass uses, in double.
    const auto geluDerivative = [](double x) {
        const double c = std::sqrt(2 / M_PI);
        const double t = std::tanh(c * (x + 0.044715 * x * x * x));
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * 0.044715 * x * x);
    };
    // Also check the formula itself against a central difference of gelu().
    for (double x : {-3.0, -0.7, 0.0, 0.4, 2.5})
        CHECK(std::abs(geluDerivative(x) - (gelu(x + 1e-6) - gelu(x - 1e-6)) / 2e-6) < 1e-6);
    for (auto type : {FLOAT, HALF}) {
        // FLOAT: float evaluation of tanh and the polynomial, a few float ulps. HALF: x, dy and
        // the result each rounded to HALF (relative 4.9e-4), derivatives up to ~1.13: 4e-3.
        const double tol = type == HALF ? 4e-3 : 2e-6;
        Harness h;
        const std::size_t n = 37; // not a multiple of the vector width or the tile count
        auto xv = values(n, -4, 4, 31);
        auto gv = values(n, -1, 1, 32);
        xv[0] = 0;
        if (type == HALF) {
            std::transform(xv.begin(), xv.end(), xv.begin(), toHalf);
            std::transform(gv.begin(), gv.end(), gv.begin(), toHalf);
        }
        auto x = h.input(type, {n}, xv, "x");
        auto g = h.input(type, {n}, gv, "g");
        h.output(popnn::nonLinearityInputGradient(h.graph, NonLinearityType::GELU, x, g, h.prog),
                 "dx");
        const auto r = h.run();
        std::vector<double> want;
        for (std::size_t i = 0; i < n; ++i)
            want.push_back(gv[i] * geluDerivative(xv[i]));
        INFO("type " << type);
        checkClose(r.at("dx"), want, tol);
    }
}

namespace {

/// Softmax of each row (innermost dimension of `cols` elements) of `x`, in double.
std::vector<double> hostSoftmax(const std::vector<double>& x, std::size_t cols) {
    std::vector<double> y(x.size());
    for (std::size_t r = 0; r * cols < x.size(); ++r) {
        double mx = -1e300, sum = 0;
        for (std::size_t c = 0; c < cols; ++c)
            mx = std::max(mx, x[r * cols + c]);
        for (std::size_t c = 0; c < cols; ++c)
            sum += std::exp(x[r * cols + c] - mx);
        for (std::size_t c = 0; c < cols; ++c)
            y[r * cols + c] = std::exp(x[r * cols + c] - mx) / sum;
    }
    return y;
}

} // namespace

TEST_CASE("SOFTMAX input gradient matches the host for several shapes, FLOAT and HALF") {
    // Shapes: one row, rows not a multiple of anything, rank 3, a single column.
    const std::vector<std::vector<std::size_t>> shapes = {{11}, {7, 5}, {3, 4, 9}, {13, 1}};
    for (auto type : {FLOAT, HALF}) {
        // HALF: y, dy and the result are rounded to HALF (relative 4.9e-4 each), so a few
        // HALF ulps of error relative to values of magnitude ~1.
        const double tol = type == HALF ? 4e-3 : 1e-5;
        for (const auto& shape : shapes) {
            std::size_t n = 1;
            for (auto d : shape)
                n *= d;
            const std::size_t cols = shape.back();
            auto yv = hostSoftmax(values(n, -2, 2, 21), cols);
            auto gv = values(n, -1, 1, 22);
            if (type == HALF) {
                std::transform(yv.begin(), yv.end(), yv.begin(), toHalf);
                std::transform(gv.begin(), gv.end(), gv.begin(), toHalf);
            }
            Harness h(6);
            auto y = h.input(type, shape, yv, "y");
            auto g = h.input(type, shape, gv, "g");
            h.output(
                popnn::nonLinearityInputGradient(h.graph, NonLinearityType::SOFTMAX, y, g, h.prog),
                "dx");
            const auto r = h.run();
            std::vector<double> want(n);
            for (std::size_t row = 0; row * cols < n; ++row) {
                double dot = 0;
                for (std::size_t c = 0; c < cols; ++c)
                    dot += yv[row * cols + c] * gv[row * cols + c];
                for (std::size_t c = 0; c < cols; ++c)
                    want[row * cols + c] = yv[row * cols + c] * (gv[row * cols + c] - dot);
            }
            INFO("type " << type << ", " << n << " elements, " << cols << " columns");
            checkClose(r.at("dx"), want, tol);
        }
    }
}

TEST_CASE("logSoftmax matches the host for several shapes, FLOAT and HALF") {
    const std::vector<std::vector<std::size_t>> shapes = {{1}, {9}, {7, 5}, {2, 3, 17}};
    for (auto type : {FLOAT, HALF}) {
        // HALF: inputs, the shifted values and the log-sum are each rounded to HALF; results
        // of magnitude up to ~10 are within a few HALF ulps (relative 4.9e-4 each).
        const double tol = type == HALF ? 5e-3 : 1e-5;
        for (const auto& shape : shapes) {
            std::size_t n = 1;
            for (auto d : shape)
                n *= d;
            const std::size_t cols = shape.back();
            auto xv = values(n, -6, 6, 31);
            if (type == HALF)
                std::transform(xv.begin(), xv.end(), xv.begin(), toHalf);
            Harness h(5);
            auto x = h.input(type, shape, xv, "x");
            h.output(popnn::logSoftmax(h.graph, x, h.prog), "out");
            auto inPlace = h.input(type, shape, xv, "x2");
            popnn::logSoftmaxInPlace(h.graph, inPlace, h.prog);
            h.output(inPlace, "inPlace");
            const auto r = h.run();
            auto want = hostSoftmax(xv, cols);
            for (auto& v : want)
                v = std::log(v);
            INFO("type " << type << ", " << n << " elements, " << cols << " columns");
            checkClose(r.at("out"), want, tol);
            checkClose(r.at("inPlace"), want, tol);
        }
    }
    // Very negative logits: softmax underflows to 0, logSoftmax stays finite.
    Harness h(2);
    auto x = h.input(FLOAT, {3}, {0, -200, -400}, "x");
    h.output(popnn::logSoftmax(h.graph, x, h.prog), "out");
    checkClose(h.run().at("out"), {0, -200, -400}, 1e-5);
    Harness bad(2);
    auto ints = bad.input(poplar::INT, {3}, {1, 2, 3}, "ints");
    CHECK_THROWS_WITH(popnn::logSoftmax(bad.graph, ints, bad.prog), Catch::Contains("'ints'"));
}

TEST_CASE("calcLoss gives loss, deltas and the number correct") {
    const std::size_t B = 9, C = 4;
    for (auto lossType : {popnn::SUM_SQUARED_LOSS, popnn::CROSS_ENTROPY_LOSS}) {
        Harness h;
        auto pv = values(B * C, 0.01, 1.0, 8);
        const auto labels = integers(B, 0, int(C) - 1, 3);
        auto probs = h.input(FLOAT, {B, C}, pv, "probs");
        auto expected = h.input(poplar::INT, {B}, labels, "labels");
        auto loss = h.g().addVariable(FLOAT, {B}, "loss");
        auto deltas = h.g().addVariable(FLOAT, {B, C}, "deltas");
        auto correct = h.g().addVariable(poplar::INT, {1}, "correct");
        poputil::mapTensorLinearly(h.graph, loss, 1, 1);
        poputil::mapTensorLinearly(h.graph, deltas, 1, 1);
        h.g().setTileMapping(correct, 0);
        popnn::calcLoss(h.graph, probs, expected, loss, deltas, correct, lossType, h.prog);
        h.output(loss, "loss");
        h.output(deltas, "deltas");
        h.output(correct, "correct");
        const auto r = h.run();
        std::vector<double> wantLoss, wantDeltas;
        double numCorrect = 0;
        for (std::size_t b = 0; b < B; ++b) {
            double sq = 0;
            std::size_t best = 0;
            for (std::size_t c = 0; c < C; ++c) {
                const double d = float(pv[b * C + c]) - (c == labels[b] ? 1.0 : 0.0);
                wantDeltas.push_back(d);
                sq += d * d;
                if (pv[b * C + c] > pv[b * C + best])
                    best = c;
            }
            numCorrect += best == labels[b];
            wantLoss.push_back(lossType == popnn::SUM_SQUARED_LOSS
                                   ? 0.5 * sq
                                   : -std::log(double(float(pv[b * C + std::size_t(labels[b])]))));
        }
        checkClose(r.at("loss"), wantLoss, 1e-5);
        checkClose(r.at("deltas"), wantDeltas, 1e-6);
        CHECK(r.at("correct")[0] == numCorrect);
    }
}

TEST_CASE("the new operations are recorded as PopLibs operations with FLOPs") {
    Harness h(8);
    auto x = h.input(FLOAT, {4, 6}, values(24, -1, 1, 41), "x");
    auto a = h.input(FLOAT, {2, 4, 3}, values(24, -1, 1, 42), "a");
    auto b = h.input(FLOAT, {2, 3, 5}, values(30, -1, 1, 43), "b");
    h.output(popnn::logSoftmax(h.graph, x, h.prog, "ls"), "ls");
    auto y = popnn::nonLinearity(h.graph, NonLinearityType::SOFTMAX, x, h.prog, "sm");
    h.output(popnn::nonLinearityInputGradient(h.graph, NonLinearityType::SOFTMAX, y, x, h.prog,
                                              "smGrad"),
             "grad");
    h.output(poplin::matMulGrouped(h.graph, a, b, h.prog, FLOAT, "grouped"), "c");
    poplar::Engine engine(h.graph, h.prog);
    const auto& ops = engine.compileRecords().operations;
    std::map<std::string, std::size_t> byName;
    for (std::size_t i = 0; i < ops.size(); ++i)
        byName[ops[i].name] = i;
    for (const char* name : {"logSoftmax", "nonLinearityInputGradient", "matMulGrouped"}) {
        INFO(name);
        REQUIRE(byName.count(name) == 1);
        const std::size_t id = byName[name];
        CHECK(ops[id].layer == "PopLibs");
        // Composite operations own their programs directly or through nested PopLibs calls.
        const bool nested = std::any_of(ops.begin(), ops.end(), [&](const auto& op) {
            return op.parent == std::int64_t(id) && !op.programs.empty();
        });
        CHECK((nested || !ops[id].programs.empty()));
    }
    CHECK(std::any_of(ops.begin(), ops.end(), [&](const auto& op) {
        return op.parent == std::int64_t(byName["matMulGrouped"]) && op.name == "matMul";
    }));
    CHECK(ops[byName["logSoftmax"]].flops.value_or(0) > 0);
    CHECK(ops[byName["nonLinearityInputGradient"]].flops.value_or(0) > 0);
}

TEST_CASE("calcLoss forms returning a Program: UNSIGNED_INT numCorrect and loss scaling") {
    const std::size_t B = 7, C = 5;
    auto pv = values(B * C, 0.01, 1.0, 21);
    const auto labels = integers(B, 0, int(C) - 1, 4);
    for (bool scaled : {false, true}) {
        INFO("scaled " << scaled);
        Harness h;
        auto probs = h.input(FLOAT, {B, C}, pv, "probs");
        auto expected = h.input(poplar::UNSIGNED_INT, {B}, labels, "labels");
        auto loss = h.g().addVariable(FLOAT, {B}, "loss");
        auto deltas = h.g().addVariable(FLOAT, {B, C}, "deltas");
        auto correct = h.g().addVariable(poplar::UNSIGNED_INT, {}, "correct");
        poputil::mapTensorLinearly(h.graph, loss, 1, 1);
        poputil::mapTensorLinearly(h.graph, deltas, 1, 1);
        h.g().setTileMapping(correct, 3);
        // The probabilities arrive scaled by 4; deltas are wanted scaled by 8.
        const double outputScaling = scaled ? 4 : 1, deltasScaling = scaled ? 8 : 1;
        poplar::program::Program p;
        if (scaled) {
            auto ds = h.input(FLOAT, {}, {deltasScaling}, "ds");
            auto mos = h.input(FLOAT, {}, {outputScaling}, "mos");
            p = popnn::calcLoss(h.graph, probs, expected, loss, deltas, ds, mos, correct,
                                popnn::CROSS_ENTROPY_LOSS, "scaledLoss");
        } else {
            p = popnn::calcLoss(h.graph, probs, expected, loss, deltas, correct,
                                popnn::CROSS_ENTROPY_LOSS);
        }
        h.prog.add(p);
        h.output(loss, "loss");
        h.output(deltas, "deltas");
        h.output(correct, "correct");
        const auto r = h.run();
        std::vector<double> wantLoss, wantDeltas;
        double numCorrect = 0;
        for (std::size_t b = 0; b < B; ++b) {
            std::size_t best = 0;
            for (std::size_t c = 0; c < C; ++c) {
                const double y = float(pv[b * C + c]);
                const double target = c == labels[b] ? outputScaling : 0.0;
                wantDeltas.push_back(deltasScaling / outputScaling * (y - target));
                if (pv[b * C + c] > pv[b * C + best])
                    best = c;
            }
            numCorrect += best == labels[b];
            wantLoss.push_back(-(std::log(double(float(pv[b * C + std::size_t(labels[b])]))) -
                                 std::log(outputScaling)));
        }
        checkClose(r.at("loss"), wantLoss, 1e-5);
        checkClose(r.at("deltas"), wantDeltas, 1e-5);
        CHECK(r.at("correct")[0] == numCorrect);
    }
}

TEST_CASE("calcLoss returning a Program without numCorrect, scaling refused for SUM_SQUARED") {
    Harness h;
    auto probs = h.input(FLOAT, {2, 3}, {0.5, 0.25, 0.25, 0.1, 0.1, 0.8}, "probs");
    auto expected = h.input(poplar::INT, {2}, {0, 2}, "labels");
    auto loss = h.g().addVariable(FLOAT, {2}, "loss");
    auto deltas = h.g().addVariable(FLOAT, {2, 3}, "deltas");
    h.g().setTileMapping(loss, 0);
    h.g().setTileMapping(deltas, 1);
    h.prog.add(popnn::calcLoss(h.graph, probs, expected, loss, deltas, popnn::SUM_SQUARED_LOSS));
    h.output(loss, "loss");
    const auto r = h.run();
    checkClose(r.at("loss"), {0.5 * (0.25 + 0.0625 + 0.0625), 0.5 * (0.01 + 0.01 + 0.04)}, 1e-6);

    auto one = h.g().addConstant(FLOAT, {}, 1.0f);
    h.g().setTileMapping(one, 0);
    CHECK_THROWS_WITH(
        popnn::calcLoss(h.graph, probs, expected, loss, deltas, one, one, popnn::SUM_SQUARED_LOSS),
        Catch::Contains("CROSS_ENTROPY_LOSS only"));
    auto floatCorrect = h.g().addVariable(FLOAT, {}, "floatCorrect");
    h.g().setTileMapping(floatCorrect, 0);
    CHECK_THROWS_WITH(popnn::calcLoss(h.graph, probs, expected, loss, deltas, floatCorrect,
                                      popnn::CROSS_ENTROPY_LOSS),
                      Catch::Contains("UNSIGNED_INT or INT"));
}

TEST_CASE("argMax, argMin, maxAndArgMax, minAndArgMin and calcAccuracy match the host") {
    const std::size_t R = 11, C = 6;
    for (const auto& type : {FLOAT, HALF, poplar::INT}) {
        INFO("type " << type);
        Harness h;
        auto xv = integers(R * C, -20, 20, 17);
        xv[2 * C + 1] = xv[2 * C + 4] = 25; // a tie: the first column wins
        auto x = h.input(type, {R, C}, xv, "x");
        auto idx = popnn::argMax(h.graph, x, h.prog);
        CHECK(idx.elementType() == poplar::UNSIGNED_INT);
        h.output(idx, "argMax");
        h.output(popnn::argMin(h.graph, x, h.prog), "argMin");
        auto mx = popnn::maxAndArgMax(h.graph, x, h.prog);
        auto mn = popnn::minAndArgMin(h.graph, x, h.prog);
        CHECK(mx.first.elementType() == type);
        h.output(mx.first, "max");
        h.output(mn.first, "min");
        h.output(mn.second, "argMin2");
        const auto r = h.run();
        for (std::size_t row = 0; row < R; ++row) {
            const auto begin = xv.begin() + row * C, end = begin + C;
            const auto maxIt = std::max_element(begin, end), minIt = std::min_element(begin, end);
            CHECK(r.at("argMax")[row] == double(maxIt - begin));
            CHECK(r.at("argMin")[row] == double(minIt - begin));
            CHECK(r.at("argMin2")[row] == double(minIt - begin));
            CHECK(r.at("max")[row] == *maxIt);
            CHECK(r.at("min")[row] == *minIt);
        }
        CHECK(r.at("argMax")[2] == 1);
    }
    for (const auto& correctType : {poplar::UNSIGNED_INT, poplar::INT}) {
        Harness h;
        const std::size_t B = 13;
        const auto pv = values(B * C, 0, 1, 19);
        const auto labels = integers(B, 0, int(C) - 1, 23);
        auto probs = h.input(FLOAT, {B, C}, pv, "probs");
        auto expected = h.input(poplar::INT, {B}, labels, "labels");
        auto numCorrect = h.g().addVariable(correctType, {1}, "numCorrect");
        h.g().setTileMapping(numCorrect, 2);
        h.prog.add(popnn::calcAccuracy(h.graph, probs, expected, numCorrect));
        h.output(numCorrect, "numCorrect");
        const auto r = h.run();
        double want = 0;
        for (std::size_t b = 0; b < B; ++b) {
            const auto begin = pv.begin() + b * C;
            want += std::size_t(std::max_element(begin, begin + C) - begin) == labels[b];
        }
        CHECK(want > 0);
        CHECK(r.at("numCorrect")[0] == want);
    }
    Harness h;
    CHECK_THROWS_AS(popnn::argMax(h.graph, h.input(FLOAT, {4}, {1, 2, 3, 4}, "v"), h.prog),
                    poplar::poplar_error);
}

TEST_CASE("calcLoss and calcAccuracy leave out rows labelled MASKED_LABEL_CODE") {
    const std::size_t B = 4, C = 3;
    const std::vector<double> pv = {0.7, 0.2, 0.1, 0.2, 0.5, 0.3, 0.1, 0.1, 0.8, 0.6, 0.3, 0.1};
    for (const auto& labelType : {poplar::UNSIGNED_INT, poplar::INT}) {
        INFO("labels " << labelType);
        const double masked = labelType == poplar::INT ? -1.0 : double(MASKED_LABEL_CODE);
        const std::vector<double> labels = {0, masked, 2, masked};
        Harness h;
        auto probs = h.input(FLOAT, {B, C}, pv, "probs");
        auto expected = h.input(labelType, {B}, labels, "labels");
        auto loss = h.g().addVariable(FLOAT, {B}, "loss");
        auto deltas = h.g().addVariable(FLOAT, {B, C}, "deltas");
        auto numCorrect = h.g().addVariable(poplar::UNSIGNED_INT, {}, "numCorrect");
        auto accuracy = h.g().addVariable(poplar::UNSIGNED_INT, {}, "accuracy");
        poputil::mapTensorLinearly(h.graph, loss, 1, 1);
        poputil::mapTensorLinearly(h.graph, deltas, 1, 1);
        h.g().setTileMapping(numCorrect, 0);
        h.g().setTileMapping(accuracy, 1);
        h.prog.add(popnn::calcLoss(h.graph, probs, expected, loss, deltas, numCorrect,
                                   popnn::CROSS_ENTROPY_LOSS));
        h.prog.add(popnn::calcAccuracy(h.graph, probs, expected, accuracy));
        h.output(loss, "loss");
        h.output(deltas, "deltas");
        h.output(numCorrect, "numCorrect");
        h.output(accuracy, "accuracy");
        const auto r = h.run();
        checkClose(r.at("loss"), {-std::log(double(0.7f)), 0, -std::log(double(0.8f)), 0}, 1e-6);
        checkClose(r.at("deltas"), {0.7 - 1, 0.2, 0.1, 0, 0, 0, 0.1, 0.1, 0.8 - 1, 0, 0, 0}, 1e-6);
        CHECK(r.at("numCorrect")[0] == 2);
        CHECK(r.at("accuracy")[0] == 2);
    }
}

TEST_CASE("topK gives each row's K largest values and their columns, largest first") {
    const std::size_t R = 5, C = 7;
    for (const auto& type : {FLOAT, HALF, poplar::INT}) {
        INFO("type " << type);
        Harness h;
        auto xv = integers(R * C, -9, 9, 29);
        xv[1] = xv[4] = 20; // a tie in row 0: column 1 before column 4
        auto x = h.input(type, {R, C}, xv, "x");
        poplar::Tensor indices;
        auto top = popnn::topK(h.graph, x, indices, 3, true, h.prog);
        CHECK(top.shape() == std::vector<std::size_t>{R, 3});
        CHECK(indices.elementType() == poplar::UNSIGNED_INT);
        h.output(top, "top");
        h.output(indices, "indices");
        const auto r = h.run();
        for (std::size_t row = 0; row < R; ++row) {
            std::vector<std::size_t> order(C);
            for (std::size_t c = 0; c < C; ++c)
                order[c] = c;
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                return xv[row * C + a] > xv[row * C + b];
            });
            for (std::size_t j = 0; j < 3; ++j) {
                CHECK(r.at("indices")[row * 3 + j] == double(order[j]));
                CHECK(r.at("top")[row * 3 + j] == xv[row * C + order[j]]);
            }
        }
        CHECK(r.at("indices")[0] == 1);
        CHECK(r.at("indices")[1] == 4);
    }
    Harness h;
    poplar::Tensor indices;
    CHECK_THROWS_AS(popnn::topK(h.graph, h.input(FLOAT, {2, 3}, values(6, 0, 1), "x"), indices, 4,
                                true, h.prog),
                    poplar::poplar_error);
}

TEST_CASE("calcLoss and calcAccuracy add to numCorrect, so a loop over batches accumulates") {
    const std::size_t B = 7, C = 3;
    const auto pv = values(B * C, 0, 1, 31);
    const auto labels = integers(B, 0, int(C) - 1, 37);
    double once = 0;
    for (std::size_t b = 0; b < B; ++b) {
        const auto begin = pv.begin() + b * C;
        once += std::size_t(std::max_element(begin, begin + C) - begin) == labels[b];
    }
    REQUIRE(once > 0);
    Harness h;
    auto probs = h.input(FLOAT, {B, C}, pv, "probs");
    auto expected = h.input(poplar::INT, {B}, labels, "labels");
    auto loss = h.g().addVariable(FLOAT, {B}, "loss");
    auto deltas = h.g().addVariable(FLOAT, {B, C}, "deltas");
    poputil::mapTensorLinearly(h.graph, loss, 1, 1);
    poputil::mapTensorLinearly(h.graph, deltas, 1, 1);
    auto lossCount = h.input(poplar::UNSIGNED_INT, {1}, {5}, "lossCount");
    auto accuracyCount = h.input(poplar::UNSIGNED_INT, {1}, {0}, "accuracyCount");
    poplar::program::Sequence twice;
    twice.add(popnn::calcLoss(h.graph, probs, expected, loss, deltas, lossCount,
                              popnn::CROSS_ENTROPY_LOSS));
    twice.add(popnn::calcAccuracy(h.graph, probs, expected, accuracyCount));
    h.prog.add(poplar::program::Repeat(2, twice));
    h.output(lossCount, "lossCount");
    h.output(accuracyCount, "accuracyCount");
    const auto r = h.run();
    CHECK(r.at("lossCount")[0] == 5 + 2 * once);
    CHECK(r.at("accuracyCount")[0] == 2 * once);
}
