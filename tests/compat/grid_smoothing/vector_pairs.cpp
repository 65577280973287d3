// A codelet for the IPU's Clang: ext_vector_type with lanes named .x and .y.
#include <poplar/Vertex.hpp>

class AddLanes : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float, poplar::VectorLayout::SPAN, 8>> in;
  poplar::Output<poplar::Vector<float>> out;

  bool compute() {
    typedef float lanes __attribute__((ext_vector_type(2)));
    const lanes *pairs = reinterpret_cast<const lanes *>(&in[0]);
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = pairs[i].x + pairs[i].y;
    return true;
  }
};
