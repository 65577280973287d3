// Codelets written the way hand-tuned IPU programs often are: vertex state in `const` fields
// (hence the declared, never-defined constructor: the IPU never constructs a vertex) and the rows
// a worker reads as a list of SPAN vectors.
#include <poplar/Vertex.hpp>

using namespace poplar;

class SmoothRows : public Vertex {
public:
  SmoothRows();

  Vector<Input<Vector<float, VectorLayout::SPAN, 4, false>>> in;
  Vector<Output<Vector<float, VectorLayout::SPAN, 4, false>>> out;
  const unsigned rows;
  const unsigned width;
  const float centre;

  bool compute() {
    const float side = (1.0f - centre) / 4;
    for (unsigned r = 1; r <= rows; ++r)
      for (unsigned c = 1; c <= width; ++c)
        out[r - 1][c - 1] = centre * in[r][c] + side * (in[r - 1][c] + in[r + 1][c] +
                                                         in[r][c - 1] + in[r][c + 1]);
    return true;
  }
};
