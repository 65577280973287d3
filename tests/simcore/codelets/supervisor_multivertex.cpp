// A supervisor vertex cannot also run on the workers: registering it must fail to compile.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Both : public SupervisorVertex, public MultiVertex {
public:
    InOut<int> x;
    bool compute(unsigned) { return true; }
};
