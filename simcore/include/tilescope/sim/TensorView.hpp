#pragma once
// The simulator's model of a tensor: an element type, a shape and, in row-major order, the runs of
// variable elements it refers to. Views (slices, transposes, concatenations) are new lists of runs
// over the same variables, so they alias storage exactly like Poplar tensors do.

#include "tilescope/sim/ElementType.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tilescope {
namespace sim {

/// Elements [begin, end) of one variable.
struct ElementRange {
    std::uint32_t variable = 0;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint64_t size() const { return end - begin; }
    friend bool operator==(const ElementRange& a, const ElementRange& b) {
        return a.variable == b.variable && a.begin == b.begin && a.end == b.end;
    }
    friend bool operator!=(const ElementRange& a, const ElementRange& b) { return !(a == b); }
};

/// A tensor: element type, shape, and its elements as variable ranges in row-major order.
/// `name` is the debug name of the variable it was derived from, used in error messages.
struct TensorView {
    ElementType type = ElementType::Float;
    std::vector<std::size_t> shape;
    std::vector<ElementRange> ranges;
    std::string name;

    std::uint64_t numElements() const;
    /// Appends a range, merging it with the last one when contiguous.
    void append(const ElementRange& r);
};

/// Shape-changing operations on views. They assume validated arguments: the Poplar face checks
/// them first and reports errors naming the tensor.
namespace views {

/// Elements [begin, end) along `dim` for every other index.
TensorView slice(const TensorView& src, std::size_t begin, std::size_t end, unsigned dim);
TensorView dimShuffle(const TensorView& src, const std::vector<unsigned>& permutation);
TensorView broadcast(const TensorView& src, unsigned times, unsigned dim);
TensorView reverse(const TensorView& src, unsigned dim);
TensorView subSample(const TensorView& src, unsigned stride, unsigned dim);
TensorView upsample(const TensorView& src, unsigned scale, unsigned dim);
TensorView concat(const std::vector<TensorView>& parts, unsigned dim);

/// Reads flat element intervals of a view (its elements in row-major order) as variable ranges.
/// Range starts are summed lazily and the last range used is remembered, so many increasing
/// intervals of one view cost one pass over its ranges instead of one pass each: build one
/// reader per view when cutting it into many pieces.
class FlatIntervalReader {
public:
    explicit FlatIntervalReader(const TensorView& v);
    /// Appends elements [lo, hi) (flat indices, hi <= the view's element count) to `out`.
    void appendTo(TensorView& out, std::uint64_t lo, std::uint64_t hi);
    /// Appends element `flat` to `out`, looking for its range from range `*hint` (forwards by
    /// galloping, backwards by binary search) and leaving it there: a walk that keeps one hint
    /// per position of a strided pass (a transpose's rows) moves each hint a few ranges a step.
    void appendElement(TensorView& out, std::uint64_t flat, std::size_t& hint);
    /// A one-dimensional view of the given [lo, hi) element intervals, in order.
    TensorView gather(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& intervals);

private:
    std::size_t find(std::uint64_t flat);
    /// The range holding `flat`, searched from range `hint`: forwards by galloping, backwards by
    /// binary search.
    std::size_t locate(std::uint64_t flat, std::size_t hint);
    /// Sums range starts until the range holding `flat` has its end in starts_.
    void extendTo(std::uint64_t flat);
    const TensorView& view_;
    std::vector<std::uint64_t> starts_; ///< starts_[i]: flat index of range i's first element
    std::size_t hint_ = 0;
    /// Consecutive ranges of one size, of those summed so far.
    struct Segment {
        std::size_t firstRange, count;
        std::uint64_t size;
    };
    std::vector<Segment> segments_;
    std::size_t segmentHint_ = 0;
    bool emptyRange_ = false; ///< a range of no elements was summed (no segments then)
};

/// Row-major strides of a shape.
std::vector<std::uint64_t> strides(const std::vector<std::size_t>& shape);
std::uint64_t product(const std::vector<std::size_t>& shape);

} // namespace views
} // namespace sim
} // namespace tilescope
