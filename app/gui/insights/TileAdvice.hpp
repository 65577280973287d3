#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <QString>
#include <cstdint>
#include <vector>

namespace tilescope::gui {

/// What fills one tile and what to change to make it fit, for the Insights view: the tile's
/// memory by category, the variables with bytes on it (largest there first), its vertices (by
/// type and compute set, with their state) and the exchanges it takes part in (with its cycles
/// there; the report keeps no tile's share of their bytes), and recommendations
/// computed from the report, each with the bytes it would save on the tile and why. The savings
/// are first-order estimates from the report's own figures (what a variable holds on the tile,
/// its element type, its live range, the operation that created it), not a recompilation:
/// - spread a variable's mapping: it holds more here than twice its even share over all tiles;
///   mapped evenly it would hold bytes / tiles;
/// - use HALF: 4-byte float variables on the tile would take half;
/// - recompute: the not-always-live variable on the tile live the longest, freed for its range;
/// - lower availableMemoryProportion: not-always-live variables of a matMul or a convolution
///   are its temporaries, which the planner keeps under that share of the tile's memory; halving
///   it (0.6 to 0.3) saves at most what lies above the new bound (nothing, and no
///   recommendation, when they already fit under it; the smaller plan's reduction partials and
///   exchange code, which the report cannot foresee, may eat into it);
/// - halve the batch: not-always-live memory (activations) scales with the batch size.
struct TileAdvice {
    struct Part {
        QString kind; ///< "category", "variable", "vertices" or "exchange"
        QString name;
        std::uint64_t bytes = 0; ///< on the tile (0 for an exchange)
        QString detail;          ///< element type and live range of a variable
    };
    struct Recommendation {
        QString action;
        QString scope; ///< what the change applies to: "tile", "operation", "model"
        std::uint64_t savingBytes = 0;
        QString why;
    };

    std::int64_t tile = -1;
    std::uint64_t bytes = 0; ///< the tile's memory, gaps included
    std::uint64_t capacity = 0;
    std::vector<Part> parts;
    std::vector<Recommendation> recommendations; ///< largest saving first

    /// Most variables listed in `parts`.
    static constexpr std::size_t kVariables = 30;
    /// The advice for the fullest tile of `reader`'s report (no tiles: an empty advice).
    static TileAdvice fullestTile(const report::ProfileReader& reader);
    /// The advice for `tile`.
    static TileAdvice forTile(const report::ProfileReader& reader, std::uint32_t tile);
};

} // namespace tilescope::gui
