#pragma once
// popops::dynamicSlice and popops::dynamicUpdate: slices at offsets read from a device tensor at
// run time, and the tensor-creation helpers for them.

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <vector>

namespace popops {

/// PopLibs' slice planning cache. Only declared: the subset has no slice planner, so callers
/// pass nullptr (the default) and a given pointer is ignored.
class PlanningCache;

/// A variable of `shape` and `type` for slicing in `dims` (each dimension of `dims` is sliced
/// with the matching entry of `sizes`), mapped linearly over the tiles in grains of at least
/// `minGrainSize` elements.
poplar::Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                     const std::vector<std::size_t>& shape,
                                     const std::vector<std::size_t>& dims,
                                     const std::vector<std::size_t>& sizes,
                                     std::size_t minGrainSize = 0,
                                     const poplar::DebugContext& debugContext = {});

/// A variable to hold `numIndices` slices of `t`: shape {numIndices} followed by t's shape with
/// each dimension of `dims` replaced by the matching entry of `sizes`; mapped linearly.
poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Tensor& t,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes, std::size_t numIndices,
                                 const poplar::DebugContext& debugContext = {});

/// The sub-tensor of `t` starting at the offsets in `offset` (an UNSIGNED_INT tensor of
/// dims.size() elements, read by the vertices when `prog` runs) in each dimension of `dims`,
/// `sizes` long there and full in the other dimensions. Out-of-range offsets behave as
/// PopLibs' DynamicSlice vertices: an offset >= the dimension's size counts as 0, and a slice
/// that runs past the end of the dimension wraps around to its start. Returns a new variable.
poplar::Tensor dynamicSlice(poplar::Graph& graph, const poplar::Tensor& t,
                            const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {},
                            const poplar::OptionFlags& options = {},
                            PlanningCache* cache = nullptr);

/// Writes `s` into `t` at the offsets in `offset` (as dynamicSlice: same dims, sizes, offset
/// rules, and `s` has the shape dynamicSlice would return).
void dynamicUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                   const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                   const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

} // namespace popops
