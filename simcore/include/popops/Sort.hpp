#pragma once
// popops sorting (PopLibs' popops/Sort.hpp): every 1D slice of a tensor along one dimension put
// in ascending order, alone or carrying a second tensor permuted alike.

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new tensor of t's shape and type holding `t` with every 1D slice along dimension `dim` in
/// ascending order (FLOAT, HALF, INT or UNSIGNED_INT). Equal elements keep their input order.
poplar::Tensor sort(poplar::Graph& graph, const poplar::Tensor& t, unsigned dim,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// As sort, writing the sorted elements back into `t`.
void sortInPlace(poplar::Graph& graph, const poplar::Tensor& t, unsigned dim,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {});

/// A new tensor holding `v` (the shape of `k`) permuted along `dim` as sorting the keys `k` in
/// ascending order permutes them; equal keys keep their input order. `k` and `v` must not alias.
poplar::Tensor sortKeyValue(poplar::Graph& graph, const poplar::Tensor& k, const poplar::Tensor& v,
                            unsigned dim, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {});

/// As sortKeyValue, writing the sorted keys back into `k` and the permuted values into `v`.
void sortKeyValueInPlace(poplar::Graph& graph, const poplar::Tensor& k, const poplar::Tensor& v,
                         unsigned dim, poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext = {});

} // namespace popops
