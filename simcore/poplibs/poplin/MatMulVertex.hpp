#pragma once
// The vertices of poplin's matrix products. The block product: out (rows x cols) = a (rows x
// depth) x b, with `b` given transposed (cols x depth, depth innermost), as a convolution's
// input has its channels innermost. A MultiVertex: worker w computes rows (or columns, when
// there are more of them) w, w+6, ..., as the AMP units of a tile are fed by all its workers. `out`
// is in the order of a convolution's output: the rows (output channels) innermost in groups of
// `outGroup`, {rows / outGroup, cols, outGroup}, as PopLibs lays out a product's partials (outGroup
// 1: row-major).

#include <algorithm>
#include <poplar/Vertex.hpp>
#include <tilescope/sim/CodeletRegistration.hpp>
#include <type_traits>
#include <vector>

namespace tilescope::poplibs {

template <typename In, typename Partial> class MatMulBlock : public poplar::MultiVertex {
public:
    poplar::Input<poplar::Vector<In>> a;
    poplar::Input<poplar::Vector<In>> b; ///< cols x depth
    /// As PopLibs' AMP vertex (ConvPartial1x1Out) declares its partials: 16-byte aligned in
    /// interleaved memory, which the AMP stores 128 bits at a time.
    poplar::Output<poplar::Vector<Partial, poplar::VectorLayout::SPAN, 16, true>> out;
    unsigned rows = 0;
    unsigned depth = 0;
    unsigned cols = 0;
    unsigned outGroup = 1;

    bool compute(unsigned worker) {
        const unsigned g = outGroup == 0 ? 1 : outGroup;
        if (rows % g != 0)
            return false;
        // Each worker takes every sixth row or every sixth column, whichever there are more
        // of, and converts to float only the rows of a and b it reads (HALF conversion is the
        // costly part on the host). Each output is a dot product summed in index order, the same
        // order as the plain dot product, whichever worker computes it, so results match.
        const bool byRows = rows >= cols;
        const unsigned count = byRows ? rows : cols;
        const auto convert = [&](const In* src, std::vector<float>& dst) {
            for (unsigned k = 0; k < depth; ++k)
                dst[k] = static_cast<float>(src[k]);
        };
        // The rows this worker reads of the operand it splits, converted.
        const In* split = byRows ? a.data() : b.data();
        const In* whole = byRows ? b.data() : a.data();
        const unsigned wholeCount = byRows ? cols : rows;
        std::vector<float> wholeRows(std::size_t(wholeCount) * depth);
        for (unsigned j = 0; j < wholeCount; ++j)
            for (unsigned k = 0; k < depth; ++k)
                wholeRows[std::size_t(j) * depth + k] =
                    static_cast<float>(whole[std::size_t(j) * depth + k]);
        std::vector<float> own(depth);
        for (unsigned i = worker; i < count; i += numWorkers()) {
            convert(split + std::size_t(i) * depth, own);
            for (unsigned j = 0; j < wholeCount; ++j) {
                const float* other = wholeRows.data() + std::size_t(j) * depth;
                const unsigned r = byRows ? i : j, c = byRows ? j : i;
                // a[r] . b[c], summed over k in order (as the plain dot product).
                const float* ar = byRows ? own.data() : other;
                const float* bc = byRows ? other : own.data();
                float acc = 0.0f;
                for (unsigned k = 0; k < depth; ++k)
                    acc += ar[k] * bc[k];
                out[(std::size_t(r / g) * cols + c) * g + r % g] = static_cast<Partial>(acc);
            }
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
        sim::abi::describeField(f, "outGroup", v.outGroup);
    }
};

/// poplin::ReduceAdd: sums a product's partials on one tile, as PopLibs' convolution reduces
/// them (a SupervisorVertex; lib/poplin/codelets/ReduceAdd.cpp). `partials` holds numPartials
/// runs of out.size() elements one after the other; out[i] is the float sum of element i of
/// every run, in run order, converted to Out (a single run is the cast of a product that needs
/// no reduction).
template <typename Out, typename Partial> class ReduceAdd : public poplar::SupervisorVertex {
public:
    poplar::Input<poplar::Vector<Partial>> partials;
    poplar::Output<poplar::Vector<Out>> out;
    unsigned numPartials = 0;

    bool compute() {
        const std::size_t n = out.size();
        if (numPartials == 0 || partials.size() != n * numPartials)
            return false;
        const Partial* p = partials.data();
        for (std::size_t i = 0; i < n; ++i) {
            float sum = 0.0f;
            for (unsigned j = 0; j < numPartials; ++j)
                sum += static_cast<float>(p[std::size_t(j) * n + i]);
            out[i] = static_cast<Out>(sum);
        }
        return true;
    }

    static void visit(void* o, sim::abi::FieldVisitor& f) {
        auto& v = *static_cast<ReduceAdd*>(o);
        sim::abi::describeField(f, "partials", v.partials);
        sim::abi::describeField(f, "out", v.out);
        sim::abi::describeField(f, "numPartials", v.numPartials);
    }
};

} // namespace tilescope::poplibs
