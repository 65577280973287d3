#pragma once
// The convolution vertices of poplin. Every field is three-dimensional here (a 1-D or 2-D
// convolution has dimensions of size 1 added, see canonicalParams), and which input element each
// kernel element meets is a table per dimension (`table`: for dimension d, outSize_d x kernelSize_d
// entries, the index into the connected input slice or -1 for padding, dilation holes and truncated
// elements), computed when the graph is built, as PopLibs' vertices read worklists made then.
// One vertex takes all the conv groups of a tile (`convGroups`, PopLibs' numConvGroupGroups): its
// operands are the groups' blocks one after the other. A MultiVertex: worker w takes the (conv
// group, output channel) pairs w, w + 6, ... (the forward and gradient passes) or (conv group,
// output, input channel) triples (weight deltas). Sums are accumulated in float.

#include <algorithm>
#include <cstddef>
#include <poplar/Vertex.hpp>
#include <tilescope/sim/CodeletRegistration.hpp>
#include <type_traits>
#include <vector>

namespace tilescope::poplibs {

/// Sizes of a convolution vertex's three dimensions and its tables.
struct ConvVertexGeometry {
    unsigned in[3], out[3], kernel[3];
    const int* table[3];

    template <typename V> static ConvVertexGeometry of(const V& v) {
        ConvVertexGeometry g{{v.inSize0, v.inSize1, v.inSize2},
                             {v.outSize0, v.outSize1, v.outSize2},
                             {v.kernelSize0, v.kernelSize1, v.kernelSize2},
                             {nullptr, nullptr, nullptr}};
        const int* t = v.table.data();
        for (int d = 0; d < 3; ++d) {
            g.table[d] = t;
            t += std::size_t(g.out[d]) * g.kernel[d];
        }
        return g;
    }
    std::size_t inElements() const { return std::size_t(in[0]) * in[1] * in[2]; }
    std::size_t outElements() const { return std::size_t(out[0]) * out[1] * out[2]; }
    std::size_t kernelElements() const { return std::size_t(kernel[0]) * kernel[1] * kernel[2]; }

    /// acc[o] += x[input element kernel element k meets at o] * w for every output element o.
    template <typename X>
    void accumulate(float* acc, const X* x, float w, unsigned k0, unsigned k1, unsigned k2) const {
        for (unsigned o0 = 0; o0 < out[0]; ++o0) {
            const int i0 = table[0][o0 * kernel[0] + k0];
            if (i0 < 0)
                continue;
            for (unsigned o1 = 0; o1 < out[1]; ++o1) {
                const int i1 = table[1][o1 * kernel[1] + k1];
                if (i1 < 0)
                    continue;
                const X* row = x + (std::size_t(i0) * in[1] + unsigned(i1)) * in[2];
                float* accRow = acc + (std::size_t(o0) * out[1] + o1) * out[2];
                const int* t2 = table[2] + k2;
                for (unsigned o2 = 0; o2 < out[2]; ++o2) {
                    const int i2 = t2[o2 * kernel[2]];
                    if (i2 >= 0)
                        accRow[o2] += static_cast<float>(row[i2]) * w;
                }
            }
        }
    }
};

/// The operand as float: the data itself for FLOAT, a converted copy for HALF.
template <typename In>
const float* asFloat(const In* data, std::size_t n, std::vector<float>& buf) {
    if constexpr (std::is_same_v<In, float>) {
        (void)n;
        (void)buf;
        return data;
    } else {
        buf.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            buf[i] = static_cast<float>(data[i]);
        return buf.data();
    }
}

/// The state every convolution vertex has besides its operands.
#define TILESCOPE_CONV_VERTEX_STATE                                                                \
    poplar::Input<poplar::Vector<int>> table;                                                      \
    unsigned batch = 0, inChans = 0, outChans = 0;                                                 \
    unsigned inSize0 = 1, inSize1 = 1, inSize2 = 1;                                                \
    unsigned outSize0 = 1, outSize1 = 1, outSize2 = 1;                                             \
    unsigned kernelSize0 = 1, kernelSize1 = 1, kernelSize2 = 1;

template <typename V> void describeConvState(sim::abi::FieldVisitor& f, V& v) {
    sim::abi::describeField(f, "table", v.table);
    sim::abi::describeField(f, "batch", v.batch);
    sim::abi::describeField(f, "inChans", v.inChans);
    sim::abi::describeField(f, "outChans", v.outChans);
    sim::abi::describeField(f, "inSize0", v.inSize0);
    sim::abi::describeField(f, "inSize1", v.inSize1);
    sim::abi::describeField(f, "inSize2", v.inSize2);
    sim::abi::describeField(f, "outSize0", v.outSize0);
    sim::abi::describeField(f, "outSize1", v.outSize1);
    sim::abi::describeField(f, "outSize2", v.outSize2);
    sim::abi::describeField(f, "kernelSize0", v.kernelSize0);
    sim::abi::describeField(f, "kernelSize1", v.kernelSize1);
    sim::abi::describeField(f, "kernelSize2", v.kernelSize2);
}

/// For each of `convGroups` conv groups g: out[g] {batch, outChans, out...} = sum over inChans
/// and the kernel of in[g] {batch, inChans, in...} times weights[g] {outChans, inChans,
/// kernel...}, the groups' blocks one after the other in each operand. `Method` only names the
/// PopLibs vertex the work stands for (0 ConvPartial1x1Out, 1 ConvPartialnx1, 2
/// ConvPartialHorizontalMac, 3 ConvPartial1x4SLIC): they compute the same sums and are costed
/// by their own estimators.
template <typename In, typename Partial, int Method>
class ConvPartial : public poplar::MultiVertex {
public:
    /// PopLibs declares the AMP vertices' (1x1Out, nx1, SLIC) partials 16-byte aligned in
    /// interleaved memory (the AMP stores them 128 bits at a time); the horizontal MAC's are
    /// plain.
    static constexpr bool kAmp = Method != 2;
    poplar::Input<poplar::Vector<In>> in;
    poplar::Input<poplar::Vector<In>> weights;
    poplar::Output<poplar::Vector<Partial, poplar::VectorLayout::SPAN,
                                  kAmp ? 16u : unsigned(alignof(Partial)), kAmp>>
        out;
    unsigned convGroups = 1; ///< the conv groups whose blocks follow one another in each operand
    TILESCOPE_CONV_VERTEX_STATE

