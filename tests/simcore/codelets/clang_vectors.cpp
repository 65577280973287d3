// A codelet written for the IPU's Clang: ext_vector_type lanes named .x and .y.
#include <poplar/Vertex.hpp>

using namespace poplar;

class SwapPairs : public Vertex {
public:
    Input<Vector<float, VectorLayout::SPAN, 8>> in;
    Output<Vector<float, VectorLayout::SPAN, 8>> out;

    bool compute() {
        typedef float pair __attribute__((ext_vector_type(2)));
        const pair* src = reinterpret_cast<const pair*>(&in[0]);
        pair* dst = reinterpret_cast<pair*>(&out[0]);
        for (unsigned i = 0; i < in.size() / 2; ++i) {
            pair p = src[i];
            dst[i].x = p.y;
            dst[i].y = p.x;
        }
        return true;
    }
};
