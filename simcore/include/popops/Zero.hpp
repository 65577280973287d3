#pragma once
// popops::zero: set elements of a tensor to zero, as a program step or as vertices added to a
// compute set the caller executes.

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <vector>

namespace popops {

/// Adds vertices to `zeroCS` on `tile` that zero the elements of `t` (flattened) in
/// `tileRegions`. The caller executes `zeroCS`; the elements need not live on `tile`.
void zero(poplar::Graph& graph, poplar::Tensor t, const std::vector<poplar::Interval>& tileRegions,
          unsigned tile, poplar::ComputeSet zeroCS);
/// Adds vertices to `zeroCS` on `tile` zeroing all of `t`.
void zero(poplar::Graph& graph, const poplar::Tensor& t, unsigned tile, poplar::ComputeSet zeroCS);
/// Adds vertices to `zeroCS` zeroing, on each tile of `mapping`, the elements of `t` (flattened)
/// that `mapping` gives that tile.
void zero(poplar::Graph& graph, const poplar::Tensor& t,
          const std::vector<std::vector<poplar::Interval>>& mapping, poplar::ComputeSet zeroCS);
/// Adds a compute set to `prog` zeroing every element of `t` where it lives (as popops::fill
/// with 0: FLOAT, HALF, INT, UNSIGNED_INT and BOOL).
void zero(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext = {});

} // namespace popops
