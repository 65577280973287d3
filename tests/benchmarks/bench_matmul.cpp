// tilescope-bench-matmul: a square matMul (default 1024 x 1024 x 1024) on one simulated Mk2 IPU
// (1,472 tiles) with FLOAT and with HALF inputs. For each type prints the host wall time of graph
// construction, Engine compilation and one run, the simulated cycles of the run, and the
// fraction of the Mk2 peak (62.5 TFLOPS FLOAT, 250 TFLOPS HALF) that the simulated cycles
// reach, as one JSON object. A few results are checked against the host so a fast but wrong
// simulator cannot pass.

#include "common/CycleEstimates.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <stdexcept>
#include <tilescope/capture/ProfileRecords.hpp> // Engine::executionRecords()
#include <vector>

using Clock = std::chrono::steady_clock;

namespace {

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

/// Small integers in [-4, 4]: exact in HALF, and products summed in float stay exact for the
/// sizes benchmarked, so the sampled check can be exact for FLOAT and within HALF rounding.
std::vector<float> smallIntegers(std::size_t n, unsigned seed) {
    std::vector<float> v(n);
    std::uint32_t s = seed * 2654435761u + 1u;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = float(int((s >> 8) % 9) - 4);
    }
    return v;
}

nlohmann::json runOne(const poplar::Type& type, std::size_t n, unsigned tiles) {
    const auto start = Clock::now();
    poplar::IPUModel model("ipu2");
    model.tilesPerIPU = tiles;
    poplar::Device device = model.createDevice();
    poplar::Graph graph(device.getTarget());
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    poplar::program::Sequence prog;
    poplar::Tensor a = poplin::createMatMulInputLHS(graph, type, {n, n}, {n, n}, "a");
    poplar::Tensor b = poplin::createMatMulInputRHS(graph, type, {n, n}, {n, n}, "b");
    // FLOAT output either way, so the check does not depend on HALF output rounding.
    poplar::Tensor c = poplin::matMul(graph, a, b, prog, poplar::FLOAT, "mm");
    graph.createHostWrite("a", a);
    graph.createHostWrite("b", b);
    graph.createHostRead("c", c);
    const double buildSeconds = secondsSince(start);

    const auto compileStart = Clock::now();
    poplar::Engine engine(graph, prog);
    engine.load(device);
    const double compileSeconds = secondsSince(compileStart);

    const auto av = smallIntegers(n * n, 1), bv = smallIntegers(n * n, 2);
    if (type == poplar::HALF) {
        std::vector<std::uint16_t> ah(av.size()), bh(bv.size());
        poplar::copyFloatToDeviceHalf(device.getTarget(), av.data(), ah.data(), av.size());
        poplar::copyFloatToDeviceHalf(device.getTarget(), bv.data(), bh.data(), bv.size());
        engine.writeTensor("a", ah.data(), ah.data() + ah.size());
        engine.writeTensor("b", bh.data(), bh.data() + bh.size());
    } else {
        engine.writeTensor("a", av.data(), av.data() + av.size());
        engine.writeTensor("b", bv.data(), bv.data() + bv.size());
    }
    const auto runStart = Clock::now();
    engine.run(0);
    const double runSeconds = secondsSince(runStart);
    std::vector<float> cv(n * n);
    engine.readTensor("c", cv.data(), cv.data() + cv.size());
    for (std::size_t k = 0; k < 64; ++k) {
        const std::size_t i = (k * 7919) % n, j = (k * 104729) % n;
        double want = 0;
        for (std::size_t p = 0; p < n; ++p)
            want += double(av[i * n + p]) * bv[p * n + j];
        if (std::abs(want - cv[i * n + j]) > 0.5)
            throw std::runtime_error("wrong result at (" + std::to_string(i) + ", " +
                                     std::to_string(j) + "): " + std::to_string(cv[i * n + j]) +
                                     " instead of " + std::to_string(want));
    }

    const std::uint64_t cycles = engine.executionRecords().runs.at(0).totalCycles;
    const double flops = 2.0 * double(n) * double(n) * double(n);
    const double peakPerCycle =
        double(tiles) * double(tilescope::poplibs::cycles::peakFlopsPerTileCycle(type));
    return {{"build_s", buildSeconds},
            {"compile_s", compileSeconds},
            {"run_s", runSeconds},
            {"wall_s", secondsSince(start)},
            {"simulated_cycles", cycles},
            {"fraction_of_peak", flops / (double(cycles) * peakPerCycle)}};
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"A square matMul on one simulated Mk2 IPU, FLOAT and HALF; prints JSON"};
    std::size_t n = 1024;
    unsigned tiles = 1472;
    app.add_option("--size", n, "M = K = N")->check(CLI::Range(1, 8192));
    app.add_option("--tiles", tiles, "tiles of the IPU")->check(CLI::Range(1, 1472));
    CLI11_PARSE(app, argc, argv);
    try {
        nlohmann::json out;
        out["size"] = n;
        out["tiles"] = tiles;
        out["float"] = runOne(poplar::FLOAT, n, tiles);
        out["half"] = runOne(poplar::HALF, n, tiles);
        out["float_wall_s"] = out["float"]["wall_s"];
        out["half_wall_s"] = out["half"]["wall_s"];
        out["half_fraction_of_peak"] = out["half"]["fraction_of_peak"];
        std::cout << out.dump() << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "tilescope-bench-matmul: " << e.what() << "\n";
        return 1;
    }
}