    bool compute(unsigned worker) {
        const auto g = ConvVertexGeometry::of(*this);
        const std::size_t inPlane = g.inElements(), outPlane = g.outElements();
        const std::size_t kElems = g.kernelElements();
        std::vector<float> inBuf, wBuf;
        const float* x = asFloat(in.data(), in.size(), inBuf);
        const float* w = asFloat(weights.data(), weights.size(), wBuf);
        std::vector<float> acc(outPlane);
        const std::size_t inGroup = std::size_t(batch) * inChans * inPlane;
        const std::size_t wGroup = std::size_t(outChans) * inChans * kElems;
        const std::size_t outGroup = std::size_t(batch) * outChans * outPlane;
        for (unsigned j = worker; j < convGroups * outChans; j += numWorkers()) {
            const unsigned group = j / outChans, oc = j % outChans;
            for (unsigned b = 0; b < batch; ++b) {
                std::fill(acc.begin(), acc.end(), 0.0f);
                for (unsigned ic = 0; ic < inChans; ++ic) {
                    const float* plane =
                        x + group * inGroup + (std::size_t(b) * inChans + ic) * inPlane;
                    const float* wk =
                        w + group * wGroup + (std::size_t(oc) * inChans + ic) * kElems;
                    for (unsigned k0 = 0; k0 < g.kernel[0]; ++k0)
                        for (unsigned k1 = 0; k1 < g.kernel[1]; ++k1)
                            for (unsigned k2 = 0; k2 < g.kernel[2]; ++k2)
                                g.accumulate(acc.data(), plane,
                                             wk[(k0 * g.kernel[1] + k1) * g.kernel[2] + k2], k0, k1,
                                             k2);
                }
                Partial* o = &out[group * outGroup + (std::size_t(b) * outChans + oc) * outPlane];
                for (std::size_t i = 0; i < outPlane; ++i)
                    o[i] = static_cast<Partial>(acc[i]);
            }
        }
        return true;
    }

    static void visit(void* o, sim::abi::FieldVisitor& f) {
        auto& v = *static_cast<ConvPartial*>(o);
        sim::abi::describeField(f, "in", v.in);
        sim::abi::describeField(f, "weights", v.weights);
        sim::abi::describeField(f, "out", v.out);
        sim::abi::describeField(f, "convGroups", v.convGroups);
        describeConvState(f, v);
    }
};

/// ConvPartial1x4SLIC: the convolution of ConvPartial (method 3) plus the second buffer PopLibs'
/// vertex alternates the sub-kernels' partials with (`outFieldBuffer`: one conv group group's
/// partials plus 200 bytes, 16-byte aligned in interleaved memory). The sums here need no
/// second buffer; it is connected for the tile memory it takes.
template <typename In, typename Partial>
class ConvPartialSlic : public ConvPartial<In, Partial, 3> {
public:
    poplar::Output<poplar::Vector<Partial, poplar::VectorLayout::SPAN, 16u, true>> outFieldBuffer;

