#pragma once
// poputil tile mapping helpers: spreading a tensor's elements evenly over the tiles of a graph.

#include <cstddef>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <vector>

namespace poputil {

/// The linear mapping of a tensor of `shape`: its flattened elements in grains of `grainSize`,
/// consecutive grains on consecutive tiles, each used tile holding at least `minElementsPerTile`
/// elements (except possibly the last). Throws poplar::poplar_error for a zero grain size.
std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 std::vector<std::size_t> shape,
                                                                 unsigned minElementsPerTile,
                                                                 unsigned grainSize);
/// As above with PopLibs' defaults: 128 bytes per tile at least, one vector-width grain.
std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t);

/// Maps `t` with calcLinearTileMapping.
void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t, unsigned minElementsPerTile,
                       unsigned grainSize);
void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t);

/// How many more elements the fullest tile holds than a perfectly balanced linear mapping (with
/// the same grain size and minimum) would put on any tile; 0 for a balanced mapping.
std::size_t getTileImbalance(const poplar::Graph::TileToTensorMapping& mapping,
                             unsigned minElementsPerTile = 0, unsigned grainSize = 1);
std::size_t getTileImbalance(const poplar::Graph& graph, const poplar::Tensor& t,
                             unsigned minElementsPerTile = 0, unsigned grainSize = 1);

} // namespace poputil
