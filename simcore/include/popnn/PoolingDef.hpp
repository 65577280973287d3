#pragma once
// popnn::PoolingType: the pooling operations.

namespace popnn {

/// Maximum, average (over the window's elements that are not padding) or sum of each window.
enum class PoolingType { MAX, AVG, SUM };

} // namespace popnn
