#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace tilescope::gui {

/// The headline figures of one run for the Execution Trace summary, derived from the reader's
/// per-phase totals (one scan of the run's executed steps, no per-tile series). Busy cycles are
/// the cycles tiles spend computing or exchanging; sync and stream copies are time the tiles wait
/// (for each other, for the host). Parallel efficiency is busy cycles over tiles x run cycles:
/// 100% means every tile worked for the whole run.
struct RunFigures {
    static constexpr int kPhases = 4; // compute, exchange, sync, stream (ExecutionModel::Phase)

    std::uint64_t totalCycles = 0;
    std::uint32_t tiles = 0;
    std::array<std::uint64_t, kPhases> phaseCycles{};
    std::array<std::uint64_t, kPhases> phaseSteps{};
    double busyTileCycles = 0;
    double parallelEfficiency = 0;
    std::array<double, kPhases> proportions{}; // of the summed phase cycles
    double computeTileBalance = 1.0;           // compute steps, weighted by their cycles
    std::uint64_t streamCopyBytes = 0;
    std::uint64_t exchangeBytes = 0;

    /// `phaseIndex` maps a phase name to 0..kPhases-1.
    static RunFigures from(const std::vector<report::RunPhaseTotals>& totals,
                           const report::RunRecord& run, std::uint32_t tiles,
                           int (*phaseIndex)(const std::string&));
};

} // namespace tilescope::gui
