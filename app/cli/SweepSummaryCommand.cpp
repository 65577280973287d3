// `tilescope-cli sweep-summary DIR`: the sweep table read from the variants' reports, with the
// thresholds of `compare` applied to each variant against the baseline (exit 3 when exceeded).

#include "CliErrors.hpp"
#include "Commands.hpp"
#include "SweepTables.hpp"

#include <fmt/format.h>

namespace tilescope::cli {

int runSweepSummary(const SweepSummaryOptions& o) {
    sweep::SweepThresholds thresholds;
    if (o.maxCyclesIncrease)
        thresholds.maxCyclesIncrease = parsePercent("--max-cycles-increase", *o.maxCyclesIncrease);
    if (o.maxMemoryIncrease)
        thresholds.maxMemoryIncrease = parsePercent("--max-memory-increase", *o.maxMemoryIncrease);
    if (o.maxTileMemoryIncrease)
        thresholds.maxTileMemoryIncrease =
            parsePercent("--max-tile-memory-increase", *o.maxTileMemoryIncrease);
    sweep::SweepSummary summary;
    try {
        summary = sweep::summarizeSweep(o.directory, o.baseline, thresholds);
    } catch (const sweep::SweepError& e) {
        throw UsageError(e.what()); // not a sweep folder, unknown baseline: bad input, as compare
    }
    printSweepSummary(summary, o.format);
    for (const auto& e : summary.exceeded)
        fmt::print(stderr, "tilescope-cli: threshold exceeded: {}: {} changed {} (limit +{}%)\n",
                   e.variant, e.figure,
                   e.changePercent ? fmt::format("{:+.2f}%", *e.changePercent) : "grew from 0",
                   e.limitPercent);
    return summary.exceeded.empty() ? kExitOk : kExitThresholdExceeded;
}

} // namespace tilescope::cli
