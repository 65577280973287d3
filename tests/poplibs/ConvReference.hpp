#pragma once
// A host reference of PopLibs' convolution, written from the definitions of ConvParams'
// transforms: each spatial dimension of the input and kernel is truncated, dilated, padded and
// flipped, the full correlation taken, and the output truncated, strided and padded. Every
// multiply-accumulate is enumerated once (`forEachTap`), so the forward pass, the input gradient
// (its adjoint) and the weight deltas all come from the same enumeration.

#include <algorithm>
#include <cstddef>
#include <functional>
#include <poplin/ConvParams.hpp>
#include <vector>

namespace convtest {

/// The tensors' shapes as poplin::convolution takes them: input {B, G*Ci, F...}, weights
/// {G, Co, Ci, K...}, output {B, G*Co, O...}; and a shape's element count.
inline std::vector<std::size_t> inShape(const poplin::ConvParams& p) {
    std::vector<std::size_t> s = {p.batchSize, p.getNumInputChans()};
    s.insert(s.end(), p.inputFieldShape.begin(), p.inputFieldShape.end());
    return s;
}
inline std::vector<std::size_t> wShape(const poplin::ConvParams& p) {
    std::vector<std::size_t> s = {p.numConvGroups, p.outputChannels, p.inputChannels};
    s.insert(s.end(), p.kernelShape.begin(), p.kernelShape.end());
    return s;
}
inline std::vector<std::size_t> outShape(const poplin::ConvParams& p) {
    std::vector<std::size_t> s = {p.batchSize, p.getNumOutputChans()};
    for (auto x : p.getOutputFieldShape())
        s.push_back(x);
    return s;
}
inline std::size_t volume(const std::vector<std::size_t>& s) {
    std::size_t v = 1;
    for (auto x : s)
        v *= x;
    return v;
}

/// For one dimension: the untransformed index behind each transformed position, -1 for a zero.
inline std::vector<long>
transformedIndices(std::size_t size, const poplin::ConvParams::InputTransform& t, unsigned d) {
    const long kept = long(size) - t.truncationLower[d] - t.truncationUpper[d];
    std::vector<long> dilated;
    for (long j = 0; j < kept; ++j) {
        if (j)
            dilated.insert(dilated.end(), t.dilation[d] - 1, -1);
        dilated.push_back(j + t.truncationLower[d]);
    }
    std::vector<long> padded(t.paddingLower[d], -1);
    padded.insert(padded.end(), dilated.begin(), dilated.end());
    padded.insert(padded.end(), t.paddingUpper[d], -1);
    if (t.flip[d])
        std::reverse(padded.begin(), padded.end());
    return padded;
}

/// Calls tap(outIndex, inIndex, weightIndex) for every product of the convolution, indices
/// into the flattened {B, G*Co, O...}, {B, G*Ci, F...} and {G, Co, Ci, K...} tensors.
inline void forEachTap(const poplin::ConvParams& p,
                       const std::function<void(std::size_t, std::size_t, std::size_t)>& tap) {
    const unsigned n = unsigned(p.getNumFieldDims());
    // Per dimension: for each final output index, the full-correlation index or -1.
    std::vector<std::vector<long>> outMap(n), inIdx(n), kIdx(n);
    std::vector<std::size_t> outSize(n);
    for (unsigned d = 0; d < n; ++d) {
        inIdx[d] = transformedIndices(p.inputFieldShape[d], p.inputTransform, d);
        kIdx[d] = transformedIndices(p.kernelShape[d], p.kernelTransform, d);
        const long full = long(inIdx[d].size()) - long(kIdx[d].size()) + 1;
        const auto& ot = p.outputTransform;
        std::vector<long> m(ot.paddingLower[d], -1);
        for (long o = ot.truncationLower[d]; o < full - long(ot.truncationUpper[d]);
             o += ot.stride[d])
            m.push_back(o);
        m.insert(m.end(), ot.paddingUpper[d], -1);
        outMap[d] = m;
        outSize[d] = m.size();
    }
    const auto volume = [](const std::vector<std::size_t>& s) {
        std::size_t v = 1;
        for (auto x : s)
            v *= x;
        return v;
    };
    const std::size_t outVol = volume(outSize), inVol = volume(p.inputFieldShape),
                      kVol = volume(p.kernelShape);
    std::vector<std::size_t> o(n);
    for (std::size_t oi = 0; oi < outVol; ++oi) {
        for (unsigned d = n, r = unsigned(oi); d-- > 0;)
            o[d] = r % outSize[d], r /= unsigned(outSize[d]);
        // Walk transformed kernel positions; each meets one transformed input position.
        std::vector<std::size_t> tk(n);
        std::size_t tkVol = 1;
        for (unsigned d = 0; d < n; ++d)
            tkVol *= kIdx[d].size();
        for (std::size_t ti = 0; ti < tkVol; ++ti) {
            std::size_t r = ti;
            for (unsigned d = n; d-- > 0;)
                tk[d] = r % kIdx[d].size(), r /= kIdx[d].size();
            long inFlat = 0, kFlat = 0;
            bool zero = false;
            for (unsigned d = 0; d < n && !zero; ++d) {
                const long full = outMap[d][o[d]];
                const long kk = kIdx[d][tk[d]];
                if (full < 0 || kk < 0) {
                    zero = true;
                    break;
                }
                const long ii = inIdx[d][std::size_t(full) + tk[d]];
                if (ii < 0)
                    zero = true;
                inFlat = inFlat * long(p.inputFieldShape[d]) + ii;
                kFlat = kFlat * long(p.kernelShape[d]) + kk;
            }
            if (zero)
                continue;
            for (std::size_t b = 0; b < p.batchSize; ++b)
                for (std::size_t g = 0; g < p.numConvGroups; ++g)
                    for (std::size_t co = 0; co < p.outputChannels; ++co)
                        for (std::size_t ci = 0; ci < p.inputChannels; ++ci) {
                            const std::size_t outC = g * p.outputChannels + co;
                            const std::size_t inC = g * p.inputChannels + ci;
                            tap((b * p.getNumOutputChans() + outC) * outVol + oi,
                                (b * p.getNumInputChans() + inC) * inVol + std::size_t(inFlat),
                                ((g * p.outputChannels + co) * p.inputChannels + ci) * kVol +
                                    std::size_t(kFlat));
                        }
        }
    }
}

inline std::size_t outputElements(const poplin::ConvParams& p) {
    std::size_t v = p.batchSize * p.getNumOutputChans();
    for (auto s : p.getOutputFieldShape())
        v *= s;
    return v;
}

inline std::vector<double> forward(const poplin::ConvParams& p, const std::vector<double>& in,
                                   const std::vector<double>& w) {
    std::vector<double> out(outputElements(p), 0.0);
    forEachTap(p, [&](std::size_t o, std::size_t i, std::size_t k) { out[o] += in[i] * w[k]; });
    return out;
}

inline std::vector<double> inputGradient(const poplin::ConvParams& p, std::size_t inElements,
                                         const std::vector<double>& dy,
                                         const std::vector<double>& w) {
    std::vector<double> dx(inElements, 0.0);
    forEachTap(p, [&](std::size_t o, std::size_t i, std::size_t k) { dx[i] += dy[o] * w[k]; });
    return dx;
}

inline std::vector<double> weightDeltas(const poplin::ConvParams& p, std::size_t wElements,
                                        const std::vector<double>& dy,
                                        const std::vector<double>& in) {
    std::vector<double> dw(wElements, 0.0);
    forEachTap(p, [&](std::size_t o, std::size_t i, std::size_t k) { dw[k] += dy[o] * in[i]; });
    return dw;
}

} // namespace convtest
