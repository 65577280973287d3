// Blur codelets in the style of image-processing programs for the IPU: a template vertex with an
// explicit instantiation, ONE_PTR vectors, and a float2 variant using the vector type's arithmetic.
#include <poplar/Vertex.hpp>
#include <ipudef.h>
#include <math.h>
#include <print.h>

using namespace poplar;

// out[i] = (left + 2 * centre + right) / 4 over a row with one halo cell at each end.
template <typename T> class BlurRow : public Vertex {
public:
  Input<Vector<T, VectorLayout::ONE_PTR, 8>> in;
  Output<Vector<T, VectorLayout::ONE_PTR, 8>> out;
  unsigned width;

  bool compute() {
#pragma unroll 2
    for (unsigned i = 0; i < width; ++i)
      out[i] = (in[i] + 2 * in[i + 1] + in[i + 2]) / 4;
    return true;
  }
};

template class BlurRow<float>;

// The same on pairs of rows at once: float2 lanes are two rows' cells.
class BlurRowPairs : public Vertex {
public:
  Input<Vector<float, VectorLayout::ONE_PTR, 8>> in;
  Output<Vector<float, VectorLayout::ONE_PTR, 8>> out;
  unsigned width;

  bool compute() {
    const float2 *pairs = reinterpret_cast<const float2 *>(&in[0]);
    float2 *result = reinterpret_cast<float2 *>(&out[0]);
    for (unsigned i = 0; i < width; ++i)
      result[i] = 0.25f * (pairs[i] + pairs[i + 2]) + 0.5f * pairs[i + 1];
    return true;
  }
};
