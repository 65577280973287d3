// One file holds both the vertex (seen by the codelet compile, which defines __POPC__) and the
// host program, which compiles that same file as codelets with flags.
#ifdef __POPC__

#include "scale.hpp"

#include <poplar/Vertex.hpp>

using namespace poplar;

class Scale : public Vertex {
    Input<Vector<int>> in;
    Output<Vector<int>> out;

public:
    bool compute() {
        for (unsigned i = 0; i < in->size(); ++i)
            out[i] = shifted(in[i]) * N;
        return true;
    }
};

// As the SDK's profiling examples write it: a supervisor vertex with a private field.
class CountIterations : public SupervisorVertex {
    poplar::InOut<unsigned> iterations;

public:
    __attribute__((target("supervisor"))) bool compute() {
        iterations += 1;
        return true;
    }
};

#else

#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

int main() {
    IPUModel ipuModel;
    Device device = ipuModel.createDevice();
    Graph graph(device.getTarget());

    // A flag the codelet compiler does not support is refused, naming it.
    try {
        graph.addCodelets(__FILE__, CodeletFileType::Auto, "-O3 -fopenmp");
        std::cout << "-fopenmp was accepted\n";
    } catch (const graph_program_compilation_error& e) {
        const std::string what = e.what();
        std::cout << (what.find("'-fopenmp'") != std::string::npos ? "-fopenmp refused"
                                                                   : "refused without the flag")
                  << "\n";
    }
    graph.addCodelets(__FILE__, CodeletFileType::Auto, "-O3 -I codelets -DN=4");

    Tensor in = graph.addVariable(INT, {4}, "in");
    Tensor out = graph.addVariable(INT, {4}, "out");
    graph.setTileMapping(in, 0);
    graph.setTileMapping(out, 0);
    ComputeSet cs = graph.addComputeSet("scale");
    VertexRef v = graph.addVertex(cs, "Scale", {{"in", in}, {"out", out}});
    graph.setTileMapping(v, 0);
    graph.createHostWrite("in", in);
    graph.createHostRead("out", out);

    Tensor iterations = graph.addVariable(UNSIGNED_INT, {}, "iterations");
    graph.setTileMapping(iterations, 1);
    graph.setInitialValue(iterations, 1u);
    ComputeSet count = graph.addComputeSet("count");
    VertexRef counter = graph.addVertex(count, "CountIterations");
    graph.connect(counter["iterations"], iterations);
    graph.setTileMapping(counter, 1);
    graph.createHostRead("iterations", iterations);

    Engine engine(graph, Sequence({Execute(cs), Repeat(5, Execute(count))}));
    engine.load(device);
    std::vector<int> host = {0, 1, 2, 3};
    engine.writeTensor("in", host.data(), host.data() + host.size());
    engine.run(0);
    engine.readTensor("out", host.data(), host.data() + host.size());
    std::cout << "out:";
    for (int x : host)
        std::cout << " " << x;
    unsigned n = 0;
    engine.readTensor("iterations", &n, &n + 1);
    std::cout << std::endl << "iterations: " << n << std::endl;
    return 0;
}

#endif
