// Codelets in the shapes SDK programs write them: a supervisor vertex with a private field, a
// vertex class template with explicit instantiations, IPU vector types and ipu:: maths, printf.
#include <poplar/StackSizeDefs.hpp>
#include <poplar/Vertex.hpp>
#include <print.h>
#include <ipudef.h>
#include <ipu_vector_math>

#include "params.hpp"

using namespace poplar;

// Counts how many times its compute set ran.
class Counter : public SupervisorVertex {
    InOut<unsigned> count;

public:
    __attribute__((target("supervisor"))) bool compute() {
        count += 1;
        return true;
    }
};

// y = a * x + y + OFFSET
template <typename T> class Axpy : public Vertex {
public:
    Input<Vector<T>> x;
    InOut<Vector<T>> y;
    T a;

    bool compute() {
        for (unsigned i = 0; i < y->size(); ++i)
            y[i] = a * x[i] + y[i] + OFFSET;
        return true;
    }
};

template class Axpy<float>;
template class Axpy<int>;

DEF_STACK_USAGE(256, "__runCodelet_Norm");

// The Euclidean norm of its input, two lanes at a time.
class Norm : public Vertex {
    Input<Vector<float, VectorLayout::SPAN, 8>> in;
    Output<float> out;

public:
    bool compute() {
        const float2* v = reinterpret_cast<const float2*>(&in[0]);
        float2 acc = {0.0f, 0.0f};
        for (unsigned i = 0; i < in.size() / 2; ++i)
            acc += v[i] * v[i];
        *out = ipu::sqrt(acc[0] + acc[1]);
        printf("Norm of %u elements on ipu%d: %.1f\n", static_cast<unsigned>(in.size()),
               __IPU_ARCH_VERSION__, static_cast<double>(*out));
        return true;
    }
};
