// Summary-level comparison: two summarize() calls and two per-tile totals, nothing that grows
// with the program or the run, so it stays in the tens of milliseconds on the largest machine.

#include "tilescope/report/ReportComparison.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace tilescope::report {

std::optional<double> ComparedValue::percentChange() const {
    if (source == 0)
        return std::nullopt;
    return 100.0 * static_cast<double>(difference()) / static_cast<double>(source);
}

std::string_view matchStatusName(MatchStatus status) {
    switch (status) {
    case MatchStatus::Matched:
        return "matched";
    case MatchStatus::Added:
        return "added";
    case MatchStatus::Removed:
        return "removed";
    }
    return "matched";
}

const ComparedFigure* SummaryComparison::figure(std::string_view name) const {
    for (const auto* list : {&memory, &counts})
        for (const auto& f : *list)
            if (f.name == name)
                return &f;
    return nullptr;
}

namespace {

ComparedValue both(std::uint64_t source, std::uint64_t target) {
    return {source, target, true, true};
}

std::uint64_t nonNegative(std::int64_t v) {
    return v < 0 ? 0 : static_cast<std::uint64_t>(v);
}

std::vector<TargetDifference> targetDifferences(const TargetInfo& s, const TargetInfo& t) {
    std::vector<TargetDifference> out;
    const auto check = [&](const char* field, const std::string& a, const std::string& b) {
        if (a != b)
            out.push_back({field, a, b});
    };
    check("type", s.type, t.type);
    check("ipu_version", s.ipuVersion, t.ipuVersion);
    check("num_ipus", std::to_string(s.numIpus), std::to_string(t.numIpus));
    check("tiles_per_ipu", std::to_string(s.tilesPerIpu), std::to_string(t.tilesPerIpu));
    check("bytes_per_tile", std::to_string(s.bytesPerTile), std::to_string(t.bytesPerTile));
    check("clock_hz", fmt::format("{}", s.clockHz), fmt::format("{}", t.clockHz));
    check("replicas", std::to_string(s.replicas), std::to_string(t.replicas));
    check("worker_contexts", std::to_string(s.workerContexts), std::to_string(t.workerContexts));
    check("exchange_bytes_per_cycle", std::to_string(s.exchangeBytesPerCycle),
          std::to_string(t.exchangeBytesPerCycle));
    const auto regions = [](const TargetInfo& target) {
        std::string text;
        for (const auto& r : target.regions)
            text += fmt::format("{}{}@{}+{}", text.empty() ? "" : ", ", r.name, r.startOffset,
                                r.sizeBytes);
        return text;
    };
    check("regions", regions(s), regions(t));
    return out;
}

std::vector<ComparedFigure> memoryFigures(const ProfileSummary& s, const ProfileSummary& t) {
    return {
        {"capacity_bytes", "Capacity", "bytes", both(s.totalCapacityBytes, t.totalCapacityBytes)},
        {"total_bytes_including_gaps", "Total including gaps", "bytes",
         both(s.totalBytesIncludingGaps, t.totalBytesIncludingGaps)},
        {"total_bytes_excluding_gaps", "Total excluding gaps", "bytes",
         both(s.totalBytesExcludingGaps, t.totalBytesExcludingGaps)},
        {"always_live_bytes", "Always-live", "bytes", both(s.alwaysLiveBytes, t.alwaysLiveBytes)},
        {"peak_not_always_live_bytes", "Peak not-always-live", "bytes",
         both(s.peakNotAlwaysLiveBytes, t.peakNotAlwaysLiveBytes)},
        {"max_tile_bytes_including_gaps", "Fullest tile", "bytes",
         both(s.maxTileBytesIncludingGaps, t.maxTileBytesIncludingGaps)},
        {"tiles_over_capacity", "Tiles over capacity", "tiles",
         both(nonNegative(s.tilesOverCapacity), nonNegative(t.tilesOverCapacity))},
    };
}

std::vector<ComparedFigure> countFigures(const ProfileCounts& s, const ProfileCounts& t) {
    const auto count = [](const char* name, const char* label, const char* unit, std::int64_t a,
                          std::int64_t b) {
        return ComparedFigure{name, label, unit, both(nonNegative(a), nonNegative(b))};
    };
    return {count("programs", "Programs", "count", s.programs, t.programs),
            count("steps", "Program steps", "steps", s.steps, t.steps),
            count("compute_sets", "Compute sets", "count", s.computeSets, t.computeSets),
            count("vertices", "Vertices", "count", s.vertices, t.vertices),
            count("variables", "Variables", "count", s.variables, t.variables),
            count("operations", "Operations", "count", s.operations, t.operations),
            count("runs", "Runs", "count", s.runs, t.runs)};
}

std::vector<SummaryComparison::Category> categoryDeltas(const ProfileSummary& s,
                                                        const ProfileSummary& t) {
    std::vector<SummaryComparison::Category> out;
    std::map<std::string, std::size_t> row;
    for (const auto& c : s.categories) {
        row[c.name] = out.size();
        out.push_back(
            {c.name, c.label, {c.bytes, 0, true, false}, {c.maxTileBytes, 0, true, false}});
    }
    for (const auto& c : t.categories) {
        auto it = row.find(c.name);
        if (it == row.end()) {
            out.push_back(
                {c.name, c.label, {0, c.bytes, false, true}, {0, c.maxTileBytes, false, true}});
            continue;
        }
        auto& r = out[it->second];
        r.bytes.target = c.bytes;
        r.bytes.inTarget = true;
        r.maxTileBytes.target = c.maxTileBytes;
        r.maxTileBytes.inTarget = true;
    }
    return out;
}

std::vector<SummaryComparison::Region> regionDeltas(const ProfileSummary& s,
                                                    const ProfileSummary& t) {
    std::vector<SummaryComparison::Region> out;
    std::map<std::string, std::size_t> row;
    for (const auto& r : s.regions) {
        row[r.name] = out.size();
        out.push_back({r.name,
                       {r.bytesExcludingGaps, 0, true, false},
                       {r.bytesIncludingGaps, 0, true, false},
                       {r.capacityBytes, 0, true, false}});
    }
    for (const auto& r : t.regions) {
        auto it = row.find(r.name);
        if (it == row.end()) {
            out.push_back({r.name,
                           {0, r.bytesExcludingGaps, false, true},
                           {0, r.bytesIncludingGaps, false, true},
                           {0, r.capacityBytes, false, true}});
            continue;
        }
        auto& o = out[it->second];
        for (auto [value, figure] : {std::pair{&o.bytesExcludingGaps, r.bytesExcludingGaps},
                                     std::pair{&o.bytesIncludingGaps, r.bytesIncludingGaps},
                                     std::pair{&o.capacityBytes, r.capacityBytes}}) {
            value->target = figure;
            value->inTarget = true;
        }
    }
    return out;
}

std::vector<SummaryComparison::Run> runDeltas(const ProfileSummary& s, const ProfileSummary& t) {
    std::vector<SummaryComparison::Run> out;
    const std::size_t n = std::max(s.runs.size(), t.runs.size());
    for (std::size_t i = 0; i < n; ++i) {
        SummaryComparison::Run r;
        r.position = i;
        r.cycles.inSource = r.steps.inSource = i < s.runs.size();
        r.cycles.inTarget = r.steps.inTarget = i < t.runs.size();
        if (i < s.runs.size()) {
            r.sourceRunId = s.runs[i].id;
            r.cycles.source = s.runs[i].cycles;
            r.steps.source = s.runs[i].steps;
        }
        if (i < t.runs.size()) {
            r.targetRunId = t.runs[i].id;
            r.cycles.target = t.runs[i].cycles;
            r.steps.target = t.runs[i].steps;
        }
        out.push_back(r);
    }
    return out;
}

} // namespace

