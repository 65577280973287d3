// out = in * scale + bias, where scale and bias may be constants given in addVertex's list.
#include <poplar/Vertex.hpp>

class ScaleBias : public poplar::Vertex {
public:
    poplar::Input<float> in;
    poplar::Input<float> scale;
    poplar::Input<unsigned> bias;
    poplar::Output<float> out;
    bool compute() {
        *out = *in * *scale + static_cast<float>(*bias);
        return true;
    }
};
