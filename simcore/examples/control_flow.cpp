// Control flow that follows tensor values: Repeat, RepeatWhileTrue, If, Switch and Call.
// Usage: control_flow <control_codelets.cpp>

#include <exception>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

static int run(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " <codelet file>\n";
        return 2;
    }
    Device device = IPUModel().createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets(argv[1]);

    Tensor counter = graph.addVariable(INT, {}, "counter");
    Tensor limit = graph.addConstant<int>(INT, {}, 25, "limit");
    Tensor below = graph.addVariable(BOOL, {}, "below");
    Tensor history = graph.addVariable(INT, {5}, "history");
    Tensor zero = graph.addConstant<int>(INT, {}, 0, "zero");
    for (const Tensor& t : {counter, limit, below, history, zero})
        graph.setTileMapping(t, 0);

    ComputeSet inc = graph.addComputeSet("increment");
    VertexRef incV = graph.addVertex(inc, "Increment", {{"counter", counter}});
    graph.setInitialValue(incV["step"], 3);
    graph.setTileMapping(incV, 0);

    ComputeSet test = graph.addComputeSet("test");
    VertexRef testV = graph.addVertex(test, "LessThan",
                                      {{"value", counter}, {"limit", limit}, {"result", below}});
    graph.setTileMapping(testV, 0);

    ComputeSet record = graph.addComputeSet("record");
    VertexRef recV =
        graph.addVertex(record, "Accumulate", {{"value", counter}, {"history", history}});
    graph.setTileMapping(recV, 1);

    Function step = graph.addFunction(Sequence{Execute(inc), Execute(record)});

    Sequence prog;
    prog.add(Copy(zero, counter));
    prog.add(Copy(zero.expand({0}).broadcast(5, 0), history));
    // Four steps of 3: counter = 12.
    prog.add(Repeat(4, Call(step)));
    prog.add(PrintTensor("after Repeat", counter));
    // Step while counter < 25: 15, 18, 21, 24, 27.
    prog.add(RepeatWhileTrue(Execute(test), below, Call(step)));
    prog.add(PrintTensor("after RepeatWhileTrue", counter));
    prog.add(PrintTensor("history", history));
    // below is false now: the else branch runs.
    prog.add(If(below, PrintTensor("branch", limit), PrintTensor("branch", counter)));
    // counter % 3 == 0 picks a case by value.
    Tensor which = graph.addVariable(INT, {}, "which");
    graph.setTileMapping(which, 0);
    graph.setInitialValue(which, 2);
    prog.add(Switch(which, {{1, PrintTensor("case", limit)}, {2, PrintTensor("case", history)}},
                    PrintTensor("default", zero)));

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);
    return 0;
}

// Bad input (a missing codelet file, an unreadable option) ends with the error's message and status
// 1, not std::terminate.
int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "control_flow: " << e.what() << "\n";
        return 1;
    }
}
