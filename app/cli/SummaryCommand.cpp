// `tilescope-cli summary FILE`: the figures of PopVision's summary page for a profile (target,
// memory totals, liveness, cycles per run, engine options), or counts and per-thread activity for
// a host trace. Everything comes from summarize() and small tables, never a per-tile or per-step
// scan, so a 16-IPU report answers as fast as a tiny one.

#include "BlockSummary.hpp"
#include "CliErrors.hpp"
#include "Commands.hpp"
#include "HostTraceSummary.hpp"
#include "ReportOpening.hpp"
#include "TableWriter.hpp"
#include "TargetDescription.hpp"
#include "Units.hpp"
#include "tilescope/report/ProfileSummary.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tilescope::cli {
namespace {

using nlohmann::json;
using report::ProfileSummary;

/// Whether the compiler generated IPU code: "no" for an IPU Model without compileIPUCode (code
/// categories are then 0 because nothing was compiled), "unknown" for reports that predate it.
std::string ipuCodeCompiled(const report::ProfileReader& reader) {
    const std::string v = reader.file().metadataValue("ipu_code_compiled");
    return v == "true" ? "yes" : v == "false" ? "no" : "unknown";
}

json summaryJson(const report::ProfileReader& reader, const ProfileSummary& s,
                 const std::vector<report::EngineOption>& engineOptions) {
    json categories = json::array();
    for (const auto& c : s.categories)
        categories.push_back({{"name", c.name},
                              {"label", c.label},
                              {"bytes", c.bytes},
                              {"max_tile_bytes", c.maxTileBytes}});
    json regions = json::array();
    for (const auto& r : s.regions)
        regions.push_back({{"name", r.name},
                           {"bytes_excluding_gaps", r.bytesExcludingGaps},
                           {"bytes_including_gaps", r.bytesIncludingGaps},
                           {"capacity_bytes", r.capacityBytes}});
    json runs = json::array();
    for (const auto& r : s.runs)
        runs.push_back({{"id", r.id},
                        {"program_index", r.programIndex},
                        {"cycles", r.cycles},
                        {"steps", r.steps},
                        {"host_microseconds", r.hostMicroseconds},
                        {"complete", r.complete}});
    json options = json::array();
    for (const auto& o : engineOptions)
        options.push_back(
            {{"name", o.name}, {"value", o.value}, {"source", o.source}, {"applies", o.applies}});
    return {{"file", reader.path()},
            {"kind", "profile"},
            {"tool_version", s.toolVersion},
            {"created_utc", s.createdUtc},
            {"engine_name", s.engineName},
            {"complete", s.complete},
            {"out_of_memory", s.outOfMemory},
            {"ipu_code_compiled", ipuCodeCompiled(reader)},
            {"target", targetJson(s.target)},
            {"memory",
             {{"capacity_bytes", s.totalCapacityBytes},
              {"total_bytes_including_gaps", s.totalBytesIncludingGaps},
              {"total_bytes_excluding_gaps", s.totalBytesExcludingGaps},
              {"always_live_bytes", s.alwaysLiveBytes},
              {"peak_not_always_live_bytes", s.peakNotAlwaysLiveBytes},
              {"max_tile", s.maxTile},
              {"max_tile_bytes_including_gaps", s.maxTileBytesIncludingGaps},
              {"tiles_over_capacity", s.tilesOverCapacity},
              {"categories", std::move(categories)},
              {"regions", std::move(regions)}}},
            {"runs", std::move(runs)},
            {"engine_options", std::move(options)}};
}

void printField(std::string_view label, std::string_view value, int indent = 0) {
    fmt::print("{:<{}}{:<{}}{}\n", "", indent, label, 24 - indent, value);
}

void printMemory(const ProfileSummary& s) {
    const auto capacity = static_cast<double>(s.totalCapacityBytes);
    fmt::print("\nMemory\n");
    printField("Capacity", formatBytes(s.totalCapacityBytes), 2);
    printField("Total including gaps",
               fmt::format("{}, {} of capacity", formatBytes(s.totalBytesIncludingGaps),
                           formatPercent(static_cast<double>(s.totalBytesIncludingGaps), capacity)),
               2);
    printField("Total excluding gaps",
               fmt::format("{}, {}", formatBytes(s.totalBytesExcludingGaps),
                           formatPercent(static_cast<double>(s.totalBytesExcludingGaps), capacity)),
               2);
    printField("Always-live", formatBytes(s.alwaysLiveBytes), 2);
    printField("Peak not-always-live",
               fmt::format("{}, each tile's peak summed", formatBytes(s.peakNotAlwaysLiveBytes)),
               2);
    const auto& t = s.target;
    if (s.maxTile >= 0 && t.tilesPerIpu > 0)
        printField("Fullest tile",
                   fmt::format("tile {} (IPU {}, tile {}): {} of {} ({})", s.maxTile,
                               s.maxTile / t.tilesPerIpu, s.maxTile % t.tilesPerIpu,
                               formatBytesShort(s.maxTileBytesIncludingGaps),
                               formatBytesShort(t.bytesPerTile),
                               formatPercent(static_cast<double>(s.maxTileBytesIncludingGaps),
                                             static_cast<double>(t.bytesPerTile))),
                   2);
    printField("Tiles over capacity", groupDigits(s.tilesOverCapacity), 2);
    if (s.outOfMemory || s.tilesOverCapacity > 0)
        fmt::print("  OUT OF MEMORY: {} of {} tiles need more than their {}\n",
                   groupDigits(s.tilesOverCapacity), groupDigits(t.numTiles()),
                   formatBytesShort(t.bytesPerTile));

    if (!s.categories.empty()) {
        std::size_t labelWidth = 12;
        for (const auto& c : s.categories)
            labelWidth = std::max(labelWidth, c.label.size());
        std::vector<std::string> bytes;
        std::size_t bytesWidth = 5;
        for (const auto& c : s.categories) {
            bytes.push_back(formatBytes(c.bytes));
            bytesWidth = std::max(bytesWidth, bytes.back().size());
        }
        fmt::print("\n  {:<{}}  {:>{}}  {:>12}\n", "By category", labelWidth, "Total", bytesWidth,
                   "Max tile");
        for (std::size_t i = 0; i < s.categories.size(); ++i)
            fmt::print("  {:<{}}  {:>{}}  {:>12}\n", s.categories[i].label, labelWidth, bytes[i],
                       bytesWidth, formatBytesShort(s.categories[i].maxTileBytes));
    }
    if (!s.regions.empty()) {
        fmt::print("\n  {:<18}{:>16}{:>16}{:>16}\n", "By region", "Excluding gaps",
                   "Including gaps", "Capacity");
        for (const auto& r : s.regions)
            fmt::print("  {:<18}{:>16}{:>16}{:>16}  {}\n", r.name,
                       formatBytesShort(r.bytesExcludingGaps),
                       formatBytesShort(r.bytesIncludingGaps), formatBytesShort(r.capacityBytes),
                       formatPercent(static_cast<double>(r.bytesIncludingGaps),
                                     static_cast<double>(r.capacityBytes)));
    }
}

void printRuns(const ProfileSummary& s) {
    fmt::print("\nExecution\n");
    if (s.runs.empty()) {
        fmt::print("  (no runs recorded)\n");
        return;
    }
    for (const auto& r : s.runs) {
        const std::string host =
            r.complete ? fmt::format(", host time {}", formatDurationNs(r.hostMicroseconds * 1e3))
                       : std::string(", still running or cut off");
        printField(fmt::format("Run {} (program {})", r.id, r.programIndex),
                   fmt::format("{}, {} steps{}", formatCycles(r.cycles, s.target.clockHz),
                               groupDigits(r.steps), host),
                   2);
    }
}

void printEngineOptions(const std::vector<report::EngineOption>& options) {
    fmt::print("\nEngine options\n");
    if (options.empty()) {
        fmt::print("  (none recorded)\n");
        return;
    }
    for (const auto& o : options)
        fmt::print("  {} = {} ({}{})\n", o.name, o.value, o.source,
                   o.applies ? "" : "; accepted, has no effect in the simulator");
}

void printProfileSummary(report::ReportFile file, bool asJson) {
    const std::string path = file.path();
    readingReport(path, [&] {
        const report::ProfileReader reader(std::move(file));
        // Everything is read before anything is printed, so a damaged file gives an error line
        // and no half summary.
        const ProfileSummary s = report::summarize(reader);
        const auto engineOptions = reader.engineOptions();
        const auto blocks = reader.blockStatistics();
        if (asJson) {
            auto j = summaryJson(reader, s, engineOptions);
            j["blocks"] = blockStatisticsJson(blocks);
            fmt::print("{}", dumpJson(j));
            return;
        }
        printField("Report",
                   fmt::format("{} ({})", reader.path(), s.complete ? "complete" : "incomplete"));
        if (!s.engineName.empty())
            printField("Engine", s.engineName);
        printField("Target", describeTarget(s.target));
        printField("Compilation", s.outOfMemory ? "OUT OF MEMORY" : "ok");
        if (ipuCodeCompiled(reader) == "no")
            printField("IPU code", "not compiled (IPUModel::compileIPUCode is false): code "
                                   "categories are 0");
        printMemory(s);
        printRuns(s);
        printBlockStatistics(blocks, s.target.clockHz);
        printEngineOptions(engineOptions);
    });
}

} // namespace

int runSummary(const SummaryOptions& options) {
    const bool asJson = parseTableFormat(options.format) == TableFormat::Json;
    report::ReportFile file = openReportFile(options.file);
    if (file.kind() == report::FileKind::Profile)
        printProfileSummary(std::move(file), asJson);
    else
        printHostTraceSummary(std::move(file), asJson);
    return kExitOk;
}

} // namespace tilescope::cli
