#pragma once
// The block matrix product vertex of poplin: out (rows x cols) = a (rows x depth) x b (depth x
// cols), all row-major, accumulated in float. A MultiVertex: worker w computes rows w, w+6, ...,
// as the AMP units of a tile are fed by all its workers.

#include <algorithm>
#include <poplar/Vertex.hpp>
#include <tilescope/sim/CodeletRegistration.hpp>
#include <type_traits>
#include <vector>

namespace tilescope::poplibs {

template <typename In, typename Partial> class MatMulBlock : public poplar::MultiVertex {
public:
    poplar::Input<poplar::Vector<In>> a;
    poplar::Input<poplar::Vector<In>> b;
    /// As PopLibs' AMP vertex (ConvPartial1x1Out) declares its partials: 16-byte aligned in
    /// interleaved memory, which the AMP stores 128 bits at a time.
    poplar::Output<poplar::Vector<Partial, poplar::VectorLayout::SPAN, 16, true>> out;
    unsigned rows = 0;
    unsigned depth = 0;
    unsigned cols = 0;

    bool compute(unsigned worker) {
        // The operands are converted to float once per worker (HALF conversion is the costly
        // part on the host) and each row is accumulated with the reduction index outermost,
        // which keeps every sum in the same order as the plain dot product, so results match.
        const In* aData = a.data();
        const In* bData = b.data();
        std::vector<float> bf;
        const float* bRows = nullptr;
        if constexpr (std::is_same_v<In, float>) {
            bRows = bData;
        } else {
            bf.resize(std::size_t(depth) * cols);
            for (std::size_t i = 0; i < bf.size(); ++i)
                bf[i] = static_cast<float>(bData[i]);
            bRows = bf.data();
        }
        std::vector<float> acc(cols);
        for (unsigned r = worker; r < rows; r += numWorkers()) {
            std::fill(acc.begin(), acc.end(), 0.0f);
            for (unsigned k = 0; k < depth; ++k) {
                const float av = static_cast<float>(aData[std::size_t(r) * depth + k]);
                const float* bRow = bRows + std::size_t(k) * cols;
                for (unsigned c = 0; c < cols; ++c)
                    acc[c] += av * bRow[c];
            }
            for (unsigned c = 0; c < cols; ++c)
                out[r * cols + c] = static_cast<Partial>(acc[c]);
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
