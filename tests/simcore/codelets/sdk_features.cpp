// Codelet features of SDK programs: a supervisor vertex with the supervisor attribute and private
// fields, class templates registered through explicit instantiations, operator-> on vector
// fields, flags (-I, -D), the IPU compiler's macros and the codelet-side headers.

#include <poplar/Vertex.hpp>
#include <print.h>
#include <ipudef.h>
#include <ipu_memory_intrinsics>
#include <ipu_vector_math>

#include "fill_scale.hpp"

#ifndef __POPC__
#error "codelets are compiled with __POPC__"
#endif
#ifndef __IPU__
#error "codelets are compiled with __IPU__"
#endif
#ifndef FILL_OFFSET
#error "the test passes -DFILL_OFFSET=..."
#endif

using namespace poplar;

// Counts its runs; fields are private, as in the SDK's examples (class members default private).
class CountRuns : public SupervisorVertex {
    InOut<unsigned> runs;

public:
    __attribute__((target("supervisor"))) bool compute() {
        runs += 1;
        return true;
    }
};

// out[i] = value * kFillScale + FILL_OFFSET + the architecture version.
template <typename T> class Fill : public Vertex {
public:
    Output<Vector<T>> out;
    T value;

    bool compute() {
        for (unsigned i = 0; i < out->size(); ++i)
            out[i] = static_cast<T>(value * kFillScale + FILL_OFFSET + __IPU_ARCH_VERSION__);
        return true;
    }
};

template class Fill<float>;
template class Fill<unsigned>;

namespace maths {
// out = |in| + sqrt(|in|) over half4 lanes, then printf'd for element 0. The constraint attribute
// means nothing on the host and is accepted quietly.
class [[poplar::constraint("elem(*in) != elem(*out)")]] RootAbs : public Vertex {
private:
    Input<Vector<half, VectorLayout::SPAN, 8>> in;
    Output<Vector<half, VectorLayout::SPAN, 8>> out;

public:
    bool compute() {
        const half4* in4 = reinterpret_cast<const half4*>(&in[0]);
        half4* out4 = reinterpret_cast<half4*>(&out[0]);
        for (unsigned i = 0; i < in.size() / 4; ++i) {
            const half4 a = ipu::fabs(ipu::load_postinc(&in4, 1));
            ipu::store_postinc(&out4, a + ipu::sqrt(a), 1);
        }
        printf("RootAbs out[0]=%g\n", static_cast<double>(float(out[0])));
        return true;
    }
};
} // namespace maths