SummaryComparison compareSummaries(const ProfileReader& source, const ProfileReader& target) {
    SummaryComparison c;
    c.source = summarize(source);
    c.target = summarize(target);
    c.targetDifferences = targetDifferences(c.source.target, c.target.target);
    c.memory = memoryFigures(c.source, c.target);
    c.counts = countFigures(c.source.counts, c.target.counts);
    c.categories = categoryDeltas(c.source, c.target);
    c.regions = regionDeltas(c.source, c.target);
    c.runs = runDeltas(c.source, c.target);
    return c;
}

TileDelta TileMemoryComparison::tile(std::size_t index) const {
    return {static_cast<std::int64_t>(index), source.at(index), target.at(index)};
}

std::vector<TileDelta> TileMemoryComparison::worstTiles(std::size_t limit) const {
    std::vector<TileDelta> out;
    for (std::size_t i = 0; i < byIncrease.size() && i < limit; ++i)
        out.push_back(tile(byIncrease[i]));
    return out;
}

TileMemoryComparison compareTileMemory(const ProfileReader& source, const ProfileReader& target,
                                       bool includeGaps) {
    TileMemoryComparison c;
    c.includesGaps = includeGaps;
    c.source = source.tileMemoryTotal(includeGaps);
    c.target = target.tileMemoryTotal(includeGaps);
    c.sameTileCount = c.source.size() == c.target.size();
    const std::size_t n = std::max(c.source.size(), c.target.size());
    c.source.resize(n, 0);
    c.target.resize(n, 0);
    c.difference.resize(n);
    c.byIncrease.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        c.difference[i] =
            static_cast<std::int64_t>(c.target[i]) - static_cast<std::int64_t>(c.source[i]);
        c.byIncrease[i] = static_cast<std::uint32_t>(i);
    }
    std::stable_sort(
        c.byIncrease.begin(), c.byIncrease.end(),
        [&](std::uint32_t a, std::uint32_t b) { return c.difference[a] > c.difference[b]; });
    return c;
}

} // namespace tilescope::report
