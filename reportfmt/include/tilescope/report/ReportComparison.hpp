#pragma once
// Comparing two reports of the same program (a source, the baseline, and a target, the changed
// build): summary figures, memory per tile and host-trace statistics. The structural comparisons
// (program tree, operations, liveness and execution steps) are in StructureComparison.hpp. Every
// result is plain data for a front end to page through or print; nothing here prints.

#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ProfileSummary.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::report {

/// A figure in both reports. A side where the figure does not exist (a category only one report
/// has) holds 0 and is flagged.
struct ComparedValue {
    std::uint64_t source = 0;
    std::uint64_t target = 0;
    bool inSource = true;
    bool inTarget = true;

    /// target - source.
    std::int64_t difference() const {
        return static_cast<std::int64_t>(target) - static_cast<std::int64_t>(source);
    }
    /// Change relative to the source in percent; empty when the source is 0 (no finite ratio).
    std::optional<double> percentChange() const;
};

/// Whether an item found by key is in both reports or only in one.
enum class MatchStatus { Matched, Added, Removed };
/// "matched", "added", "removed".
std::string_view matchStatusName(MatchStatus status);

/// A named summary figure; `name` is a stable identifier ("total_bytes_including_gaps"),
/// `label` the text for people, `unit` "bytes", "cycles", "steps", "tiles" or "count".
struct ComparedFigure {
    std::string name;
    std::string label;
    std::string unit;
    ComparedValue value;
};

/// A target property that differs between the reports, both values as text.
struct TargetDifference {
    std::string field;
    std::string source;
    std::string target;
};

/// Every figure of the summary (ProfileSummary) side by side. Categories and regions are matched
/// by name; runs by position (the first run of one with the first run of the other).
struct SummaryComparison {
    struct Category {
        std::string name;
        std::string label;
        ComparedValue bytes;
        ComparedValue maxTileBytes;
    };
    struct Region {
        std::string name;
        ComparedValue bytesExcludingGaps;
        ComparedValue bytesIncludingGaps;
        ComparedValue capacityBytes;
    };
    struct Run {
        std::size_t position = 0;
        std::optional<std::int64_t> sourceRunId;
        std::optional<std::int64_t> targetRunId;
        ComparedValue cycles;
        ComparedValue steps;
    };

    ProfileSummary source;
    ProfileSummary target;
    std::vector<TargetDifference> targetDifferences;
    /// Totals: capacity, including and excluding gaps, always-live, peak not-always-live, the
    /// fullest tile, tiles over capacity (in that order).
    std::vector<ComparedFigure> memory;
    /// Row counts: programs, steps, compute sets, vertices, variables, operations, runs.
    std::vector<ComparedFigure> counts;
    std::vector<Category> categories; // the source's order (largest first), then new ones
    std::vector<Region> regions;
    std::vector<Run> runs;

    /// A figure of `memory` or `counts` by name, nullptr if there is none.
    const ComparedFigure* figure(std::string_view name) const;
};

/// Compares the summaries: the same fixed number of small queries as summarize() on each side,
/// so the cost does not depend on the size of the reports.
SummaryComparison compareSummaries(const ProfileReader& source, const ProfileReader& target);

/// Memory of one tile in both reports.
struct TileDelta {
    std::int64_t tile = 0;
    std::uint64_t source = 0;
    std::uint64_t target = 0;
    std::int64_t difference() const {
        return static_cast<std::int64_t>(target) - static_cast<std::int64_t>(source);
    }
};

/// Total memory per tile (every category and region) of both reports and their difference. When
/// the reports have different tile counts, the shorter series is padded with zeros (the tile
/// does not exist there) and `sameTileCount` is false.
struct TileMemoryComparison {
    bool includesGaps = true;
    bool sameTileCount = true;
    PerTile source;
    PerTile target;
    std::vector<std::int64_t> difference;
    /// Tile numbers ordered by difference, largest increase first (ties by tile number).
    std::vector<std::uint32_t> byIncrease;

    std::size_t tiles() const { return difference.size(); }
    TileDelta tile(std::size_t index) const;
    /// The `limit` tiles whose memory grew most (or shrank least), worst first.
    std::vector<TileDelta> worstTiles(std::size_t limit) const;
};

TileMemoryComparison compareTileMemory(const ProfileReader& source, const ProfileReader& target,
                                       bool includeGaps = true);

/// Host events of one name in both traces: how many, total and mean duration (complete events;
/// instants and unfinished events count but add no time).
struct HostEventDelta {
    std::string name;
    MatchStatus status = MatchStatus::Matched;
    ComparedValue count;
    ComparedValue timedCount; // complete events, the denominator of the mean
    ComparedValue totalNs;
    double sourceMeanNs = 0;
    double targetMeanNs = 0;
};

/// Statistics per event name of two host traces (*.pvti), matched by name; largest change of
/// total time first. One grouped scan of each trace's event table.
struct HostTraceComparison {
    std::vector<HostEventDelta> events;
    std::size_t matched = 0;
    std::size_t added = 0;
    std::size_t removed = 0;
};

HostTraceComparison compareHostTraces(const HostTraceReader& source, const HostTraceReader& target);

} // namespace tilescope::report
