// Codelets of the matrix-vector example: one dot product per output element.

#include <poplar/Vertex.hpp>

using namespace poplar;

class DotProduct : public Vertex {
public:
    Input<Vector<float>> row;
    Input<Vector<float>> x;
    Output<float> y;

    bool compute() {
        float sum = 0;
        for (unsigned i = 0; i < row.size(); ++i)
            sum += row[i] * x[i];
        *y = sum;
        return true;
    }
};
