#pragma once
// Tensors: typed, shaped references to variable elements. Views share storage.

#include "poplar/ArrayRef.hpp"
#include "poplar/Interval.hpp"
#include "poplar/Type.hpp"
#include "tilescope/sim/TensorView.hpp"

// SDK programs rely on poplar's main headers bringing in the standard headers they use.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace poplar {

enum class UpsampleMethod { REPEAT };

/// A reference to a subset of the elements of one or more variables, with a shape and element
/// type. Every view operation (slice, reshape, transpose, ...) returns a new Tensor over the same
/// elements: writing through one view is visible through all. Invalid arguments throw index_error
/// or tensor_creation_error naming the tensor.
class Tensor {
public:
    Tensor() = default;
    explicit Tensor(tilescope::sim::TensorView view)
        : view_(std::make_shared<const tilescope::sim::TensorView>(std::move(view))) {}

    bool valid() const { return view_ != nullptr; }
    Type elementType() const;
    std::vector<std::size_t> shape() const;
    unsigned rank() const;
    std::size_t dim(unsigned i) const;
    std::size_t numElements() const;

    /// Sub-tensor at index i of the outermost dimension (rank drops by one).
    Tensor operator[](std::size_t i) const;
    /// Elements [begin, end) of dimension `dimension`.
    Tensor slice(std::size_t begin, std::size_t end, unsigned dimension = 0) const;
    Tensor slice(const Interval& region, unsigned dimension = 0) const;
    /// Multi-dimensional slice: begin[d] to end[d] in every dimension d.
    Tensor slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const;
    std::vector<Tensor> slices(ArrayRef<Interval> intervals, unsigned dimension = 0) const;
    /// The element (or sub-tensor) at a multi-dimensional index.
    Tensor index(ArrayRef<std::size_t> indices) const;

    Tensor reshape(ArrayRef<std::size_t> shape) const;
    Tensor flatten() const;
    /// Merges dimensions [dimBegin, dimEnd) into one.
    Tensor flatten(unsigned dimBegin, unsigned dimEnd) const;
    Tensor transpose() const;
    Tensor dimShuffle(ArrayRef<unsigned> permutation) const;
    Tensor dimRoll(unsigned dimIdx, unsigned newIdx = 0) const;
    Tensor broadcast(unsigned N, unsigned dimension) const;
    /// Inserts singleton dimensions at the given positions.
    Tensor expand(ArrayRef<std::size_t> indices) const;
    /// Removes the given singleton dimensions.
    Tensor squeeze(ArrayRef<std::size_t> indices) const;
    Tensor reverse(unsigned dimension) const;
    Tensor subSample(unsigned stride, unsigned dimension) const;
    Tensor upsample(unsigned scale, unsigned dimension,
                    UpsampleMethod method = UpsampleMethod::REPEAT) const;

    /// True if the tensor's elements are one run of one variable.
    bool isContiguous() const;
    /// True if some element appears more than once.
    bool containsAliases() const;
    std::string shapeToString() const;
    /// The debug name of the variable the tensor was derived from.
    const std::string& getName() const;

    /// The simulator's view (variable ranges in row-major order).
    const tilescope::sim::TensorView& view() const;

private:
    const tilescope::sim::TensorView& checkedView(const char* what) const;
    std::shared_ptr<const tilescope::sim::TensorView> view_;
};

Tensor concat(ArrayRef<Tensor> ts, unsigned dimension = 0);
inline Tensor concat(const Tensor& first, const Tensor& second, unsigned dimension = 0) {
    const Tensor both[] = {first, second};
    return concat(ArrayRef<Tensor>(both, 2), dimension);
}
/// `second` added as a new element at the end of `dimension` of `first`.
Tensor append(const Tensor& first, const Tensor& second, unsigned dimension);

std::ostream& operator<<(std::ostream& os, const Tensor& t);

} // namespace poplar
