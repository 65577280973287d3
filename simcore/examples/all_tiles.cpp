// Every tile of a Mk2 IPU busy: one vertex per tile in each of 10 compute sets, each adding its
// neighbour's value to its own. Prints compile and run times as JSON.
// Usage: all_tiles <basic_codelets.cpp> [hostThreads]

#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <tilescope/capture/ProfileRecords.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static int run(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " <basic_codelets.cpp> [hostThreads]\n";
        return 2;
    }
    const std::string threads = argc > 2 ? argv[2] : "0";
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    Device device = IPUModel("ipu2").createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets(argv[1]);
    const unsigned tiles = device.getTarget().getNumTiles();
    constexpr unsigned computeSets = 10;
    constexpr unsigned perTile = 64;

    Tensor data = graph.addVariable(FLOAT, {tiles, perTile}, "data");
    Tensor sums = graph.addVariable(FLOAT, {computeSets, tiles}, "sums");
    for (unsigned t = 0; t < tiles; ++t) {
        graph.setTileMapping(data[t], t);
        for (unsigned c = 0; c < computeSets; ++c)
            graph.setTileMapping(sums[c][t], t);
    }
    Sequence prog;
    for (unsigned c = 0; c < computeSets; ++c) {
        ComputeSet cs = graph.addComputeSet("sum" + std::to_string(c));
        for (unsigned t = 0; t < tiles; ++t) {
            // Compute set c reads the row of tile t + c: all but c = 0 need an exchange.
            VertexRef v = graph.addVertex(cs, "SumVertex",
                                          {{"in", data[(t + c) % tiles]}, {"out", sums[c][t]}});
            graph.setTileMapping(v, t);
        }
        prog.add(Execute(cs));
    }
    graph.createHostWrite("data", data);
    graph.createHostRead("sums", sums);
    const auto t1 = Clock::now();
    Engine engine(graph, prog, {{"tilescope.hostThreads", threads}});
    const auto t2 = Clock::now();
    engine.load(device);
    std::vector<float> host(tiles * perTile);
    for (std::size_t i = 0; i < host.size(); ++i)
        host[i] = static_cast<float>(i % 7);
    engine.writeTensor("data", host.data(), host.data() + host.size());
    engine.run(0);
    const auto t3 = Clock::now();
    std::vector<float> out(computeSets * tiles);
    engine.readTensor("sums", out.data(), out.data() + out.size());
    bool ok = true;
    for (unsigned c = 0; c < computeSets; ++c)
        for (unsigned t = 0; t < tiles; ++t) {
            float expected = 0;
            const unsigned src = (t + c) % tiles;
            for (unsigned i = 0; i < perTile; ++i)
                expected += static_cast<float>((src * perTile + i) % 7);
            ok = ok && out[c * tiles + t] == expected;
        }
    auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
    std::cout << "{\"tiles\": " << tiles << ", \"computeSets\": " << computeSets
              << ", \"vertices\": " << tiles * computeSets << ", \"hostThreads\": \"" << threads
              << "\", \"buildSeconds\": " << secs(t0, t1)
              << ", \"compileSeconds\": " << secs(t1, t2)
              << ", \"loadAndRunSeconds\": " << secs(t2, t3)
              << ", \"totalCycles\": " << engine.executionRecords().runs.back().totalCycles
              << ", \"correct\": " << (ok ? "true" : "false") << "}\n";
    return ok ? 0 : 1;
}

// Bad input (a missing codelet file, an unreadable option) ends with the error's message and status
// 1, not std::terminate.
int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "all_tiles: " << e.what() << "\n";
        return 1;
    }
}
