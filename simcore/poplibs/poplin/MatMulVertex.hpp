#pragma once
// The block matrix product vertex of poplin: out (rows x cols) = a (rows x depth) x b (depth x
// cols), all row-major, accumulated in float. A MultiVertex: worker w computes rows w, w+6, ...,
// as the AMP units of a tile are fed by all its workers.

#include <poplar/Vertex.hpp>
#include <type_traits>

namespace tilescope::poplibs {

template <typename In, typename Partial> class MatMulBlock : public poplar::MultiVertex {
public:
    poplar::Input<poplar::Vector<In>> a;
    poplar::Input<poplar::Vector<In>> b;
    poplar::Output<poplar::Vector<Partial>> out;
    unsigned rows = 0;
    unsigned depth = 0;
    unsigned cols = 0;

    bool compute(unsigned worker) {
        for (unsigned r = worker; r < rows; r += numWorkers())
            for (unsigned c = 0; c < cols; ++c) {
                float acc = 0.0f;
                for (unsigned k = 0; k < depth; ++k)
                    acc +=
                        static_cast<float>(a[r * depth + k]) * static_cast<float>(b[k * cols + c]);
                out[r * cols + c] = static_cast<Partial>(acc);
            }
        return true;
    }

    static void visit(void* o, sim::abi::FieldVisitor& f) {
        auto& v = *static_cast<MatMulBlock*>(o);
        sim::abi::describeField(f, "a", v.a);
        sim::abi::describeField(f, "b", v.b);
        sim::abi::describeField(f, "out", v.out);
        sim::abi::describeField(f, "rows", v.rows);
        sim::abi::describeField(f, "depth", v.depth);
        sim::abi::describeField(f, "cols", v.cols);
    }
};

} // namespace tilescope::poplibs
