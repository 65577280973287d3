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

FlatIntervalReader::FlatIntervalReader(const TensorView& v) : view_(v) {
    starts_.push_back(0);
}

void FlatIntervalReader::extendTo(std::uint64_t flat) {
    // Range starts are summed only as far as a request reaches.
    while (starts_.back() <= flat && starts_.size() <= view_.ranges.size()) {
        const std::size_t range = starts_.size() - 1;
        const std::uint64_t size = view_.ranges[range].size();
        if (size == 0)
            emptyRange_ = true;
        else if (!segments_.empty() && segments_.back().size == size)
            ++segments_.back().count;
        else
            segments_.push_back({range, 1, size});
        starts_.push_back(starts_.back() + size);
    }
}

std::size_t FlatIntervalReader::locate(std::uint64_t flat, std::size_t hint) {
    extendTo(flat);
    // Ranges of one size in a row (a transposed view's, a product's groups, most of a slice of
    // either): find the stretch, then the range is a division. Worth it at 4 ranges a stretch.
    if (!emptyRange_ && !segments_.empty() && segments_.size() * 4 <= starts_.size() - 1) {
        const auto startOf = [&](std::size_t j) { return starts_[segments_[j].firstRange]; };
        std::size_t j = segmentHint_;
        if (!(startOf(j) <= flat && (j + 1 == segments_.size() || flat < startOf(j + 1)))) {
            const auto it = std::upper_bound(
                segments_.begin(), segments_.end(), flat,
                [&](std::uint64_t f, const Segment& s) { return f < starts_[s.firstRange]; });
            j = segmentHint_ = static_cast<std::size_t>(it - segments_.begin()) - 1;
        }
        const auto& s = segments_[j];
        return s.firstRange + static_cast<std::size_t>((flat - startOf(j)) / s.size);
    }
    const std::size_t last = starts_.size() - 2; // the last range with a known end
    std::size_t i = std::min(hint, last);
    if (flat < starts_[i]) {
        i = static_cast<std::size_t>(
                std::upper_bound(starts_.begin(), starts_.begin() + static_cast<std::ptrdiff_t>(i),
                                 flat) -
                starts_.begin()) -
            1;
    } else if (flat >= starts_[i + 1]) {
        // Gallop: the range is within lo + [0, step) once starts_[lo + step] passes `flat`.
        std::size_t lo = i + 1, step = 1;
        while (lo + step <= last && starts_[lo + step] <= flat) {
            lo += step;
            step *= 2;
        }
        const auto end =
            starts_.begin() + static_cast<std::ptrdiff_t>(std::min(lo + step, last + 1));
        i = static_cast<std::size_t>(
                std::upper_bound(starts_.begin() + static_cast<std::ptrdiff_t>(lo), end, flat) -
                starts_.begin()) -
            1;
    }
    return i;
}

std::size_t FlatIntervalReader::find(std::uint64_t flat) {
    return locate(flat, hint_);
}

void FlatIntervalReader::appendTo(TensorView& out, std::uint64_t lo, std::uint64_t hi) {
    if (lo >= hi)
        return;
    std::size_t i = find(lo);
    while (lo < hi) {
        if (i + 1 >= starts_.size())
            extendTo(lo); // sums the starts past range i
        const auto& r = view_.ranges[i];
        const std::uint64_t e = std::min(hi, starts_[i + 1]);
        out.append({r.variable, r.begin + (lo - starts_[i]), r.begin + (e - starts_[i])});
        lo = e;
        hint_ = i;
        ++i;
    }
}

void FlatIntervalReader::appendElement(TensorView& out, std::uint64_t flat, std::size_t& hint) {
    const std::size_t i = hint = locate(flat, hint);
    const auto& r = view_.ranges[i];
    const std::uint64_t at = r.begin + (flat - starts_[i]);
    out.append({r.variable, at, at + 1});
}

