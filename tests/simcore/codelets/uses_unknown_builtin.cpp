// Calls an IPU builtin the simulator does not provide: the compile must fail naming it.
#include <poplar/Vertex.hpp>
#include <ipu_intrinsics>

using namespace poplar;

class Ticks : public Vertex {
public:
    Output<unsigned> out;
    bool compute() {
        *out = __builtin_ipu_get_scount_l();
        return true;
    }
};
