// Two-stage reductions: each tile first reduces the partials of each output it holds, then the
// output's tile reduces one value per contributing tile, in tile order.

#include "popops/ReductionStages.hpp"

#include <algorithm>
#include <map>
#include <poplar/Program.hpp>

namespace popops::detail {

namespace {

/// The partials of one output held by one tile: pieces of the row as [begin, end) columns.
struct TileShare {
    unsigned tile = 0;
    std::vector<std::pair<std::size_t, std::size_t>> pieces;
    std::size_t count = 0;
};

/// The tile of each element of `t` (flattened), from its mapping.
std::vector<unsigned> tilesOf(poplar::Graph& graph, const poplar::Tensor& t) {
    std::vector<unsigned> tiles(t.numElements(), 0);
    const auto mapping = graph.getTileMapping(t, false);
    for (unsigned tile = 0; tile < mapping.size(); ++tile)
        for (const auto& i : mapping[tile])
            for (std::size_t e = i.begin(); e < i.end(); ++e)
                tiles[e] = tile;
    return tiles;
}

/// For each output row, its shares in tile order; empty when the partials are not all mapped.
std::vector<std::vector<TileShare>> sharesByRow(poplar::Graph& graph,
                                                const poplar::Tensor& partials) {
    const std::size_t rows = partials.dim(0), per = partials.dim(1);
    const auto mapping = graph.getTileMapping(partials, false);
    std::vector<std::vector<TileShare>> shares(rows);
    std::size_t covered = 0;
    for (unsigned tile = 0; tile < mapping.size(); ++tile)
        for (const auto& i : mapping[tile]) {
            covered += i.size();
            for (std::size_t row = i.begin() / per; row * per < i.end(); ++row) {
                const std::size_t lo = std::max(i.begin(), row * per) - row * per;
                const std::size_t hi = std::min(i.end(), (row + 1) * per) - row * per;
                auto& rowShares = shares[row];
                if (rowShares.empty() || rowShares.back().tile != tile)
                    rowShares.push_back(TileShare{tile, {}, 0});
                rowShares.back().pieces.emplace_back(lo, hi);
                rowShares.back().count += hi - lo;
            }
        }
    if (covered != partials.numElements())
        shares.clear();
    return shares;
}

/// Whether reducing on the tiles first is needed: some output would receive more than
/// kFinalStageMaxPartials partials from other tiles, and some of those tiles hold several.
bool needsStages(const std::vector<std::vector<TileShare>>& shares,
                 const std::vector<unsigned>& ownerTiles) {
    for (std::size_t row = 0; row < shares.size(); ++row) {
        std::size_t received = 0, senders = 0;
        for (const auto& s : shares[row])
            if (s.tile != ownerTiles[row]) {
                received += s.count;
                ++senders;
            }
        if (received > kFinalStageMaxPartials && senders < received)
            return true;
    }
    return false;
}

} // namespace

bool addStagedReduction(poplar::Graph& graph, const poplar::Tensor& partials,
                        const poplar::Tensor& out, const ReductionStageVertices& vertices,
                        tilescope::poplibs::PoplibsOpDebugInfo& di,
                        std::vector<poplar::ComputeSet>& css) {
    const auto shares = sharesByRow(graph, partials);
    if (shares.empty())
        return false;
    const poplar::Tensor flatOut = out.flatten();
    const std::vector<unsigned> ownerTiles = tilesOf(graph, flatOut);
    if (!needsStages(shares, ownerTiles))
        return false;

    std::size_t values = 0;
    for (const auto& rowShares : shares)
        values += rowShares.size();
    poplar::Tensor perTile =
        graph.addVariable(vertices.intermediateType, {values}, {di, "onTilePartials"});
    poplar::ComputeSet onTile = graph.addComputeSet({di, "reduce/onTile"});
    poplar::ComputeSet finalStage = graph.addComputeSet({di, "reduce/final"});
    std::size_t next = 0;
    for (std::size_t row = 0; row < shares.size(); ++row) {
        const std::size_t first = next;
        for (const auto& share : shares[row]) {
            std::vector<poplar::Tensor> pieces;
            for (const auto& p : share.pieces)
                pieces.push_back(partials[row].slice(p.first, p.second));
            const poplar::Tensor value = perTile.slice(next, next + 1);
            graph.setTileMapping(value, share.tile);
            auto v = graph.addVertex(onTile, vertices.firstStage,
                                     {{"partials", poplar::concat(pieces)}, {"out", value}});
            graph.setInitialValue(v["numPartials"], static_cast<unsigned>(share.count));
            graph.setInitialValue(v["update"], false);
            graph.setTileMapping(v, share.tile);
            graph.setPerfEstimate(v, vertices.cycles(partials.elementType(), share.count, false));
            ++next;
        }
        auto v = graph.addVertex(
            finalStage, vertices.secondStage,
            {{"partials", perTile.slice(first, next)}, {"out", flatOut.slice(row, row + 1)}});
        graph.setInitialValue(v["numPartials"], static_cast<unsigned>(next - first));
        graph.setInitialValue(v["update"], vertices.update);
        if (vertices.scale.valid())
            graph.connect(v["scale"], vertices.scale);
        graph.setTileMapping(v, ownerTiles[row]);
        graph.setPerfEstimate(
            v, vertices.cycles(vertices.intermediateType, next - first, vertices.update));
    }
    css.push_back(onTile);
    css.push_back(finalStage);
    return true;
}

} // namespace popops::detail
