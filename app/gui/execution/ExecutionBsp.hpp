#pragma once

#include "ExecutedStep.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <cstdint>
#include <vector>

namespace tilescope::gui {

/// How each tile of a tile range spends each executed step of a cycle window, for the Execution
/// Trace's BSP view: a tile works for its own cycles of the step (computing, exchanging, copying
/// streams), then waits at the sync for the slowest tile. Per-tile cycles are read only when the
/// window holds at most `maxSteps` steps (zoomed in); otherwise `tooManySteps` is set and nothing
/// is read, since there is no per-tile level-of-detail data to show zoomed out.
struct BspBands {
    struct Step : ExecutedStep {
        std::vector<std::uint64_t> tileCycles; // one per tile of the range; empty: not recorded
    };

    std::uint32_t firstTile = 0;
    std::uint32_t tileCount = 0;
    bool tooManySteps = false;
    bool perTileRecorded = true; // false when the window's steps carry no per-tile cycles
    std::vector<Step> steps;

    /// Reads the bands of global tiles [firstTile, firstTile + tileCount) over [firstCycle,
    /// endCycle); the tile range is clipped to the target.
    static BspBands fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                          std::uint64_t firstCycle, std::uint64_t endCycle, std::uint32_t firstTile,
                          std::uint32_t tileCount, std::int64_t maxSteps);
};

} // namespace tilescope::gui
