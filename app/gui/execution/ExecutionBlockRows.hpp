#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::gui {

/// Lightweight-profiling blocks of a run in a cycle window, for the Execution Trace's Blocks
/// mode: one band per tile that recorded blocks, nested blocks stacked below the block that holds
/// them (depth), stream copies and flushes marked by kind. Cycles are run-relative, like steps'.
/// At most `maxBlocks` blocks are read per window (`truncated` says when more overlap it).
struct BlockRows {
    struct Bar {
        std::uint64_t startCycle = 0;
        std::uint64_t endCycle = 0;
        std::uint32_t band = 0; ///< index into `tiles`
        std::uint32_t depth = 0;
        report::BlockKind kind = report::BlockKind::Common;
        std::string name;
        std::uint64_t dropped = 0;
    };
    std::vector<std::uint32_t> tiles; ///< one band per tile, in tile order
    std::vector<std::uint32_t> depths; ///< rows of each band (deepest nesting + 1)
    std::vector<Bar> bars;
    bool truncated = false;

    /// Rows over all bands.
    std::uint32_t totalRows() const;
    /// The first row of band `b`.
    std::uint32_t firstRow(std::uint32_t band) const;

    /// `runIndex` is the run's 0-based Engine::run call (its position among the report's runs).
    static BlockRows fetch(const report::ProfileReader& reader, std::int64_t runIndex,
                           std::uint64_t firstCycle, std::uint64_t endCycle,
                           std::int64_t maxBlocks);
};

} // namespace tilescope::gui
