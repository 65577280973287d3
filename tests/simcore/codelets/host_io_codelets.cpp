// A vertex with scalar state set from addVertex's connection list.
#include <poplar/Vertex.hpp>

using namespace poplar;

class AxpyN : public Vertex {
public:
    Input<Vector<float>> in;
    Output<Vector<float>> out;
    unsigned n;
    float x;

    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i)
            out[i] = in[i] * x + static_cast<float>(n);
        return true;
    }
};
