#pragma once
// poprand: tensors of pseudo-random values drawn on the device.

#include <cstdint>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace poprand {

/// Values uniformly distributed over [minVal, maxVal) for FLOAT and HALF, over the integers of
/// [minVal, maxVal] for INT, in a new tensor laid out and mapped like `reference`.
///
/// The generator is counter-based: each element's value is a hash of the seed, `seedModifier`
/// and the element's index in `reference`, so it depends on neither the tile mapping nor the
/// host thread count, and the same seed gives the same tensor on every run. `seed`, when not
/// null, is an UNSIGNED_INT tensor of two elements read when `prog` runs. A null `seed` (where a
/// device would use its hardware generator state) uses seed {0, 0} with this call's operation
/// id in place of `seedModifier`, so separate calls differ and runs repeat.
poplar::Tensor uniform(poplar::Graph& graph, const poplar::Tensor* seed, std::uint32_t seedModifier,
                       const poplar::Tensor& reference, const poplar::Type& outType, double minVal,
                       double maxVal, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext = {});

/// Normally distributed values of the given mean and standard deviation (Box-Muller over two
/// of the uniform generator's draws per element), FLOAT or HALF, otherwise as uniform().
poplar::Tensor normal(poplar::Graph& graph, const poplar::Tensor* seed, std::uint32_t seedModifier,
                      const poplar::Tensor& reference, const poplar::Type& outType, double mean,
                      double stdDev, poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {});

} // namespace poprand
