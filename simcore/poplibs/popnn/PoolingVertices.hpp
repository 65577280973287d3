#pragma once
// popnn's pooling vertices. Each handles whole planes (one batch element of one channel) of a
// 1-D to 3-D field, taken as three dimensions, with the per-dimension tables of poplin's
// convolution vertices (poplin/ConvVertices.hpp: for each output index and window element the
// input index, -1 for padding). A MultiVertex: worker w takes planes w, w + 6, ...

#include "poplin/ConvVertices.hpp"

#include <cmath>
#include <limits>
#include <poplar/Vertex.hpp>
#include <popnn/PoolingDef.hpp>
#include <tilescope/sim/CodeletRegistration.hpp>

namespace tilescope::poplibs {

/// Calls f(o, i) for every output element o of a plane and input element i of its window.
template <typename F> void forEachWindowElement(const ConvVertexGeometry& g, F&& f) {
    for (unsigned o0 = 0; o0 < g.out[0]; ++o0)
        for (unsigned o1 = 0; o1 < g.out[1]; ++o1)
            for (unsigned o2 = 0; o2 < g.out[2]; ++o2) {
                const std::size_t o = (std::size_t(o0) * g.out[1] + o1) * g.out[2] + o2;
                for (unsigned k0 = 0; k0 < g.kernel[0]; ++k0) {
                    const int i0 = g.table[0][o0 * g.kernel[0] + k0];
                    if (i0 < 0)
                        continue;
                    for (unsigned k1 = 0; k1 < g.kernel[1]; ++k1) {
                        const int i1 = g.table[1][o1 * g.kernel[1] + k1];
                        if (i1 < 0)
                            continue;
                        for (unsigned k2 = 0; k2 < g.kernel[2]; ++k2) {
                            const int i2 = g.table[2][o2 * g.kernel[2] + k2];
                            if (i2 >= 0)
                                f(o, (std::size_t(i0) * g.in[1] + unsigned(i1)) * g.in[2] +
                                         unsigned(i2));
                        }
                    }
                }
            }
}

/// out[plane][o] = max, sum or average of in[plane][window of o]; a window of padding only
/// gives 0.
template <typename T, popnn::PoolingType Type> class Pooling : public poplar::MultiVertex {
public:
    poplar::Input<poplar::Vector<T>> in;
    poplar::Output<poplar::Vector<T>> out;
    TILESCOPE_CONV_VERTEX_STATE // batch = planes; channels unused

        bool
        compute(unsigned worker) {
        const auto g = ConvVertexGeometry::of(*this);
        const std::size_t inPlane = g.inElements(), outPlane = g.outElements();
        std::vector<float> acc(outPlane);
        std::vector<unsigned> count(outPlane);
        for (unsigned p = worker; p < batch; p += numWorkers()) {
            const T* x = &in[std::size_t(p) * inPlane];
            std::fill(acc.begin(), acc.end(),
                      Type == popnn::PoolingType::MAX ? -std::numeric_limits<float>::infinity()
                                                      : 0.0f);
            std::fill(count.begin(), count.end(), 0u);
            forEachWindowElement(g, [&](std::size_t o, std::size_t i) {
                const float v = static_cast<float>(x[i]);
                acc[o] = Type == popnn::PoolingType::MAX ? std::max(acc[o], v) : acc[o] + v;
                ++count[o];
            });
            for (std::size_t o = 0; o < outPlane; ++o) {
                float r = count[o] == 0 ? 0.0f : acc[o];
                if (Type == popnn::PoolingType::AVG && count[o])
                    r /= static_cast<float>(count[o]);
                out[std::size_t(p) * outPlane + o] = static_cast<T>(r);
            }
        }
        return true;
    }

    static void visit(void* o, sim::abi::FieldVisitor& f) {
        auto& v = *static_cast<Pooling*>(o);
        sim::abi::describeField(f, "in", v.in);
        sim::abi::describeField(f, "out", v.out);
        describeConvState(f, v);
    }
};

/// The input gradient of MAX pooling: each output's gradient goes to the input elements of its
/// window equal to the output, divided by how many there are when `scaled`.
template <typename T> class MaxPoolingGrad : public poplar::MultiVertex {
public:
    poplar::Input<poplar::Vector<T>> in;
    poplar::Input<poplar::Vector<T>> pooled;
    poplar::Input<poplar::Vector<T>> pooledGrad;
    poplar::Output<poplar::Vector<T>> inGrad;
    unsigned scaled = 0;
    TILESCOPE_CONV_VERTEX_STATE

    bool compute(unsigned worker) {
        const auto g = ConvVertexGeometry::of(*this);
        const std::size_t inPlane = g.inElements(), outPlane = g.outElements();
        std::vector<float> grad(inPlane);
        std::vector<unsigned> count(outPlane);
        for (unsigned p = worker; p < batch; p += numWorkers()) {
            const std::size_t inBase = std::size_t(p) * inPlane,
                              outBase = std::size_t(p) * outPlane;
            const auto hit = [&](std::size_t o, std::size_t i) {
                return static_cast<float>(in[inBase + i]) ==
                       static_cast<float>(pooled[outBase + o]);
            };
            std::fill(count.begin(), count.end(), 0u);
            forEachWindowElement(g, [&](std::size_t o, std::size_t i) { count[o] += hit(o, i); });
            std::fill(grad.begin(), grad.end(), 0.0f);
            forEachWindowElement(g, [&](std::size_t o, std::size_t i) {
                if (!hit(o, i))
                    return;
                float v = static_cast<float>(pooledGrad[outBase + o]);
                if (scaled)
                    v /= static_cast<float>(count[o]);
                grad[i] += v;
            });
            for (std::size_t i = 0; i < inPlane; ++i)
                inGrad[inBase + i] = static_cast<T>(grad[i]);
        }
        return true;
    }

    static void visit(void* o, sim::abi::FieldVisitor& f) {
        auto& v = *static_cast<MaxPoolingGrad*>(o);
        sim::abi::describeField(f, "in", v.in);
        sim::abi::describeField(f, "pooled", v.pooled);
        sim::abi::describeField(f, "pooledGrad", v.pooledGrad);
        sim::abi::describeField(f, "inGrad", v.inGrad);
        sim::abi::describeField(f, "scaled", v.scaled);
        describeConvState(f, v);
    }
};

/// The input gradient of AVG or SUM pooling from the output gradient alone.
template <typename T, popnn::PoolingType Type> class SumPoolingGrad : public poplar::MultiVertex {
public:
    poplar::Input<poplar::Vector<T>> pooledGrad;
    poplar::Output<poplar::Vector<T>> inGrad;
    TILESCOPE_CONV_VERTEX_STATE

    bool compute(unsigned worker) {
        const auto g = ConvVertexGeometry::of(*this);
        const std::size_t inPlane = g.inElements(), outPlane = g.outElements();
        std::vector<float> grad(inPlane);
        std::vector<unsigned> count(outPlane);
        for (unsigned p = worker; p < batch; p += numWorkers()) {
            const std::size_t inBase = std::size_t(p) * inPlane,
                              outBase = std::size_t(p) * outPlane;
            std::fill(count.begin(), count.end(), 0u);
            forEachWindowElement(g, [&](std::size_t o, std::size_t) { ++count[o]; });
            std::fill(grad.begin(), grad.end(), 0.0f);
            forEachWindowElement(g, [&](std::size_t o, std::size_t i) {
                float v = static_cast<float>(pooledGrad[outBase + o]);
                if (Type == popnn::PoolingType::AVG)
                    v /= static_cast<float>(count[o]);
                grad[i] += v;
            });
            for (std::size_t i = 0; i < inPlane; ++i)
                inGrad[inBase + i] = static_cast<T>(grad[i]);
        }
        return true;
    }

    static void visit(void* o, sim::abi::FieldVisitor& f) {
        auto& v = *static_cast<SumPoolingGrad*>(o);
        sim::abi::describeField(f, "pooledGrad", v.pooledGrad);
        sim::abi::describeField(f, "inGrad", v.inGrad);
        describeConvState(f, v);
    }
};

} // namespace tilescope::poplibs
