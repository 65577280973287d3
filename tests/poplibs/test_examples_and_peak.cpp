// The mlp_forward and matmul_chain examples at several sizes (its own host check decides the exit
// status), and the cycle model of a large HALF matMul against the Mk2's published peak.

#include "PoplibsHarness.hpp"
#include "common/CycleEstimates.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <iostream>
#include <poplin/MatMul.hpp>
#include <sys/wait.h>

namespace {

std::pair<int, std::string> runCommand(const std::string& cmd) {
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

TEST_CASE("mlp_forward matches its host reference for several sizes", "[examples]") {
    // tiles, batch, inputs, hidden, classes: defaults, odd sizes, more tiles than work.
    for (const char* args : {"", "7 5 33 17 3", "256 2 1000 4 2", "3 31 8 40 7"}) {
        const auto [status, output] = runCommand(std::string(MLP_FORWARD_EXAMPLE) + " " + args);
        INFO(args << ": " << output);
        CHECK(status == 0);
        CHECK(output.find("\"ok\":true") != std::string::npos);
    }
}

TEST_CASE("transformer_block matches its float host reference within the HALF tolerance",
          "[examples]") {
    // tiles, seq, d_model, heads, ff: small, sizes that divide nothing evenly, the full-IPU
    // default (seq 256, d_model 512, 8 heads, ff 2048 on 1472 tiles).
    for (const char* args : {"64 32 64 4 128", "100 37 60 3 90", ""}) {
        const auto [status, output] =
            runCommand(std::string(TRANSFORMER_BLOCK_EXAMPLE) + " " + args);
        INFO(args << ": " << output);
        CHECK(status == 0);
        CHECK(output.find("\"ok\":true") != std::string::npos);
    }
    // Bad arguments are a clear usage error, not a crash.
    const auto [status, output] = runCommand(std::string(TRANSFORMER_BLOCK_EXAMPLE) + " 64 x");
    CHECK(status == 2);
    CHECK(output.find("must be a positive integer") != std::string::npos);
}

TEST_CASE("logistic_regression learns and matches host training", "[examples]") {
    // tiles, samples, features, classes, epochs: defaults, odd sizes, one tile.
    for (const char* args : {"", "7 333 13 5 10", "1 60 3 3 8"}) {
        const auto [status, output] =
            runCommand(std::string(LOGISTIC_REGRESSION_EXAMPLE) + " " + args);
        INFO(args << ": " << output);
        CHECK(status == 0);
        CHECK(output.find("\"ok\":true") != std::string::npos);
    }
    const auto [status, output] = runCommand(std::string(LOGISTIC_REGRESSION_EXAMPLE) + " 4 -3");
    CHECK(status == 2);
    CHECK(output.find("must be a positive integer") != std::string::npos);
}

TEST_CASE("mlp_training's loss falls over Repeat-ed FIFO batches and matches the host",
          "[examples]") {
    // tiles, batch, batches, hidden, epochs: defaults, odd sizes, one tile, more tiles than work.
    for (const char* args : {"", "5 17 3 9 10", "1 8 4 16 15", "300 50 2 40 8"}) {
        const auto [status, output] = runCommand(std::string(MLP_TRAINING_EXAMPLE) + " " + args);
        INFO(args << ": " << output);
        CHECK(status == 0);
        CHECK(output.find("\"ok\":true") != std::string::npos);
    }
    const auto [status, output] = runCommand(std::string(MLP_TRAINING_EXAMPLE) + " 4 4 0");
    CHECK(status == 2);
    CHECK(output.find("must be a positive integer") != std::string::npos);
}

TEST_CASE("cnn_training's loss falls: conv, batch norm, ReLU, pooling, fully connected, SGD",
          "[examples]") {
    // tiles, batch, batches, epochs, size: defaults, one tile, more tiles, larger images.
    for (const char* args : {"", "1 8 2 8 8", "64 8 4 6 12"}) {
        const auto [status, output] = runCommand(std::string(CNN_TRAINING_EXAMPLE) + " " + args);
        INFO(args << ": " << output);
        CHECK(status == 0);
        CHECK(output.find("\"ok\":true") != std::string::npos);
    }
    const auto [status, output] = runCommand(std::string(CNN_TRAINING_EXAMPLE) + " 4 4 2 2 5");
    CHECK(status == 2);
    CHECK(output.find("SIZE even") != std::string::npos);
}

TEST_CASE("matmul_chain is exact for several shapes and tile counts", "[examples]") {
    // tiles, M, K, N, P: defaults (a few hundred rows), a deep reduction over a full IPU, 1x1.
    for (const char* args : {"", "1472 7 3000 5 2", "3 1 1 1 1", "16 33 17 65 9"}) {
        const auto [status, output] = runCommand(std::string(MATMUL_CHAIN_EXAMPLE) + " " + args);
        INFO(args << ": " << output);
        CHECK(status == 0);
        CHECK(output.find("\"wrong_elements\":0}") != std::string::npos);
    }
}

TEST_CASE("a large HALF matMul stays under the Mk2 peak and reaches a plausible fraction of it",
          "[performance]") {
    // 512 x 512 x 512 on one Mk2 IPU (1472 tiles).
    const std::size_t n = 512;
    poplibstest::Harness h(1472);
    auto a = poplin::createMatMulInputLHS(h.graph, poplar::HALF, {n, n}, {n, n}, "A");
    auto b = poplin::createMatMulInputRHS(h.graph, poplar::HALF, {n, n}, {n, n}, "B");
    h.addInput(a, poplibstest::values(n * n, -1, 1, 1), "a");
    h.addInput(b, poplibstest::values(n * n, -1, 1, 2), "b");
    h.output(poplin::matMul(h.graph, a, b, h.prog, "mm"), "c");
    poplar::Engine engine(h.graph, h.prog);
    engine.load(h.device());
    engine.run(0);
    const auto& run = engine.executionRecords().runs.at(0);
    std::uint64_t computeCycles = 0;
    const auto& records = engine.compileRecords();
    for (const auto& s : run.steps)
        if (records.steps.at(s.step).kind == tilescope::capture::StepKind::OnTileExecute) {
            std::uint64_t most = 0;
            for (auto c : s.perTileCycles())
                most = std::max(most, c);
            computeCycles += most;
        }
    const double flops = 2.0 * n * n * n;
    const double peakPerCycle =
        1472.0 * double(tilescope::poplibs::cycles::peakFlopsPerTileCycle(poplar::HALF));
    const double wholeRun = flops / (double(run.totalCycles) * peakPerCycle);
    const double computeOnly = flops / (double(computeCycles) * peakPerCycle);
    std::cout << "{\"matmul_half_512\":{\"total_cycles\":" << run.totalCycles
              << ",\"compute_cycles\":" << computeCycles << ",\"fraction_of_peak\":" << wholeRun
              << ",\"compute_fraction_of_peak\":" << computeOnly << "}}\n";
    CHECK(computeOnly <= 1.0);
    CHECK(wholeRun <= 1.0);
    CHECK(wholeRun >= 0.05);
}
