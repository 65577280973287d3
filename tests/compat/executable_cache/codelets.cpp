// A codelet compiled when the graph is built; the saved executable carries it compiled.
#include <poplar/Vertex.hpp>

using namespace poplar;

class SquareVertex : public Vertex {
public:
    Input<Vector<float>> in;
    Output<Vector<float>> out;

    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i)
            out[i] = in[i] * in[i];
        return true;
    }
};
