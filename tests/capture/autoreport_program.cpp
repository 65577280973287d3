// A small Poplar-style program for the capture tests: 2 IPUs x 8 tiles, a host-written input, a
// not-always-live temporary and a compute set, run several times. Profiled only through
// POPLAR_ENGINE_OPTIONS, like any user program.
//
//   autoreport_program CODELETS [--runs N] [--engines N] [--handshake DIR] [--simulated 1]
//                      [--function 1]
//
// With --function 1 the compute set runs through a Graph::addFunction called twice (same results),
// after another function that is never called.
// With --simulated 1 it runs on simulated IPU hardware (TILESCOPE_SIMULATED_IPUS): the first free
// 2-IPU device from the DeviceManager, cut down to 8 tiles per IPU with createVirtualDevice.
// With --handshake, after run i it creates DIR/ran<i> and waits for DIR/go<i>, so that a test can
// open the report from another process between runs. Poplar errors are printed as one line and
// give exit status 1.

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <string>
#include <thread>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

void waitFor(const std::filesystem::path& file) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!std::filesystem::exists(file)) {
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error("timed out waiting for " + file.string());
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

int runEngine(Device& device, const char* codelets, int runs, const std::string& handshake,
              bool function) {
    Graph graph(device.getTarget());
    graph.addCodelets(codelets);
    const unsigned tiles = device.getTarget().getNumTiles();
    constexpr unsigned perTile = 16;
    Tensor input = graph.addVariable(FLOAT, {tiles, perTile}, "input");
    Tensor scratch = graph.addVariable(FLOAT, {tiles, perTile}, "scratch");
    Tensor sums = graph.addVariable(FLOAT, {tiles}, "sums");
    for (unsigned t = 0; t < tiles; ++t) {
        graph.setTileMapping(input[t], t);
        graph.setTileMapping(scratch[t], (t + 1) % tiles); // the copy is an exchange
        graph.setTileMapping(sums[t], t);
    }
    ComputeSet cs = graph.addComputeSet("reduce");
    for (unsigned t = 0; t < tiles; ++t) {
        VertexRef v = graph.addVertex(cs, "SumVertex", {{"in", scratch[t]}, {"out", sums[t]}});
        graph.setTileMapping(v, (t + 1) % tiles);
    }
    Sequence prog{Copy(input, scratch)};
    if (function) {
        // Never called: the report lists called functions only, so `reduce` is its first.
        graph.addFunction(Sequence());
        const Function reduce = graph.addFunction(Execute(cs));
        prog.add(Call(reduce));
        prog.add(Call(reduce));
    } else {
        prog.add(Execute(cs));
    }
    graph.createHostWrite("input", input);
    graph.createHostRead("sums", sums);

    Engine engine(graph, prog);
    engine.load(device);
    std::vector<float> host(tiles * perTile, 1.0f);
    std::vector<float> out(tiles);
    for (int r = 0; r < runs; ++r) {
        engine.writeTensor("input", host.data(), host.data() + host.size());
        engine.run(0);
        engine.readTensor("sums", out.data(), out.data() + out.size());
        for (float s : out)
            if (s != static_cast<float>(perTile * (r + 1))) {
                std::cerr << "wrong result in run " << r << "\n";
                return 1;
            }
        for (auto& h : host)
            h += 1.0f;
        if (!handshake.empty()) {
            std::ofstream(std::filesystem::path(handshake) / ("ran" + std::to_string(r)));
            waitFor(std::filesystem::path(handshake) / ("go" + std::to_string(r)));
        }
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: autoreport_program CODELETS [--runs N] [--engines N] "
                     "[--handshake DIR] [--simulated 1] [--function 1]\n";
        return 2;
    }
    int runs = 1, engines = 1;
    bool simulated = false, function = false;
    std::string handshake;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--runs")
            runs = std::atoi(argv[i + 1]);
        else if (flag == "--engines")
            engines = std::atoi(argv[i + 1]);
        else if (flag == "--handshake")
            handshake = argv[i + 1];
        else if (flag == "--simulated")
            simulated = std::string(argv[i + 1]) == "1";
        else if (flag == "--function")
            function = std::string(argv[i + 1]) == "1";
    }
    try {
        Device device;
        if (simulated) {
            auto devices = DeviceManager::createDeviceManager().getDevices(TargetType::IPU, 2);
            auto it =
                std::find_if(devices.begin(), devices.end(), [](Device& d) { return d.attach(); });
            if (it == devices.end()) {
                std::cerr << "autoreport_program: no free 2-IPU device\n";
                return 1;
            }
            device = it->createVirtualDevice(8);
        } else {
            IPUModel model("ipu2");
            model.numIPUs = 2;
            model.tilesPerIPU = 8;
            device = model.createDevice();
        }
        for (int e = 0; e < engines; ++e)
            if (int rc = runEngine(device, argv[1], runs, handshake, function))
                return rc;
    } catch (const poplar_error& e) {
        std::cerr << "autoreport_program: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
