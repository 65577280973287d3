#pragma once
// Each variable's tile mapping as runs of consecutive elements on one tile, for the compiler's
// exchange planning: cutting a view into per-tile pieces and asking whether two elements are
// neighbours in a tile's memory then cost a binary search instead of a pass over every element.

#include "tilescope/sim/GraphModel.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace tilescope::sim {

/// The tile mappings of a graph's variables as runs: maximal sequences of consecutive elements
/// mapped to the same tile. A variable's runs are built from its per-element mapping the first
/// time they are asked for and kept (the model must not change meanwhile); the per-tile index
/// behind adjacentOnTile() (each tile's runs in order) is built on first need. Not thread-safe:
/// one per compilation.
class TileMappingRuns {
public:
    explicit TileMappingRuns(const GraphModel& model);
    ~TileMappingRuns();
    TileMappingRuns(const TileMappingRuns&) = delete;
    TileMappingRuns& operator=(const TileMappingRuns&) = delete;

    /// Calls fn(tile, begin, end) for each run of elements [begin, end) of variable `v` that lie
    /// on one tile, in element order (runs clipped to the range). Elements must be mapped.
    template <typename Fn>
    void forEachRun(std::uint32_t v, std::uint64_t begin, std::uint64_t end, Fn&& fn) const {
        if (begin >= end)
            return;
        const Runs& r = runsOf(v);
        for (std::size_t i = r.runContaining(begin); begin < end; ++i) {
            const std::uint64_t e = std::min(end, r.starts[i + 1]);
            fn(static_cast<std::uint32_t>(r.tiles[i]), begin, e);
            begin = e;
        }
    }

    /// The tile of element `e` of variable `v`.
    std::int32_t tileOf(std::uint32_t v, std::uint64_t e) const {
        const Runs& r = runsOf(v);
        return r.tiles[r.runContaining(e)];
    }

    /// Whether elements [from, to) of variable `v` hold nothing of it on `tile`, so that the
    /// element before `from` and the one at `to` are neighbours in the tile's memory (a
    /// variable's part on a tile is stored in element order). False when to < from.
    bool adjacentOnTile(std::uint32_t v, std::uint32_t tile, std::uint64_t from,
                        std::uint64_t to) const;

    /// Runs of variable `v` (for tests and figures).
    std::size_t numRuns(std::uint32_t v) const { return runsOf(v).tiles.size(); }

private:
    struct Runs {
        std::vector<std::uint64_t> starts; ///< first element of each run, then numElements
        std::vector<std::int32_t> tiles;   ///< tile of each run
        /// (tile, run) sorted: the runs on each tile in element order; empty until needed.
        std::vector<std::pair<std::int32_t, std::uint32_t>> byTile;
        /// Each run's place among its tile's runs (built with byTile).
        std::vector<std::uint32_t> rankOnTile;
        /// The run last found: queries in element order land in it or a few runs on.
        mutable std::size_t hint = 0;
        std::size_t runContaining(std::uint64_t e) const {
            auto from = starts.begin(), to = starts.end();
            if (starts[hint] <= e) {
                if (e < starts[hint + 1])
                    return hint;
                // Gallop forward from the hint: the run is at most `step` runs past `lo`.
                std::size_t lo = hint + 1, step = 1;
                while (lo + step < starts.size() && starts[lo + step] <= e) {
                    lo += step;
                    step *= 2;
                }
                from = starts.begin() + static_cast<std::ptrdiff_t>(lo);
                to = starts.begin() +
                     static_cast<std::ptrdiff_t>(std::min(lo + step, starts.size()));
            } else {
                to = starts.begin() + static_cast<std::ptrdiff_t>(hint);
            }
            hint = static_cast<std::size_t>(std::upper_bound(from, to, e) - starts.begin()) - 1;
            return hint;
        }
    };
    const Runs& runsOf(std::uint32_t v) const {
        if (!runs_[v])
            build(v);
        return *runs_[v];
    }
    void build(std::uint32_t v) const;
    /// runsOf(v) with byTile and rankOnTile built.
    const Runs& indexedRunsOf(std::uint32_t v) const;

    const GraphModel& model_;
    mutable std::vector<std::unique_ptr<Runs>> runs_;
};

} // namespace tilescope::sim
