#include "ExecutionFigures.hpp"

namespace tilescope::gui {

RunFigures RunFigures::from(const std::vector<report::RunPhaseTotals>& totals,
                            const report::RunRecord& run, std::uint32_t tiles,
                            int (*phaseIndex)(const std::string&)) {
    RunFigures f;
    f.totalCycles = run.totalCycles;
    f.tiles = tiles;
    double computeBalanceCycles = 0;
    for (const auto& t : totals) {
        const int p = phaseIndex(t.phase);
        if (p < 0 || p >= kPhases)
            continue;
        f.phaseCycles[std::size_t(p)] += t.cycles;
        f.phaseSteps[std::size_t(p)] += t.steps;
        if (t.phase == "compute" || t.phase == "exchange")
            f.busyTileCycles += t.tileBusyCycles;
        if (t.phase == "compute")
            computeBalanceCycles += t.balanceWeightedCycles;
        if (t.phase == "stream")
            f.streamCopyBytes += t.exchangeBytes;
        else
            f.exchangeBytes += t.exchangeBytes;
    }
    std::uint64_t sum = 0;
    for (auto c : f.phaseCycles)
        sum += c;
    for (int p = 0; p < kPhases; ++p)
        f.proportions[std::size_t(p)] =
            sum ? double(f.phaseCycles[std::size_t(p)]) / double(sum) : 0;
    if (tiles > 0 && f.totalCycles > 0)
        f.parallelEfficiency = f.busyTileCycles / (double(tiles) * double(f.totalCycles));
    const auto compute = f.phaseCycles[0];
    f.computeTileBalance = compute ? computeBalanceCycles / double(compute) : 1.0;
    return f;
}

} // namespace tilescope::gui
