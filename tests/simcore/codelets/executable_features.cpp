// Vertex kinds the executable round-trip tests store and load back: a SupervisorVertex and a
// template vertex with scalar state.
#include <poplar/Vertex.hpp>

using namespace poplar;

// Counts its runs on the supervisor context.
class CountRuns : public SupervisorVertex {
public:
    InOut<unsigned> runs;

    __attribute__((target("supervisor"))) bool compute() {
        runs += 1;
        return true;
    }
};

// out[i] = in[i] * factor, factor set from addVertex's connection list.
template <typename T> class ScaleBy : public Vertex {
public:
    Input<Vector<T>> in;
    Output<Vector<T>> out;
    T factor;

    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i)
            out[i] = in[i] * factor;
        return true;
    }
};

template class ScaleBy<float>;