TensorView
FlatIntervalReader::gather(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& intervals) {
    TensorView out;
    out.type = view_.type;
    out.name = view_.name;
    std::size_t n = 0;
    for (const auto& [lo, hi] : intervals) {
        appendTo(out, lo, hi);
        n += hi - lo;
    }
    out.shape = {n};
    return out;
}

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

/// A view as an affine walk of its source: element idx (over `shape`) is source element
/// offset + sum(idx[d] * stride[d]). Broadcasts and upsamples are affine over a shape with the
/// repeated dimension split in two (one part with stride 0), which keeps the row-major order.
struct AffineWalk {
    std::vector<std::uint64_t> shape;
    std::vector<std::int64_t> stride;
    std::int64_t offset = 0;

    void add(std::uint64_t size, std::int64_t s) {
        shape.push_back(size);
        stride.push_back(s);
    }

    /// Drops size-1 dimensions and merges neighbours that are contiguous in the source, so
    /// that whole runs are copied at once.
    void simplify() {
        std::vector<std::uint64_t> sh;
        std::vector<std::int64_t> st;
        for (std::size_t d = 0; d < shape.size(); ++d) {
            if (shape[d] == 1)
                continue;
            if (!sh.empty() && st.back() == stride[d] * static_cast<std::int64_t>(shape[d])) {
                sh.back() *= shape[d];
                st.back() = stride[d];
                continue;
            }
            sh.push_back(shape[d]);
            st.push_back(stride[d]);
        }
        shape = std::move(sh);
        stride = std::move(st);
    }
};

/// Builds the view `walk` describes over `src`, with the given logical shape.
TensorView remapAffine(const TensorView& src, std::vector<std::size_t> newShape, AffineWalk walk) {
    TensorView out;
    out.type = src.type;
    out.name = src.name;
    out.shape = std::move(newShape);
    if (product(out.shape) == 0)
        return out;
    walk.simplify();
    if (walk.shape.empty()) {
        walk.add(1, 1);
    }
    FlatIntervalReader reader(src);
    const std::size_t inner = walk.shape.size() - 1;
    const std::uint64_t len = walk.shape[inner];
    const std::int64_t innerStride = walk.stride[inner];
    std::vector<std::uint64_t> idx(inner, 0);
    // A strided inner walk keeps one search hint per position: the next outer step finds each
    // element a few ranges on from where the element of the same position was.
    std::vector<std::size_t> hints(innerStride == 1 ? 0 : len, 0);
    // Strided elements are mostly runs of their own: room for all of them at once.
    if (innerStride != 1)
        out.ranges.reserve(product(out.shape));
    std::int64_t base = walk.offset;
    bool more = true;
    while (more) {
        if (innerStride == 1) {
            reader.appendTo(out, static_cast<std::uint64_t>(base),
                            static_cast<std::uint64_t>(base) + len);
        } else {
            for (std::uint64_t j = 0; j < len; ++j) {
                const auto e = static_cast<std::uint64_t>(base + innerStride * std::int64_t(j));
                reader.appendElement(out, e, hints[j]);
            }
        }
        // Odometer over the outer dimensions, keeping `base` up to date.
        std::size_t d = inner;
        while (d > 0) {
            --d;
            base += walk.stride[d];
            if (++idx[d] < walk.shape[d])
                break;
            base -= walk.stride[d] * static_cast<std::int64_t>(walk.shape[d]);
            idx[d] = 0;
            if (d == 0)
                more = false;
        }
        if (inner == 0)
            more = false;
    }
    if (out.ranges.size() < out.ranges.capacity() / 2) // elements merged into longer runs
        out.ranges.shrink_to_fit();
    return out;
}

/// The identity walk of a view's own shape, as a starting point.
AffineWalk identityWalk(const std::vector<std::size_t>& shape) {
    AffineWalk w;
    const auto s = strides(shape);
    for (std::size_t d = 0; d < shape.size(); ++d)
        w.add(shape[d], static_cast<std::int64_t>(s[d]));
    return w;
}

