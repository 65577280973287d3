#pragma once

#include "ExecutedStep.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <cstdint>
#include <vector>

namespace tilescope::gui {

/// Each IPU's busy cycles in a cycle window, for the Execution Trace's per-IPU rows: a step lasts
/// as long as its slowest IPU; an IPU works for its own cycles of it (RunStepRecord::perIpu) and
/// waits for the rest. While the window holds at most `maxSteps` steps (zoomed in) they are read
/// step by step, only their per-IPU series. Beyond, one column per pixel from the run_ipu_lod
/// pyramid level with about one bucket per column (lodLevel >= 0): each column holds each IPU's
/// busy cycles, pyramid buckets shared out between the columns they overlap, so a window reads a
/// few thousand bucket rows at any zoom.
struct IpuRows {
    struct Step : ExecutedStep {
        std::vector<std::uint64_t> ipuCycles; // one per IPU; empty: not recorded
    };
    /// Zoomed out: a pixel column of the window.
    struct Column {
        std::uint64_t firstCycle = 0;
        std::uint64_t endCycle = 0; // exclusive
        double steps = 0;           // steps starting in the column (buckets shared by overlap)
    };

    std::uint32_t ipus = 0;
    bool tooManySteps = false; // over maxSteps in a run without a pyramid (still being written)
    bool recorded = true;      // false when steps of the window have no per-IPU cycles
    std::vector<Step> steps;
    std::int64_t lodLevel = -1;  // -1: `steps`; otherwise `columns` from this pyramid level
    std::vector<Column> columns; // zoomed out only
    std::vector<double> busy;    // zoomed out: columns x ipus busy cycles, column-major

    double busyCycles(std::size_t column, std::uint32_t ipu) const {
        return busy[column * ipus + ipu];
    }
    /// Share of the column's cycles the IPU was busy, in [0, 1] (a step counts whole in the
    /// bucket it starts in, so a column's sum can pass its width by a little).
    double busyShare(std::size_t column, std::uint32_t ipu) const;

    /// `widthPx` columns at most when zoomed out.
    static IpuRows fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                         std::uint64_t firstCycle, std::uint64_t endCycle, std::int64_t maxSteps,
                         int widthPx);
};

/// The run_lod level a window with `cyclesPerColumn` cycles per pixel column reads: the coarsest
/// stored level whose buckets are no wider than a column, else the finest stored (-1: none).
std::int64_t pyramidLevelForColumns(const report::ProfileReader& reader,
                                    const report::RunRecord& run, double cyclesPerColumn);

} // namespace tilescope::gui
