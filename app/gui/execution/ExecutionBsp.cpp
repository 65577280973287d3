#include "ExecutionBsp.hpp"

#include <algorithm>

namespace tilescope::gui {

BspBands BspBands::fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                         std::uint64_t firstCycle, std::uint64_t endCycle, std::uint32_t firstTile,
                         std::uint32_t tileCount, std::int64_t maxSteps) {
    BspBands b;
    const std::uint32_t tiles = reader.target().numTiles();
    b.firstTile = std::min(firstTile, tiles);
    b.tileCount = std::min(tileCount, tiles - b.firstTile);
    if (endCycle <= firstCycle || b.tileCount == 0)
        return b;
    const auto spans = reader.runStepSpans(run, firstCycle, endCycle, maxSteps + 1);
    if (std::int64_t(spans.size()) > maxSteps) {
        b.tooManySteps = true;
        return b;
    }
    if (spans.empty())
        return b;
    // Only the range's tiles of each step's series are decoded (not all of a big target's).
    const auto cycles = reader.runStepTileCycles(run, spans.front().seq, std::int64_t(spans.size()),
                                                 b.firstTile, b.tileCount);
    b.perTileRecorded =
        appendExecutedSteps(b.steps, spans, cycles, std::nullopt, &Step::tileCycles);
    return b;
}

} // namespace tilescope::gui
