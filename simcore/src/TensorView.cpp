#include "tilescope/sim/TensorView.hpp"

#include <algorithm>

namespace tilescope::sim {

std::uint64_t TensorView::numElements() const {
    std::uint64_t n = 0;
    for (const auto& r : ranges)
        n += r.size();
    return n;
}

void TensorView::append(const ElementRange& r) {
    if (r.begin == r.end)
        return;
    if (!ranges.empty() && ranges.back().variable == r.variable && ranges.back().end == r.begin)
        ranges.back().end = r.end;
    else
        ranges.push_back(r);
}

namespace views {

std::vector<std::uint64_t> strides(const std::vector<std::size_t>& shape) {
    std::vector<std::uint64_t> s(shape.size(), 1);
    for (std::size_t i = shape.size(); i-- > 1;)
        s[i - 1] = s[i] * shape[i];
    return s;
}

std::uint64_t product(const std::vector<std::size_t>& shape) {
    std::uint64_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

namespace {

/// Finds the variable element behind a flat index of a view in O(log ranges).
class ElementLocator {
public:
    explicit ElementLocator(const TensorView& v) : view_(v) {
        starts_.reserve(v.ranges.size());
        std::uint64_t at = 0;
        for (const auto& r : v.ranges) {
            starts_.push_back(at);
            at += r.size();
        }
    }
    ElementRange at(std::uint64_t flat) const {
        auto it = std::upper_bound(starts_.begin(), starts_.end(), flat);
        const auto i = static_cast<std::size_t>(it - starts_.begin()) - 1;
        const auto& r = view_.ranges[i];
        const std::uint64_t e = r.begin + (flat - starts_[i]);
        return {r.variable, e, e + 1};
    }

private:
    const TensorView& view_;
    std::vector<std::uint64_t> starts_;
};

/// Builds the view whose element i is source element index(i), for every i in the new shape.
template <typename IndexFn>
TensorView remap(const TensorView& src, std::vector<std::size_t> newShape, IndexFn index) {
    TensorView out;
    out.type = src.type;
    out.name = src.name;
    out.shape = std::move(newShape);
    const std::uint64_t n = product(out.shape);
    ElementLocator loc(src);
    for (std::uint64_t i = 0; i < n; ++i)
        out.append(loc.at(index(i)));
    return out;
}

/// Calls fn(outFlat, srcMultiIndex...) by walking the new shape's multi-index.
template <typename Fn>
TensorView remapByIndex(const TensorView& src, std::vector<std::size_t> newShape, Fn toSource) {
    const auto srcStrides = strides(src.shape);
    std::vector<std::size_t> idx(newShape.size(), 0);
    const auto shape = newShape;
    return remap(src, std::move(newShape), [&](std::uint64_t i) {
        // Decompose i into idx (row-major) and map to a source flat index.
        std::uint64_t rem = i;
        for (std::size_t d = shape.size(); d-- > 0;) {
            idx[d] = shape[d] == 0 ? 0 : rem % shape[d];
            rem = shape[d] == 0 ? 0 : rem / shape[d];
        }
        std::uint64_t flat = 0;
        const auto srcIdx = toSource(idx);
        for (std::size_t d = 0; d < srcIdx.size(); ++d)
            flat += srcIdx[d] * srcStrides[d];
        return flat;
    });
}

} // namespace

TensorView slice(const TensorView& src, std::size_t begin, std::size_t end, unsigned dim) {
    auto shape = src.shape;
    shape[dim] = end - begin;
    // Fast path: slicing the outermost dimension keeps runs contiguous.
    if (dim == 0) {
        const std::uint64_t inner = product(src.shape) / std::max<std::size_t>(src.shape[0], 1);
        TensorView out;
        out.type = src.type;
        out.name = src.name;
        out.shape = shape;
        std::uint64_t at = 0;
        const std::uint64_t lo = begin * inner, hi = end * inner;
        for (const auto& r : src.ranges) {
            const std::uint64_t rs = at, re = at + r.size();
            at = re;
            const std::uint64_t s = std::max(rs, lo), e = std::min(re, hi);
            if (s < e)
                out.append({r.variable, r.begin + (s - rs), r.begin + (e - rs)});
        }
        return out;
    }
    return remapByIndex(src, shape, [&](const std::vector<std::size_t>& idx) {
        auto s = idx;
        s[dim] += begin;
        return s;
    });
}

TensorView dimShuffle(const TensorView& src, const std::vector<unsigned>& permutation) {
    std::vector<std::size_t> shape(permutation.size());
    for (std::size_t i = 0; i < permutation.size(); ++i)
        shape[i] = src.shape[permutation[i]];
    return remapByIndex(src, shape, [&](const std::vector<std::size_t>& idx) {
        std::vector<std::size_t> s(idx.size());
        for (std::size_t i = 0; i < permutation.size(); ++i)
            s[permutation[i]] = idx[i];
        return s;
    });
}

TensorView broadcast(const TensorView& src, unsigned times, unsigned dim) {
    auto shape = src.shape;
    const std::size_t orig = shape[dim];
    shape[dim] *= times;
    return remapByIndex(src, shape, [&](const std::vector<std::size_t>& idx) {
        auto s = idx;
        s[dim] %= orig;
        return s;
    });
}

TensorView reverse(const TensorView& src, unsigned dim) {
    return remapByIndex(src, src.shape, [&](const std::vector<std::size_t>& idx) {
        auto s = idx;
        s[dim] = src.shape[dim] - 1 - idx[dim];
        return s;
    });
}

TensorView subSample(const TensorView& src, unsigned stride, unsigned dim) {
    auto shape = src.shape;
    shape[dim] = (shape[dim] + stride - 1) / stride;
    return remapByIndex(src, shape, [&](const std::vector<std::size_t>& idx) {
        auto s = idx;
        s[dim] *= stride;
        return s;
    });
}

TensorView upsample(const TensorView& src, unsigned scale, unsigned dim) {
    auto shape = src.shape;
    shape[dim] *= scale;
    return remapByIndex(src, shape, [&](const std::vector<std::size_t>& idx) {
        auto s = idx;
        s[dim] /= scale;
        return s;
    });
}

TensorView concat(const std::vector<TensorView>& parts, unsigned dim) {
    TensorView out;
    out.type = parts.front().type;
    out.name = parts.front().name;
    out.shape = parts.front().shape;
    out.shape[dim] = 0;
    for (const auto& p : parts)
        out.shape[dim] += p.shape[dim];
    // Row-major: for each index of the dimensions before `dim`, append each part's block.
    std::uint64_t outer = 1;
    for (unsigned d = 0; d < dim; ++d)
        outer *= out.shape[d];
    for (std::uint64_t o = 0; o < outer; ++o) {
        for (const auto& p : parts) {
            if (outer == 1) {
                for (const auto& r : p.ranges)
                    out.append(r);
                continue;
            }
            const std::uint64_t block = product(p.shape) / outer;
            // Elements [o*block, (o+1)*block) of p, in order.
            std::uint64_t at = 0;
            const std::uint64_t lo = o * block, hi = lo + block;
            for (const auto& r : p.ranges) {
                const std::uint64_t rs = at, re = at + r.size();
                at = re;
                const std::uint64_t s = std::max(rs, lo), e = std::min(re, hi);
                if (s < e)
                    out.append({r.variable, r.begin + (s - rs), r.begin + (e - rs)});
                if (at >= hi)
                    break;
            }
        }
    }
    return out;
}

} // namespace views
} // namespace tilescope::sim
