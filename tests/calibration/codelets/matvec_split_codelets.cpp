// Vertices of the split matrix-vector product (TutorialPrograms.cpp, after Poplar tutorial 6):
// a dot product of a row segment with the matching segment of the vector, and the sum of a
// row's partial results. Written for this repository; the estimates are set by the host code.
#include <poplar/Vertex.hpp>

class SegmentDotProduct : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<float>> row;
    poplar::Input<poplar::Vector<float>> x;
    poplar::Output<float> partial;

    bool compute() {
        float acc = 0.0f;
        for (unsigned i = 0; i < row.size(); ++i)
            acc += row[i] * x[i];
        *partial = acc;
        return true;
    }
};

class PartialSum : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<float>> partials;
    poplar::Output<float> sum;

    bool compute() {
        float acc = 0.0f;
        for (unsigned i = 0; i < partials.size(); ++i)
            acc += partials[i];
        *sum = acc;
        return true;
    }
};
