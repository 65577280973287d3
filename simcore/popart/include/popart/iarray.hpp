#pragma once
// IArray: an n-dimensional host array the session reads inputs from and writes anchors to.

#include <cstddef>
#include <popart/tensorinfo.hpp>

namespace popart {

/// An n-dimensional host array of one element type, contiguous and row-major: the interface
/// StepIO and WeightsIO use, implemented by NDArrayWrapper (and by numpy arrays in Python).
class IArray {
public:
    virtual ~IArray() = default;
    virtual void* data() = 0;
    virtual DataType dataType() const = 0;
    virtual std::size_t rank() const = 0;
    virtual int64_t dim(std::size_t index) const = 0;
    virtual std::size_t nelms() const = 0;
    virtual const Shape shape() const = 0;
};

} // namespace popart
