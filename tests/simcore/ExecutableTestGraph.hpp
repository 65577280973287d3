#pragma once
// The graph the executable tests compile, serialise and run: a runtime codelet with state and a
// perf estimator, PopLibs operations (map, reduce), a function called twice, a repeat loop, data
// streams and host handles. Shared by test_executable.cpp and the separate-process runner.

#include "ExecutableTestRun.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduction.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <string>
#include <vector>

namespace exectest {

struct Built {
    poplar::Graph graph;
    std::vector<poplar::program::Program> programs;
};

/// `withFunction`: bump x through a Graph::addFunction called twice (else two Executes; same
/// results).
inline Built buildGraph(const std::string& codeletFile, bool withFunction = true) {
    using namespace poplar;
    using namespace poplar::program;
    Built b{Graph(Target::createIPUTarget(1, 8, "ipu2")), {}};
    Graph& g = b.graph;
    g.addCodelets(codeletFile);
    popops::addCodelets(g);
    g.registerPerfEstimator(
        "AddOne", [](const VertexIntrospector&, const Target&) { return VertexPerfEstimate(321); });

    Tensor x = g.addVariable(FLOAT, {8}, "x");
    poputil::mapTensorLinearly(g, x);
    Tensor bias = g.addConstant<float>(FLOAT, {8}, {0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4}, "bias");
    poputil::mapTensorLinearly(g, bias);
    Tensor ints = g.addVariable(INT, {4}, "ints");
    g.setTileMapping(ints, 3);
    Tensor scaled = g.addVariable(INT, {4}, "scaled");
    g.setTileMapping(scaled, 5);
    g.setInitialValue(ints, ArrayRef<int>({1, 2, 3, 4}));

    ComputeSet addOne = g.addComputeSet("addOne");
    for (unsigned i = 0; i < 2; ++i) {
        VertexRef v = g.addVertex(addOne, "AddOne", {{"data", x.slice(i * 4, i * 4 + 4)}});
        g.setTileMapping(v, i);
    }
    ComputeSet scale = g.addComputeSet("scale");
    VertexRef sv = g.addVertex(scale, "test::ScaledCopy", {{"in", ints}, {"out", scaled}});
    g.setInitialValue(sv["scale"], 3);
    g.setInitialValue(sv["offset"], -1);
    g.setTileMapping(sv, 4);

    DataStream in = g.addHostToDeviceFIFO("in", FLOAT, 8);
    DataStream out = g.addDeviceToHostFIFO("out", FLOAT, 8);
    g.createHostWrite("ints", ints);
    g.createHostRead("scaled", scaled);

    Program bump = Execute(addOne);
    if (withFunction)
        bump = Call(g.addFunction(bump));
    Sequence main({Copy(in, x), bump, Repeat(2, Execute(addOne)), bump});
    Tensor y = popops::map(g, popops::expr::_1 * popops::expr::_2 + 1.0f, {x, bias}, main);
    Tensor sum = popops::reduce(g, y, FLOAT, {0}, popops::Operation::ADD, main);
    g.createHostRead("sum", sum);
    main.add(Copy(y, out));
    main.add(Execute(scale));
    b.programs = {main, Sequence({Execute(scale)})};
    return b;
}

} // namespace exectest
