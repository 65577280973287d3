#pragma once
// popops::fill: set every element of a tensor (popops::zero is in popops/Zero.hpp).

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <popops/Zero.hpp>
#include <vector>

namespace popops {

/// Adds a compute set to `prog` writing `fillValue` (converted to t's element type) to every
/// element of `t` (FLOAT, HALF, INT, UNSIGNED_INT and BOOL tensors; non-zero is true).
void fill(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          double fillValue, const poplar::DebugContext& debugContext = {});
/// Adds vertices to `fillCS` on `tile` writing `fillValue` to the elements of `t` (flattened)
/// in `tileRegions`; the caller executes `fillCS`.
void fill(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet fillCS, double fillValue);
/// Adds vertices to `fillCS` on `tile` filling all of `t`.
void fill(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet fillCS,
          double fillValue);
/// Adds vertices to `fillCS` filling, on each tile of `mapping`, the elements of `t`
/// (flattened) that `mapping` gives that tile.
void fill(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet fillCS,
          double fillValue);

} // namespace popops
