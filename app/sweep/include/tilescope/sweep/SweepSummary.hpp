#pragma once
// The table of a sweep: per variant whether it ran, compiled and fits, its memory and cycles,
// and how it differs from the baseline; written as DIR/summary.json and printed by
// `tilescope-cli sweep-summary`.

#include "tilescope/sweep/SweepPlan.hpp"
#include "tilescope/sweep/VariantStatus.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::sweep {

/// Cycles of one BSP phase in the variant's first run.
struct PhaseCycles {
    std::string phase; // compute, exchange, sync, stream
    std::uint64_t cycles = 0;
};

/// One row of the sweep table. Figures come from the variant's report (ProfileSummary); they are
/// absent (`hasReport` false) when the program wrote none. `compiled`: the compile profile is
/// there; `fits`: no tile is over its memory.
struct VariantRow {
    std::string name;
    std::vector<Setting> settings;
    std::string state = "not run"; ///< succeeded, failed, cancelled, not run
    std::string reason;
    std::string outputTail;
    bool hasReport = false;
    std::string reportProblem; ///< why the report could not be read, if it could not
    bool compiled = false;
    bool fits = false;
    std::uint64_t tiles = 0;
    std::uint64_t bytesPerTile = 0;        ///< the tile memory capacity
    std::uint64_t totalMemoryBytes = 0;    ///< including gaps
    std::uint64_t peakTileMemoryBytes = 0; ///< the fullest tile, including gaps
    std::uint64_t alwaysLiveBytes = 0;
    std::uint64_t peakNotAlwaysLiveBytes = 0;
    std::vector<std::uint64_t> cyclesPerRun;
    std::vector<PhaseCycles> phases; ///< of the first run
    double clockHz = 0;
    double hostSeconds = 0;    ///< the program's process, wall time
    double compileSeconds = 0; ///< host time of the simulated compilation
    double runSeconds = 0;     ///< host time of the simulated runs (stored ones)

    std::optional<std::uint64_t> cycles() const {
        return cyclesPerRun.empty() ? std::nullopt : std::optional(cyclesPerRun.front());
    }
};

/// A figure of a variant against the baseline's.
struct BaselineDelta {
    std::string
        figure; ///< cycles, total_memory, peak_tile_memory, always_live, peak_not_always_live
    std::uint64_t baseline = 0;
    std::uint64_t value = 0;
    std::int64_t difference() const {
        return static_cast<std::int64_t>(value) - static_cast<std::int64_t>(baseline);
    }
    /// None when the baseline is 0.
    std::optional<double> percentChange() const;
};

/// Limits relative to the baseline, as `tilescope-cli compare` takes them (percent).
struct SweepThresholds {
    std::optional<double> maxCyclesIncrease;
    std::optional<double> maxMemoryIncrease;
    std::optional<double> maxTileMemoryIncrease;
};

/// A threshold a variant exceeded.
struct ThresholdExceeded {
    std::string variant;
    std::string option; ///< --max-cycles-increase, ...
    std::string figure;
    double limitPercent = 0;
    std::optional<double> changePercent; ///< none: grew from 0
};

struct SweepSummary {
    std::filesystem::path directory;
    std::vector<std::string> command;
    std::vector<std::string> axes; ///< keys that vary, in order
    std::string baseline;          ///< the variant compared against (empty: none usable)
    std::vector<VariantRow> rows;  ///< in plan order
    /// Deltas per row (same order), empty for the baseline itself and rows without figures.
    std::vector<std::vector<BaselineDelta>> deltas;
    std::vector<ThresholdExceeded> exceeded;
    double summarySeconds = 0; ///< how long reading took
};

/// Reads DIR/sweep.json, every variant's status.json and report (in parallel on `threads`
/// threads, 0: the hardware's count). `baseline` names a variant (SweepError if unknown); by
/// default the first variant that compiled. Never throws for a damaged or missing report: the
/// row says why.
SweepSummary summarizeSweep(const std::filesystem::path& directory,
                            const std::optional<std::string>& baseline,
                            const SweepThresholds& thresholds, unsigned threads = 0);

/// The summary as JSON text (DIR/summary.json's content).
std::string summaryJson(const SweepSummary& summary);
/// Writes DIR/summary.json (temporary file and rename).
void writeSummaryJson(const SweepSummary& summary);
/// DIR/summary.json read back (what `sweep` wrote when it ended): the table without opening a
/// report, for a first look at a large sweep. None when the file is missing or not a summary.
std::optional<SweepSummary> readSummaryJson(const std::filesystem::path& directory);
/// summary.json's text parsed as readSummaryJson does, with `directory` (a local folder or an
/// ssh:// folder URL) as the summary's folder. None when the text is not a summary.
std::optional<SweepSummary> parseSummaryJson(const std::string& text,
                                             const std::filesystem::path& directory);

/// The variant in row i is on the Pareto front of (cycles, peak tile memory): no other variant
/// that compiled and fits is at most as slow and at most as large and better in one. Variants
/// without both figures, or that do not fit, are never on it.
std::vector<bool> paretoFront(const std::vector<VariantRow>& rows);

} // namespace tilescope::sweep
