#pragma once
// HostTensor: a tensor's values on the host (initializers, Constant nodes, folded subgraphs),
// held as doubles: exact for every integer a shape or index holds and for FLOAT and FLOAT16.

#include <popart/tensorinfo.hpp>
#include <vector>

namespace popart {

struct HostTensor {
    TensorInfo info;
    std::vector<double> values; // row-major, info.nelms() of them

    /// The values as integers (shape, axes, indices).
    std::vector<int64_t> ints() const { return std::vector<int64_t>(values.begin(), values.end()); }
};

/// Reads `n` elements of `type` at `data` as doubles; popart::error for STRING/COMPLEX.
std::vector<double> hostValues(const void* data, DataType type, std::size_t n);
/// Writes `values` as elements of `type` to `data`.
void writeHostValues(const std::vector<double>& values, DataType type, void* data);

} // namespace popart
