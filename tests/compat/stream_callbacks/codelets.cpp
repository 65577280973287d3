#include <poplar/Vertex.hpp>

using namespace poplar;

// out = in * scale + bias; `scale` and `bias` are set in addVertex's connection list.
class ScaleBias : public Vertex {
public:
  Input<Vector<int>> in;
  Output<Vector<int>> out;
  int scale;
  unsigned bias;

  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] * scale + static_cast<int>(bias);
    return true;
  }
};
