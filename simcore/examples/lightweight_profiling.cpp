// Lightweight profiling of a pipelined program: two stages on two IPUs wrapped in Block programs
// (profiler.blocks.filter), a data-dependent vertex wrapped by profiler.programs.filter, and the
// input stream copies recorded under debug.instrumentExternalExchange. Prints each block of the
// first IPU as engine.getReport() reads it. Run with TILESCOPE_SIMULATED_IPUS=2 (or more):
//     lightweight_profiling codelets/profiling_codelets.cpp [REPORT_DIR]
// With REPORT_DIR, autoReport writes profile.pop there (the app shows the blocks in the
// Execution Trace's Blocks mode).
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <pva/pva.hpp>

#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: lightweight_profiling CODELETS [REPORT_DIR]\n";
        return 2;
    }
    auto devices = DeviceManager::createDeviceManager().getDevices(TargetType::IPU, 2);
    if (devices.empty() || !devices[0].attach()) {
        std::cerr << "lightweight_profiling: no pair of IPUs to attach\n";
        return 1;
    }
    const unsigned tilesPerIpu = 16;
    Device device = devices[0].createVirtualDevice(tilesPerIpu);
    Graph g(device.getTarget());
    g.addCodelets(argv[1]);
    auto operation = [&](const std::string& name, unsigned tile, unsigned n) {
        Tensor t = g.addVariable(FLOAT, {n}, name + "/data");
        g.setTileMapping(t, tile);
        ComputeSet cs = g.addComputeSet(name);
        g.setTileMapping(g.addVertex(cs, "AddOne", {{"data", t}}), tile);
        return Execute(cs, name);
    };
    Tensor iterations = g.addVariable(UNSIGNED_INT, {}, "iterations");
    g.setTileMapping(iterations, tilesPerIpu);
    g.setInitialValue(iterations, 1u);
    ComputeSet growing = g.addComputeSet("growing");
    g.setTileMapping(g.addVertex(growing, "GrowingWork", {{"iterations", iterations}}),
                     tilesPerIpu);
    Tensor in = g.addVariable(FLOAT, {64}, "in");
    g.setTileMapping(in, 3);
    auto stream = g.addHostToDeviceFIFO("in", FLOAT, 64);

    Sequence stage1({Copy(stream, in), Block(operation("stage1/op1", 0, 64), "op1"),
                     Block(operation("stage1/op2", 0, 128), "op2")});
    Sequence stage2({Block(operation("stage2/op1", tilesPerIpu, 256), "op1"), Execute(growing)});
    Repeat loop(6, Sequence{Block(stage1, "stage1"), Block(stage2, "stage2")});

    OptionFlags options{{"profiler.blocks.filter", "stage.|op2"},
                        {"profiler.programs.filter", "growing"},
                        {"debug.instrumentExternalExchange", "true"}};
    if (argc > 2) {
        options.set("autoReport.all", "true");
        options.set("autoReport.directory", argv[2]);
    }
    Engine engine(g, loop, options);
    std::vector<float> host(64, 1.0f);
    engine.connectStream("in", host.data(), host.data() + host.size());
    engine.load(device);
    engine.run();

    const auto report = engine.getReport();
    for (const auto& block : report.execution().blocks(0))
        std::cout << block.program()->name() << ": " << (block.cyclesTo() - block.cyclesFrom())
                  << " (" << block.cyclesFrom() << " - " << block.cyclesTo() << ")\n";
    return 0;
}
