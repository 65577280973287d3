// out = in * scale + bias, scale and bias given as constants in addVertex's list (test_sdk_behaviours).
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
