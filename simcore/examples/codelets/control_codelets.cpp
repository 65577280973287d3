// Codelets of the control-flow example.

#include <poplar/Vertex.hpp>

using namespace poplar;

class Increment : public Vertex {
public:
    InOut<int> counter;
    int step = 1;

    bool compute() {
        *counter += step;
        return true;
    }
};

class LessThan : public Vertex {
public:
    Input<int> value;
    Input<int> limit;
    Output<bool> result;

    bool compute() {
        *result = *value < *limit;
        return true;
    }
};

class Accumulate : public Vertex {
public:
    Input<int> value;
    InOut<Vector<int>> history;

    bool compute() {
        for (unsigned i = history.size() - 1; i > 0; --i)
            history[i] = history[i - 1];
        history[0] = value;
        return true;
    }
};