/// `src` with dimension `dim` repeated `times` over (a zero-stride walk): the whole extent
/// repeated (`outer`, broadcast) or each element repeated in place (upsample).
TensorView repeatAlong(const TensorView& src, unsigned times, unsigned dim, bool outer) {
    auto shape = src.shape;
    shape[dim] *= times;
    const AffineWalk id = identityWalk(src.shape);
    AffineWalk w;
    for (std::size_t d = 0; d < src.shape.size(); ++d) {
        if (d == dim && outer)
            w.add(times, 0); // the repeats are outside the original extent
        w.add(src.shape[d], id.stride[d]);
        if (d == dim && !outer)
            w.add(times, 0); // each element repeated `times` times in place
    }
    return remapAffine(src, shape, std::move(w));
}

} // namespace

TensorView slice(const TensorView& src, std::size_t begin, std::size_t end, unsigned dim) {
    // A slice is one contiguous block of the source's elements per index of the dimensions
    // before `dim`: read the blocks directly (no affine walk).
    TensorView out;
    out.type = src.type;
    out.name = src.name;
    out.shape = src.shape;
    out.shape[dim] = end - begin;
    if (product(out.shape) == 0)
        return out;
    std::uint64_t outer = 1, inner = 1;
    for (unsigned d = 0; d < dim; ++d)
        outer *= src.shape[d];
    for (std::size_t d = dim + 1; d < src.shape.size(); ++d)
        inner *= src.shape[d];
    const std::uint64_t block = src.shape[dim] * inner;
    FlatIntervalReader reader(src);
    for (std::uint64_t o = 0; o < outer; ++o)
        reader.appendTo(out, o * block + begin * inner, o * block + end * inner);
    return out;
}

TensorView dimShuffle(const TensorView& src, const std::vector<unsigned>& permutation) {
    std::vector<std::size_t> shape(permutation.size());
    const AffineWalk id = identityWalk(src.shape);
    AffineWalk w;
    for (std::size_t i = 0; i < permutation.size(); ++i) {
        shape[i] = src.shape[permutation[i]];
        w.add(shape[i], id.stride[permutation[i]]);
    }
    return remapAffine(src, shape, std::move(w));
}

TensorView broadcast(const TensorView& src, unsigned times, unsigned dim) {
    return repeatAlong(src, times, dim, true);
}

TensorView reverse(const TensorView& src, unsigned dim) {
    AffineWalk w = identityWalk(src.shape);
    if (src.shape[dim] > 0) {
        w.offset = static_cast<std::int64_t>(src.shape[dim] - 1) * w.stride[dim];
        w.stride[dim] = -w.stride[dim];
    }
    return remapAffine(src, src.shape, std::move(w));
}

TensorView subSample(const TensorView& src, unsigned stride, unsigned dim) {
    auto shape = src.shape;
    shape[dim] = (shape[dim] + stride - 1) / stride;
    AffineWalk w = identityWalk(src.shape);
    w.shape[dim] = shape[dim];
    w.stride[dim] *= stride;
    return remapAffine(src, shape, std::move(w));
}

TensorView upsample(const TensorView& src, unsigned scale, unsigned dim) {
    return repeatAlong(src, scale, dim, false);
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
    if (outer == 1) {
        for (const auto& p : parts)
            for (const auto& r : p.ranges)
                out.append(r);
        return out;
    }
    std::vector<FlatIntervalReader> readers;
    readers.reserve(parts.size());
    for (const auto& p : parts)
        readers.emplace_back(p);
    for (std::uint64_t o = 0; o < outer; ++o) {
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const std::uint64_t block = product(parts[i].shape) / outer;
            readers[i].appendTo(out, o * block, (o + 1) * block);
        }
    }
    return out;
}

} // namespace views
} // namespace tilescope::sim
