// popnn non-linearities, their gradients and calcLoss against host references.

#include "PoplibsHarness.hpp"

#include <catch2/catch.hpp>
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
    CHECK_THROWS_WITH(
        popnn::nonLinearityInputGradient(h.graph, NonLinearityType::SOFTMAX, y, g, h.prog),
        Catch::Contains("SOFTMAX"));
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
