// Vertices of the lightweight-profiling tests: a fixed amount of work per element, and a vertex
// whose cost grows with its data (as a loop over data does on the IPU), reported to the
// simulator with tilescope_vertex_add_cycles.
#include <poplar/Vertex.hpp>
#include <tilescope/sim/VertexCycles.hpp>

using namespace poplar;

class AddOne : public Vertex {
    InOut<Vector<float>> data;

public:
    bool compute() {
        for (auto& x : data)
            x += 1.0f;
        return true;
    }
};

// Runs `iterations` rounds of 100 tile cycles, then does one more next time.
class GrowingWork : public Vertex {
    InOut<unsigned> iterations;

public:
    bool compute() {
        tilescope_vertex_add_cycles(100ull * iterations);
        iterations += 1;
        return true;
    }
};