    static void visit(void* o, sim::abi::FieldVisitor& f) {
        auto* self = static_cast<ConvPartialSlic*>(o);
        ConvPartial<In, Partial, 3>::visit(static_cast<ConvPartial<In, Partial, 3>*>(self), f);
        sim::abi::describeField(f, "outFieldBuffer", self->outFieldBuffer);
    }
};

/// Weight deltas of one block, for each of `convGroups` conv groups g: out[g] {outChans, inChans,
/// kernel...} = sum over the batch and the output field of deltas[g] {batch, outChans, out...}
/// times the input element in[g] {batch, inChans, in...} each kernel element met in the forward
/// pass.
template <typename In, typename Partial> class ConvWeightDeltas : public poplar::MultiVertex {
public:
    poplar::Input<poplar::Vector<In>> deltas;
    poplar::Input<poplar::Vector<In>> in;
    poplar::Output<poplar::Vector<Partial>> out;
    unsigned convGroups = 1; ///< the conv groups whose blocks follow one another in each operand
    TILESCOPE_CONV_VERTEX_STATE

    bool compute(unsigned worker) {
        const auto g = ConvVertexGeometry::of(*this);
        const std::size_t inPlane = g.inElements(), outPlane = g.outElements();
        std::vector<float> inBuf, dBuf;
        const float* x = asFloat(in.data(), in.size(), inBuf);
        const float* dy = asFloat(deltas.data(), deltas.size(), dBuf);
        const unsigned pairs = outChans * inChans;
        for (unsigned p = worker; p < convGroups * pairs; p += numWorkers()) {
            const unsigned group = p / pairs, oc = p % pairs / inChans, ic = p % inChans;
            const float* xg = x + std::size_t(group) * batch * inChans * inPlane;
            const float* dyg = dy + std::size_t(group) * batch * outChans * outPlane;
            Partial* o = &out[std::size_t(p) * g.kernelElements()];
            for (unsigned k0 = 0; k0 < g.kernel[0]; ++k0)
                for (unsigned k1 = 0; k1 < g.kernel[1]; ++k1)
                    for (unsigned k2 = 0; k2 < g.kernel[2]; ++k2) {
                        float sum = 0.0f;
                        for (unsigned b = 0; b < batch; ++b)
                            sum += dot(g, dyg + (std::size_t(b) * outChans + oc) * outPlane,
                                       xg + (std::size_t(b) * inChans + ic) * inPlane, k0, k1, k2);
                        o[(k0 * g.kernel[1] + k1) * g.kernel[2] + k2] = static_cast<Partial>(sum);
                    }
        }
        return true;
    }

    static void visit(void* o, sim::abi::FieldVisitor& f) {
        auto& v = *static_cast<ConvWeightDeltas*>(o);
        sim::abi::describeField(f, "deltas", v.deltas);
        sim::abi::describeField(f, "in", v.in);
        sim::abi::describeField(f, "out", v.out);
        sim::abi::describeField(f, "convGroups", v.convGroups);
        describeConvState(f, v);
    }

private:
    /// sum over the output field of dy[o] * x[input element kernel element k meets at o].
    static float dot(const ConvVertexGeometry& g, const float* dy, const float* x, unsigned k0,
                     unsigned k1, unsigned k2) {
        float sum = 0.0f;
        for (unsigned o0 = 0; o0 < g.out[0]; ++o0) {
            const int i0 = g.table[0][o0 * g.kernel[0] + k0];
            if (i0 < 0)
                continue;
            for (unsigned o1 = 0; o1 < g.out[1]; ++o1) {
                const int i1 = g.table[1][o1 * g.kernel[1] + k1];
                if (i1 < 0)
                    continue;
                const float* row = x + (std::size_t(i0) * g.in[1] + unsigned(i1)) * g.in[2];
                const float* dyRow = dy + (std::size_t(o0) * g.out[1] + o1) * g.out[2];
                for (unsigned o2 = 0; o2 < g.out[2]; ++o2) {
                    const int i2 = g.table[2][o2 * g.kernel[2] + k2];
                    if (i2 >= 0)
                        sum += dyRow[o2] * row[i2];
                }
            }
        }
        return sum;
    }
};

} // namespace tilescope::poplibs
