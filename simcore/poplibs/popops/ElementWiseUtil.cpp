// popops::createOutputForElementWiseOp: an output laid out like the best of its inputs.

#include "popops/ElementWiseUtil.hpp"

#include "common/ElementWiseBuilder.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

namespace {

/// How an input is spread over the tiles; only complete, alias-free inputs are candidates.
struct Spread {
    bool candidate = false;
    std::size_t busiestTileElements = 0;
    unsigned tiles = 0;
    std::size_t regions = 0;

    /// PopLibs' preference: less on the busiest tile, then more tiles, then fewer regions.
    bool betterThan(const Spread& o) const {
        if (busiestTileElements != o.busiestTileElements)
            return busiestTileElements < o.busiestTileElements;
        if (tiles != o.tiles)
            return tiles > o.tiles;
        return regions < o.regions;
    }
};

Spread spreadOf(const poplar::Graph& graph, const poplar::Tensor& t) {
    Spread s;
    if (t.containsAliases())
        return s;
    const auto mapping = graph.getTileMapping(t, false);
    std::size_t covered = 0;
    for (const auto& intervals : mapping) {
        if (intervals.empty())
            continue;
        std::size_t onTile = 0;
        for (const auto& i : intervals)
            onTile += i.size();
        covered += onTile;
        ++s.tiles;
        s.regions += intervals.size();
        s.busiestTileElements = std::max(s.busiestTileElements, onTile);
    }
    s.candidate = covered == t.numElements();
    return s;
}

} // namespace

poplar::Tensor createOutputForElementWiseOp(poplar::Graph& graph,
                                            const std::vector<poplar::Tensor>& inputs,
                                            const poplar::Type& outputType,
                                            const poplar::DebugContext& debugContext) {
    tilescope::poplibs::PoplibsOpDebugInfo di(debugContext, DI_ARGS(inputs, outputType),
                                              "createOutputForElementWiseOp");
    const std::string api = "popops::createOutputForElementWiseOp";
    if (inputs.empty())
        throw poputil::poplibs_error(api + ": at least one input tensor is needed as a reference");
    for (std::size_t i = 1; i < inputs.size(); ++i)
        if (inputs[i].shape() != inputs[0].shape())
            throw poputil::poplibs_error(
                api + ": input '" + inputs[i].getName() + "' of shape " +
                inputs[i].shapeToString() + " differs from input '" + inputs[0].getName() +
                "' of shape " + inputs[0].shapeToString() + "; all inputs must have one shape");
    int best = -1;
    Spread bestSpread;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const Spread s = spreadOf(graph, inputs[i]);
        if (s.candidate && (best < 0 || s.betterThan(bestSpread))) {
            best = static_cast<int>(i);
            bestSpread = s;
        }
    }
    if (best < 0 && inputs[0].numElements() == 1) {
        // A scalar output goes with the first input when that is mapped at all.
        const auto mapping = graph.getTileMapping(inputs[0], false);
        for (unsigned tile = 0; tile < mapping.size(); ++tile)
            if (!mapping[tile].empty()) {
                poplar::Tensor out = graph.addVariable(outputType, inputs[0].shape(), {di, "out"});
                graph.setTileMapping(out, tile);
                return out;
            }
    }
    if (best >= 0)
        return graph.clone(outputType, inputs[best], {di, "out"});
    poplar::Tensor out = graph.addVariable(outputType, inputs[0].shape(), {di, "out"});
    poputil::mapTensorLinearly(graph, out);
    return out;
}

} // namespace popops
