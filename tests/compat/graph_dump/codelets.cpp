#include <poplar/Vertex.hpp>

using namespace poplar;

// Scales a vector in place by a constant set on the vertex.
class ScaleVertex : public Vertex {
public:
    InOut<Vector<float>> data;
    float factor;

    bool compute() {
        for (unsigned i = 0; i < data.size(); ++i)
            data[i] *= factor;
        return true;
    }
};
