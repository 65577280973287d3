#include "tilescope/sim/TileMappingRuns.hpp"

namespace tilescope::sim {

namespace {
/// Runs between the two ends scanned directly before the per-tile index is worth building.
constexpr std::size_t kScannedRuns = 16;
} // namespace

TileMappingRuns::TileMappingRuns(const GraphModel& model)
    : model_(model), runs_(model.variables.size()) {}

TileMappingRuns::~TileMappingRuns() = default;

void TileMappingRuns::build(std::uint32_t v) const {
    const auto& tileOf = model_.variables.at(v).tileOf;
    auto r = std::make_unique<Runs>();
    for (std::size_t e = 0; e < tileOf.size(); ++e)
        if (e == 0 || tileOf[e] != tileOf[e - 1]) {
            r->starts.push_back(e);
            r->tiles.push_back(tileOf[e]);
        }
    r->starts.push_back(tileOf.size());
    runs_[v] = std::move(r);
}

const TileMappingRuns::Runs& TileMappingRuns::indexedRunsOf(std::uint32_t v) const {
    const auto& r = runsOf(v);
    if (r.byTile.empty() && !r.tiles.empty()) {
        auto& runs = *runs_[v];
        const std::size_t numRuns = runs.tiles.size();
        runs.byTile.reserve(numRuns);
        for (std::size_t k = 0; k < numRuns; ++k)
            runs.byTile.emplace_back(runs.tiles[k], static_cast<std::uint32_t>(k));
        std::sort(runs.byTile.begin(), runs.byTile.end());
        runs.rankOnTile.resize(numRuns);
        for (std::size_t k = 0; k < numRuns; ++k)
            runs.rankOnTile[runs.byTile[k].second] =
                k == 0 || runs.byTile[k - 1].first != runs.byTile[k].first
                    ? 0
                    : runs.rankOnTile[runs.byTile[k - 1].second] + 1;
    }
    return r;
}

bool TileMappingRuns::adjacentOnTile(std::uint32_t v, std::uint32_t tile, std::uint64_t from,
                                     std::uint64_t to) const {
    if (to <= from)
        return to == from;
    const auto& r = runsOf(v);
    const auto t = static_cast<std::int32_t>(tile);
    const std::size_t numRuns = r.tiles.size();
    // Both ends on the tile (as for pieces cut at tile boundaries): neighbours when `from - 1`
    // ends its run, `to` begins its run and the two runs follow each other on the tile.
    if (from > 0 && to < r.starts.back()) {
        const std::size_t a = r.runContaining(from - 1);
        if (r.tiles[a] == t) {
            const std::size_t b = r.runContaining(to);
            if (r.tiles[b] == t) {
                if (r.starts[a + 1] != from || r.starts[b] != to)
                    return false;
                const auto& rank = indexedRunsOf(v).rankOnTile;
                return rank[b] == rank[a] + 1;
            }
        }
    }
    const std::size_t first = r.runContaining(from);
    // A short gap: scan its runs.
    std::size_t i = first;
    for (; i < numRuns && i < first + kScannedRuns && r.starts[i] < to; ++i)
        if (r.tiles[i] == t)
            return false;
    if (i == numRuns || r.starts[i] >= to)
        return true;
    // A long one: is any of the tile's runs among those from i to the one holding `to - 1`?
    const std::size_t last =
        static_cast<std::size_t>(std::upper_bound(r.starts.begin() + static_cast<std::ptrdiff_t>(i),
                                                  r.starts.end(), to - 1) -
                                 r.starts.begin()) -
        1;
    const auto& byTile = indexedRunsOf(v).byTile;
    const auto it = std::lower_bound(byTile.begin(), byTile.end(),
                                     std::make_pair(t, static_cast<std::uint32_t>(i)));
    return it == byTile.end() || it->first != t || it->second > last;
}

} // namespace tilescope::sim
