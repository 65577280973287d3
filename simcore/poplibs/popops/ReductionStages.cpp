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

/// One output of a stage: the tile it is reduced on, its partials (`count` elements in all, in
/// one or more tensors) and where the result goes.
struct StageItem {
    unsigned tile;
    std::vector<poplar::Tensor> partials;
    std::size_t count;
    poplar::Tensor out;
};

/// Adds `items` to `cs` as PopLibs deals a tile's reductions to its workers: per tile, runs of
/// consecutive outputs with the same partials count, at most a worker's share each, one vertex
/// reducing several outputs.
void addStageVertices(poplar::Graph& graph, poplar::ComputeSet cs, const std::string& vertexType,
                      const poplar::Type& partialsType, bool update, const poplar::Tensor& scale,
                      const ReductionStageVertices& vertices, const std::vector<StageItem>& items) {
    std::map<unsigned, std::vector<const StageItem*>> byTile;
    for (const auto& item : items)
        byTile[item.tile].push_back(&item);
    const std::size_t workers = graph.getTarget().getNumWorkerContexts();
    for (const auto& [tile, list] : byTile) {
        const std::size_t chunk = (list.size() + workers - 1) / workers;
        for (std::size_t begin = 0; begin < list.size();) {
            const std::size_t count = list[begin]->count;
            std::size_t end = begin;
            std::vector<poplar::Tensor> partials, outs;
            while (end < list.size() && end - begin < chunk && list[end]->count == count) {
                partials.insert(partials.end(), list[end]->partials.begin(),
                                list[end]->partials.end());
                outs.push_back(list[end]->out);
                ++end;
            }
            auto v = graph.addVertex(
                cs, vertexType,
                {{"partials", poplar::concat(partials)}, {"out", poplar::concat(outs)}});
            graph.setInitialValue(v["numPartials"], static_cast<unsigned>(count));
            graph.setInitialValue(v["update"], update);
            if (scale.valid())
                graph.connect(v["scale"], scale);
            graph.setTileMapping(v, tile);
            graph.setPerfEstimate(v, vertices.cycles(partialsType, end - begin, count, update));
            begin = end;
        }
    }
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

    // The first stage, as PopLibs' ReduceOnTile: each tile reduces the partials it holds of
    // each output into one value. The values are laid out tile by tile, so that the outputs a
    // vertex reduces are adjacent.
    std::map<unsigned, std::vector<std::pair<std::size_t, std::size_t>>> byTile; // (row, share)
    std::size_t values = 0;
    for (std::size_t row = 0; row < shares.size(); ++row)
        for (std::size_t s = 0; s < shares[row].size(); ++s) {
            byTile[shares[row][s].tile].emplace_back(row, s);
            ++values;
        }
    poplar::Tensor perTile =
        graph.addVariable(vertices.intermediateType, {values}, {di, "onTilePartials"});
    poplar::ComputeSet onTile = graph.addComputeSet({di, "reduce/onTile"});
    const poplar::Tensor flatPartials = partials.flatten();
    tilescope::sim::views::FlatIntervalReader reader(flatPartials.view());
    const std::size_t per = partials.dim(1);
    // Where each (row, share) value lives in perTile.
    std::vector<std::vector<std::size_t>> valueOf(shares.size());
    for (std::size_t row = 0; row < shares.size(); ++row)
        valueOf[row].resize(shares[row].size());
    std::vector<StageItem> firstItems;
    firstItems.reserve(values);
    for (const auto& [tile, items] : byTile)
        for (const auto& [row, s] : items) {
            const auto& share = shares[row][s];
            std::vector<std::pair<std::uint64_t, std::uint64_t>> flat;
            for (const auto& p : share.pieces)
                flat.emplace_back(row * per + p.first, row * per + p.second);
            const std::size_t value = firstItems.size();
            valueOf[row][s] = value;
            const poplar::Tensor out = perTile.slice(value, value + 1);
            graph.setTileMapping(out, tile);
            firstItems.push_back({tile, {poplar::Tensor(reader.gather(flat))}, share.count, out});
        }
    addStageVertices(graph, onTile, vertices.firstStage, partials.elementType(), false,
                     poplar::Tensor(), vertices, firstItems);
    css.push_back(onTile);

    // Each row's values, (tile, element), in tile order. While a row has more than PopLibs' final
    // stage reads, a further stage reduces them in groups of at most that many, each group on
    // the tile of its first value (one value stays local), as PopLibs adds reduction stages.
    std::vector<std::vector<std::pair<unsigned, poplar::Tensor>>> rowValues(shares.size());
    for (std::size_t row = 0; row < shares.size(); ++row)
        for (std::size_t s = 0; s < shares[row].size(); ++s)
            rowValues[row].emplace_back(shares[row][s].tile,
                                        perTile.slice(valueOf[row][s], valueOf[row][s] + 1));
    for (unsigned stage = 2;; ++stage) {
        std::size_t needed = 0;
        for (const auto& values : rowValues)
            if (values.size() > kFinalStageMaxPartials)
                needed += (values.size() + kFinalStageMaxPartials - 1) / kFinalStageMaxPartials;
        if (needed == 0)
            break;
        poplar::Tensor reduced =
            graph.addVariable(vertices.intermediateType, {needed}, {di, "reducedPartials"});
        poplar::ComputeSet cs = graph.addComputeSet({di, "reduce/stage" + std::to_string(stage)});
        std::size_t k = 0;
        std::vector<StageItem> items;
        for (auto& values : rowValues) {
            if (values.size() <= kFinalStageMaxPartials)
                continue;
            const std::size_t groups =
                (values.size() + kFinalStageMaxPartials - 1) / kFinalStageMaxPartials;
            const std::size_t size = (values.size() + groups - 1) / groups;
            std::vector<std::pair<unsigned, poplar::Tensor>> next;
            for (std::size_t begin = 0; begin < values.size(); begin += size) {
                const std::size_t end = std::min(values.size(), begin + size);
                StageItem item{values[begin].first, {}, end - begin, reduced.slice(k, k + 1)};
                ++k;
                for (std::size_t i = begin; i < end; ++i)
                    item.partials.push_back(values[i].second);
                graph.setTileMapping(item.out, item.tile);
                next.emplace_back(item.tile, item.out);
                items.push_back(std::move(item));
            }
            values = std::move(next);
        }
        addStageVertices(graph, cs, vertices.intermediateStage, vertices.intermediateType, false,
                         poplar::Tensor(), vertices, items);
        css.push_back(cs);
    }

    poplar::ComputeSet finalStage = graph.addComputeSet({di, "reduce/final"});
    std::vector<StageItem> items;
    for (std::size_t row = 0; row < shares.size(); ++row) {
        StageItem item{ownerTiles[row], {}, rowValues[row].size(), flatOut.slice(row, row + 1)};
        for (const auto& v : rowValues[row])
            item.partials.push_back(v.second);
        items.push_back(std::move(item));
    }
    addStageVertices(graph, finalStage, vertices.secondStage, vertices.intermediateType,
                     vertices.update, vertices.scale, vertices, items);
    css.push_back(finalStage);
    return true;
}

} // namespace popops::detail
