// Codelets in the style of hand-written IPU programs: `const` vertex state, a constructor that is
// declared and never defined (the IPU never constructs vertices), and rows as
// Vector<Input<Vector<float, SPAN, 4, false>>>.
#include <poplar/Vertex.hpp>

using namespace poplar;

class ScaledRowSums : public Vertex {
public:
    ScaledRowSums();

    Vector<Input<Vector<float, VectorLayout::SPAN, 4, false>>> rows;
    Output<Vector<float>> sums;
    const float scale;
    const unsigned skip;
    const int offset;

    bool compute() {
        for (unsigned r = 0; r < rows.size(); ++r) {
            float s = 0;
            for (unsigned i = skip; i < rows[r].size(); ++i)
                s += rows[r][i];
            sums[r] = scale * s + offset;
        }
        return true;
    }
};
