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

bool TileMappingRuns::adjacentOnTile(std::uint32_t v, std::uint32_t tile, std::uint64_t from,
                                     std::uint64_t to) const {
    if (to <= from)
        return to == from;
    const auto& r = runsOf(v);
    const auto t = static_cast<std::int32_t>(tile);
    const std::size_t first = r.runContaining(from), numRuns = r.tiles.size();
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
    if (r.byTile.empty()) {
        auto& byTile = runs_[v]->byTile;
        byTile.reserve(numRuns);
        for (std::size_t k = 0; k < numRuns; ++k)
            byTile.emplace_back(r.tiles[k], static_cast<std::uint32_t>(k));
        std::sort(byTile.begin(), byTile.end());
    }
    const auto it = std::lower_bound(r.byTile.begin(), r.byTile.end(),
                                     std::make_pair(t, static_cast<std::uint32_t>(i)));
    return it == r.byTile.end() || it->first != t || it->second > last;
}

} // namespace tilescope::sim
