#include "poputil/TileMapping.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

namespace poputil {

namespace {

std::size_t product(const std::vector<std::size_t>& shape) {
    std::size_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

/// Elements per used tile of the linear mapping (a multiple of the grain size).
std::size_t linearElementsPerTile(std::size_t numElements, std::size_t numTiles,
                                  unsigned minElementsPerTile, unsigned grainSize) {
    const std::size_t grains = (numElements + grainSize - 1) / grainSize;
    const std::size_t grainsPerTile = std::max<std::size_t>(
        (grains + numTiles - 1) / numTiles, (minElementsPerTile + grainSize - 1) / grainSize);
    return std::max<std::size_t>(grainsPerTile, 1) * grainSize;
}

} // namespace

std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 std::vector<std::size_t> shape,
                                                                 unsigned minElementsPerTile,
                                                                 unsigned grainSize) {
    if (grainSize == 0)
        throw poputil::poplibs_error("calcLinearTileMapping: the grain size must be at least 1");
    const std::size_t numTiles = graph.getTarget().getNumTiles();
    const std::size_t n = product(shape);
    std::vector<std::vector<poplar::Interval>> mapping(numTiles);
    const std::size_t perTile = linearElementsPerTile(n, numTiles, minElementsPerTile, grainSize);
    for (std::size_t begin = 0, tile = 0; begin < n; begin += perTile, ++tile)
        mapping[std::min(tile, numTiles - 1)].emplace_back(begin, std::min(n, begin + perTile));
    return mapping;
}

std::vector<std::vector<poplar::Interval>> calcLinearTileMapping(const poplar::Graph& graph,
                                                                 const poplar::Tensor& t) {
    const auto& target = graph.getTarget();
    const unsigned typeSize = target.getTypeSize(t.elementType());
    return calcLinearTileMapping(graph, t.shape(), (128 + typeSize - 1) / typeSize,
                                 target.getVectorWidth(t.elementType()));
}

void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t, unsigned minElementsPerTile,
                       unsigned grainSize) {
    graph.setTileMapping(t, calcLinearTileMapping(graph, t.shape(), minElementsPerTile, grainSize));
}

void mapTensorLinearly(poplar::Graph& graph, const poplar::Tensor& t) {
    graph.setTileMapping(t, calcLinearTileMapping(graph, t));
}

std::size_t getTileImbalance(const poplar::Graph::TileToTensorMapping& mapping,
                             unsigned minElementsPerTile, unsigned grainSize) {
    if (grainSize == 0)
        throw poputil::poplibs_error("getTileImbalance: the grain size must be at least 1");
    if (mapping.empty())
        return 0;
    std::size_t total = 0, fullest = 0;
    for (const auto& intervals : mapping) {
        std::size_t onTile = 0;
        for (const auto& i : intervals)
            onTile += i.size();
        total += onTile;
        fullest = std::max(fullest, onTile);
    }
    const std::size_t balanced = std::min(
        total, linearElementsPerTile(total, mapping.size(), minElementsPerTile, grainSize));
    return fullest > balanced ? fullest - balanced : 0;
}

std::size_t getTileImbalance(const poplar::Graph& graph, const poplar::Tensor& t,
                             unsigned minElementsPerTile, unsigned grainSize) {
    return getTileImbalance(graph.getTileMapping(t), minElementsPerTile, grainSize);
}

} // namespace poputil
