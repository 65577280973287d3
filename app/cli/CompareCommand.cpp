// `tilescope-cli compare A B`: what changed between two reports (A the baseline, B the changed
// build), as text, JSON or markdown for a pull request, and a regression gate: exit 3 when a
// --max-*-increase threshold is exceeded. The figures come from reportfmt's comparison library;
// the summary-level part reads only small tables, the operations (--per-operation) read the
// program trees and the first run of each report.

#include "BlockComparison.hpp"
#include "CliErrors.hpp"
#include "Commands.hpp"
#include "ComparisonTables.hpp"
#include "ReportOpening.hpp"
#include "TargetDescription.hpp"
#include "Units.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ReportComparison.hpp"
#include "tilescope/report/StructureComparison.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tilescope::cli {
namespace {

using nlohmann::json;
using report::ComparedValue;

CompareFormat parseCompareFormat(const std::string& name) {
    if (name == "text")
        return CompareFormat::Text;
    if (name == "json")
        return CompareFormat::Json;
    if (name == "markdown")
        return CompareFormat::Markdown;
    throw UsageError("--format: unknown format '" + name + "' (use text, json or markdown)");
}

struct Threshold {
    std::string option;
    std::string figure; // what it limits, for people
    double limitPercent = 0;
    std::optional<double> changePercent; // empty: grew from 0 (an unbounded increase)
    bool exceeded = false;
};

Threshold check(const std::string& option, const std::string& figure, double limit,
                const ComparedValue& v) {
    Threshold t{option, figure, limit, v.percentChange(), false};
    t.exceeded = t.changePercent ? *t.changePercent > limit : v.target > v.source;
    return t;
}

std::string describeChange(const Threshold& t) {
    return t.changePercent ? fmt::format("{:+.2f}%", *t.changePercent) : "grew from 0";
}

json valueJson(const ComparedValue& v) {
    const auto p = v.percentChange();
    return {{"source", v.source},           {"target", v.target},
            {"difference", v.difference()}, {"percent_change", p ? json(*p) : json(nullptr)},
            {"in_source", v.inSource},      {"in_target", v.inTarget}};
}

// Opening problems are bad input for compare (exit 2), unlike the other commands.
template <class Open> auto openInput(const std::string& argument, Open&& open) {
    try {
        return open();
    } catch (const report::ReportError& e) {
        throw UsageError(e.what());
    } catch (const std::exception& e) {
        throw UsageError(argument + ": " + e.what());
    }
}

struct ProfileInputs {
    report::SummaryComparison summary;
    report::TileMemoryComparison tiles;
    std::optional<report::ProgramComparison> programs;
    std::optional<report::OperationComparison> operations;
    std::vector<Threshold> thresholds;
    std::vector<BlockDelta> blocks;
};

std::vector<Threshold> checkThresholds(const CompareOptions& o,
                                       const report::SummaryComparison& s) {
    std::vector<Threshold> out;
    if (o.maxCyclesIncrease) {
        const double limit = parsePercent("--max-cycles-increase", *o.maxCyclesIncrease);
        for (const auto& r : s.runs)
            if (r.cycles.inSource && r.cycles.inTarget)
                out.push_back(check("--max-cycles-increase",
                                    fmt::format("cycles of run {}", r.position), limit, r.cycles));
    }
    if (o.maxMemoryIncrease)
        out.push_back(check("--max-memory-increase", "total memory including gaps",
                            parsePercent("--max-memory-increase", *o.maxMemoryIncrease),
                            s.figure("total_bytes_including_gaps")->value));
    if (o.maxTileMemoryIncrease)
        out.push_back(check("--max-tile-memory-increase", "fullest tile's memory",
                            parsePercent("--max-tile-memory-increase", *o.maxTileMemoryIncrease),
                            s.figure("max_tile_bytes_including_gaps")->value));
    return out;
}

/// Operations ordered for people: largest executed-cycle regression first, then estimated.
std::vector<const report::OperationDelta*>
operationsByRegression(const report::OperationComparison& ops) {
    std::vector<const report::OperationDelta*> out;
    for (const auto& d : ops.rows)
        out.push_back(&d);
    std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
        return std::pair(a->executedCycles.difference(), a->estimatedCycles.difference()) >
               std::pair(b->executedCycles.difference(), b->estimatedCycles.difference());
    });
    return out;
}

/// The debug path, with the operation's name when the path does not end in it ("mlp/softmax
/// (softmaxStable)"): two operations can share a debug path.
std::string operationLabel(const report::OperationDelta& d) {
    if (d.debugPath.empty())
        return d.name;
    const auto slash = d.debugPath.rfind('/');
    const std::string last =
        slash == std::string::npos ? d.debugPath : d.debugPath.substr(slash + 1);
    return last == d.name ? d.debugPath : d.debugPath + " (" + d.name + ")";
}

std::string tileName(std::int64_t tile, std::uint32_t tilesPerIpu) {
    return tilesPerIpu
               ? fmt::format("{} (IPU {}, tile {})", tile, tile / tilesPerIpu, tile % tilesPerIpu)
               : std::to_string(tile);
}

json profileJson(const std::string& a, const std::string& b, const ProfileInputs& in,
                 std::size_t worstTiles) {
    const auto& s = in.summary;
    const auto figures = [](const std::vector<report::ComparedFigure>& list) {
        json out = json::array();
        for (const auto& f : list) {
            json j = valueJson(f.value);
            j["name"] = f.name;
            j["label"] = f.label;
            j["unit"] = f.unit;
            out.push_back(std::move(j));
        }
        return out;
    };
    json differences = json::array();
    for (const auto& d : s.targetDifferences)
        differences.push_back({{"field", d.field}, {"source", d.source}, {"target", d.target}});
    json categories = json::array();
    for (const auto& c : s.categories)
        categories.push_back({{"name", c.name},
                              {"label", c.label},
                              {"bytes", valueJson(c.bytes)},
                              {"max_tile_bytes", valueJson(c.maxTileBytes)}});
    json regions = json::array();
    for (const auto& r : s.regions)
        regions.push_back({{"name", r.name},
                           {"bytes_excluding_gaps", valueJson(r.bytesExcludingGaps)},
                           {"bytes_including_gaps", valueJson(r.bytesIncludingGaps)},
                           {"capacity_bytes", valueJson(r.capacityBytes)}});
    json runs = json::array();
    for (const auto& r : s.runs)
        runs.push_back({{"position", r.position},
                        {"source_run_id", r.sourceRunId ? json(*r.sourceRunId) : json(nullptr)},
                        {"target_run_id", r.targetRunId ? json(*r.targetRunId) : json(nullptr)},
                        {"cycles", valueJson(r.cycles)},
                        {"steps", valueJson(r.steps)}});
    json tiles = json::array();
    for (const auto& t : in.tiles.worstTiles(worstTiles))
        tiles.push_back({{"tile", t.tile},
                         {"source", t.source},
                         {"target", t.target},
                         {"difference", t.difference()}});
    json thresholds = json::array();
    bool passed = true;
    for (const auto& t : in.thresholds) {
        passed = passed && !t.exceeded;
        thresholds.push_back(
            {{"option", t.option},
             {"figure", t.figure},
             {"limit_percent", t.limitPercent},
             {"percent_change", t.changePercent ? json(*t.changePercent) : json(nullptr)},
             {"exceeded", t.exceeded}});
    }
    json j = {
        {"kind", "profile"},
        {"source", a},
        {"target", b},
        {"target_differences", std::move(differences)},
        {"out_of_memory", {{"source", s.source.outOfMemory}, {"target", s.target.outOfMemory}}},
        {"memory", figures(s.memory)},
        {"counts", figures(s.counts)},
        {"categories", std::move(categories)},
        {"regions", std::move(regions)},
        {"runs", std::move(runs)},
        {"same_tile_count", in.tiles.sameTileCount},
        {"worst_tiles", std::move(tiles)},
        {"thresholds", std::move(thresholds)},
        {"passed", passed}};
    if (in.programs)
        j["programs"] = {{"matched", in.programs->matched},
                         {"added", in.programs->added},
                         {"removed", in.programs->removed}};
    if (in.operations) {
        json rows = json::array();
        for (const auto* d : operationsByRegression(*in.operations))
            rows.push_back({{"name", d->name},
                            {"debug_path", d->debugPath},
                            {"layer", d->layer},
                            {"status", report::matchStatusName(d->status)},
                            {"executed_cycles", valueJson(d->executedCycles)},
                            {"estimated_cycles", valueJson(d->estimatedCycles)},
                            {"code_bytes", valueJson(d->codeBytes)},
                            {"variable_bytes", valueJson(d->variableBytes)},
                            {"flops", valueJson(d->flops)}});
        j["operations"] = {{"matched", in.operations->matched},
                           {"added", in.operations->added},
                           {"removed", in.operations->removed},
                           {"rows", std::move(rows)}};
    }
    return j;
}

ComparisonTable figureTable(const std::string& title,
                            const std::vector<report::ComparedFigure>& figures) {
    ComparisonTable t{title, {"Figure", "Source", "Target", "Difference", "Change"}, {}, 1};
    for (const auto& f : figures) {
        auto cells = valueCells(f.value);
        cells.insert(cells.begin(), f.unit == "bytes" ? f.label + " (bytes)" : f.label);
        t.rows.push_back(std::move(cells));
    }
    return t;
}

void printProfileComparison(const std::string& a, const std::string& b, const ProfileInputs& in,
                            std::size_t worstTiles, CompareFormat format) {
    const auto& s = in.summary;
    const bool md = format == CompareFormat::Markdown;
    if (md)
        fmt::print("## TileScope comparison\n\nSource (baseline): `{}`  \nTarget: `{}`\n", a, b);
    else
        fmt::print("Source (baseline)  {}\nTarget             {}\n", a, b);

    ComparisonTable target{"Target", {"Field", "Source", "Target"}, {}, 3};
    for (const auto& d : s.targetDifferences)
        target.rows.push_back({d.field, d.source, d.target});
    printHeading("Target", format);
    if (s.targetDifferences.empty())
        fmt::print("{}{}\n", md ? "" : "  ", "Same target: " + describeTarget(s.source.target));
    else
        printTable({"", target.columns, target.rows, 3}, format);
    const auto status = [](bool oom) { return oom ? "OUT OF MEMORY" : "ok"; };
    fmt::print("{}Compilation: {} -> {}\n", md ? "\n" : "\n  ", status(s.source.outOfMemory),
               status(s.target.outOfMemory));

    printTable(figureTable("Memory", s.memory), format);
    ComparisonTable categories{"Memory by category (bytes)",
                               {"Category", "Source", "Target", "Difference", "Change"},
                               {},
                               1};
    for (const auto& c : s.categories) {
        auto cells = valueCells(c.bytes);
        cells.insert(cells.begin(), c.label);
        categories.rows.push_back(std::move(cells));
    }
    printTable(categories, format);
    ComparisonTable regions{
        "Memory by region (bytes)", {"Region", "Source", "Target", "Difference", "Change"}, {}, 1};
    for (const auto& r : s.regions) {
        for (const auto& [suffix, value] : {std::pair{" including gaps", &r.bytesIncludingGaps},
                                            std::pair{" excluding gaps", &r.bytesExcludingGaps}}) {
            auto cells = valueCells(*value);
            cells.insert(cells.begin(), r.name + suffix);
            regions.rows.push_back(std::move(cells));
        }
    }
    printTable(regions, format);

    ComparisonTable runs{
        "Execution (cycles per run)",
        {"Run", "Source", "Target", "Difference", "Change", "Steps (source)", "Steps (target)"},
        {},
        1};
    for (const auto& r : s.runs) {
        auto cells = valueCells(r.cycles);
        cells.insert(cells.begin(), std::to_string(r.position));
        cells.push_back(r.steps.inSource ? groupDigits(r.steps.source) : "-");
        cells.push_back(r.steps.inTarget ? groupDigits(r.steps.target) : "-");
        runs.rows.push_back(std::move(cells));
    }
    printTable(runs, format);
    printTable(figureTable("Counts", s.counts), format);

    ComparisonTable tiles{fmt::format("Worst tiles (largest memory increase first, bytes{})",
                                      in.tiles.sameTileCount ? "" : "; tile counts differ"),
                          {"Tile", "Source", "Target", "Difference", "Change"},
                          {},
                          1};
    for (const auto& t : in.tiles.worstTiles(worstTiles)) {
        auto cells = valueCells({t.source, t.target});
        cells.insert(cells.begin(), tileName(t.tile, s.source.target.tilesPerIpu));
        tiles.rows.push_back(std::move(cells));
    }
    printTable(tiles, format);

    if (in.programs)
        fmt::print("{}Programs: {} matched, {} added, {} removed\n", md ? "\n" : "\n  ",
                   groupDigits(in.programs->matched), groupDigits(in.programs->added),
                   groupDigits(in.programs->removed));
    if (in.operations) {
        ComparisonTable ops{fmt::format("Operations ({} matched, {} added, {} removed; largest "
                                        "cycle increase first)",
                                        in.operations->matched, in.operations->added,
                                        in.operations->removed),
                            {"Operation", "Status", "Cycles (source)", "Cycles (target)",
                             "Cycles diff", "Change", "Memory diff", "Code diff", "FLOPs diff"},
                            {},
                            2};
        for (const auto* d : operationsByRegression(*in.operations)) {
            auto cells = valueCells(d->executedCycles);
            cells.insert(cells.begin(), std::string(report::matchStatusName(d->status)));
            cells.insert(cells.begin(), operationLabel(*d));
            cells.push_back(signedDigits(d->variableBytes.difference()));
            cells.push_back(signedDigits(d->codeBytes.difference()));
            cells.push_back(
                d->flops.inSource || d->flops.inTarget ? signedDigits(d->flops.difference()) : "-");
            ops.rows.push_back(std::move(cells));
        }
        printTable(ops, format);
    }

    if (!in.thresholds.empty()) {
        ComparisonTable gates{
            "Thresholds", {"Option", "Figure", "Change", "Limit", "Result"}, {}, 2};
        for (const auto& t : in.thresholds)
            gates.rows.push_back({t.option, t.figure, describeChange(t),
                                  fmt::format("+{}%", t.limitPercent),
                                  t.exceeded ? "EXCEEDED" : "ok"});
        printTable(gates, format);
    }
}

int compareProfiles(const CompareOptions& o, CompareFormat format, report::ReportFile fa,
                    report::ReportFile fb) {
    const std::string a = fa.path(), b = fb.path();
    const report::ProfileReader source =
        openInput(o.source, [&] { return report::ProfileReader(std::move(fa)); });
    const report::ProfileReader target =
        openInput(o.target, [&] { return report::ProfileReader(std::move(fb)); });
    ProfileInputs in;
    // Everything is computed before anything is printed: a damaged file gives one error line.
    readingReport(a + " / " + b, [&] {
        in.summary = report::compareSummaries(source, target);
        in.tiles = report::compareTileMemory(source, target);
        in.blocks = compareBlocks(source.blockStatistics(), target.blockStatistics());
        if (o.perOperation) {
            report::StructureComparison structure(source, target);
            in.programs = structure.programs();
            in.operations = structure.operations();
        }
    });
    in.thresholds = checkThresholds(o, in.summary);
    if (format == CompareFormat::Json) {
        auto j = profileJson(a, b, in, o.worstTiles);
        j["blocks"] = blockDeltasJson(in.blocks);
        fmt::print("{}", dumpJson(j));
    } else {
        printProfileComparison(a, b, in, o.worstTiles, format);
        printBlockDeltas(in.blocks, format);
    }
    bool exceeded = false;
    for (const auto& t : in.thresholds)
        if (t.exceeded) {
            exceeded = true;
            fmt::print(stderr, "tilescope-cli: threshold exceeded: {} changed {} (limit +{}%)\n",
                       t.figure, describeChange(t), t.limitPercent);
        }
    return exceeded ? kExitThresholdExceeded : kExitOk;
}

int printHostTraceComparison(const CompareOptions& o, CompareFormat format, report::ReportFile fa,
                             report::ReportFile fb) {
    if (o.maxCyclesIncrease || o.maxMemoryIncrease || o.maxTileMemoryIncrease)
        throw UsageError("thresholds apply to profile reports, not to host traces");
    const std::string a = fa.path(), b = fb.path();
    const report::HostTraceReader source(std::move(fa));
    const report::HostTraceReader target(std::move(fb));
    const auto c =
        readingReport(a + " / " + b, [&] { return report::compareHostTraces(source, target); });
    if (format == CompareFormat::Json) {
        json rows = json::array();
        for (const auto& e : c.events)
            rows.push_back({{"name", e.name},
                            {"status", report::matchStatusName(e.status)},
                            {"count", valueJson(e.count)},
                            {"total_ns", valueJson(e.totalNs)},
                            {"source_mean_ns", e.sourceMeanNs},
                            {"target_mean_ns", e.targetMeanNs}});
        fmt::print("{}", dumpJson({{"kind", "host_trace"},
                                   {"source", a},
                                   {"target", b},
                                   {"matched", c.matched},
                                   {"added", c.added},
                                   {"removed", c.removed},
                                   {"events", std::move(rows)}}));
        return kExitOk;
    }
    if (format == CompareFormat::Markdown)
        fmt::print("## TileScope host trace comparison\n\nSource: `{}`  \nTarget: `{}`\n", a, b);
    else
        fmt::print("Source (baseline)  {}\nTarget             {}\n", a, b);
    ComparisonTable t{fmt::format("Host events by name ({} matched, {} added, {} removed; "
                                  "largest change of total time first)",
                                  c.matched, c.added, c.removed),
                      {"Event", "Status", "Count (source)", "Count (target)", "Total ns (source)",
                       "Total ns (target)", "Total diff", "Change", "Mean (source)",
                       "Mean (target)"},
                      {},
                      2};
    for (const auto& e : c.events) {
        auto cells = valueCells(e.totalNs);
        cells.insert(cells.begin(), e.count.inTarget ? groupDigits(e.count.target) : "-");
        cells.insert(cells.begin(), e.count.inSource ? groupDigits(e.count.source) : "-");
        cells.insert(cells.begin(), std::string(report::matchStatusName(e.status)));
        cells.insert(cells.begin(), e.name);
        cells.push_back(formatDurationNs(e.sourceMeanNs));
        cells.push_back(formatDurationNs(e.targetMeanNs));
        t.rows.push_back(std::move(cells));
    }
    printTable(t, format);
    return kExitOk;
}

} // namespace

/// A threshold: "5%", "5" or "2.5%", finite and not negative.
double parsePercent(const std::string& option, const std::string& text) {
    std::string number = text;
    if (!number.empty() && number.back() == '%')
        number.pop_back();
    double value = 0;
    const char* end = number.data() + number.size();
    const auto [ptr, ec] = std::from_chars(number.data(), end, value);
    if (number.empty() || ec != std::errc() || ptr != end || !std::isfinite(value))
        throw UsageError(option + ": '" + text + "' is not a percentage (expected e.g. 5% or 0.5)");
    if (value < 0 || number.front() == '-')
        throw UsageError(option + ": must not be negative (got " + text + ")");
    return value;
}

int runCompare(const CompareOptions& options) {
    const CompareFormat format = parseCompareFormat(options.format);
    // Thresholds are checked before any file is read, so a typo fails fast.
    for (const auto& [name, value] :
         {std::pair{"--max-cycles-increase", &options.maxCyclesIncrease},
          std::pair{"--max-memory-increase", &options.maxMemoryIncrease},
          std::pair{"--max-tile-memory-increase", &options.maxTileMemoryIncrease}})
        if (*value)
            parsePercent(name, **value);
    report::ReportFile a =
        openInput(options.source, [&] { return openReportFile(options.source); });
    report::ReportFile b =
        openInput(options.target, [&] { return openReportFile(options.target); });
    if (a.kind() != b.kind())
        throw UsageError(fmt::format("{} and {} are not of the same kind (a profile report and a "
                                     "host trace cannot be compared)",
                                     a.path(), b.path()));
    if (a.kind() == report::FileKind::Profile)
        return compareProfiles(options, format, std::move(a), std::move(b));
    return printHostTraceComparison(options, format, std::move(a), std::move(b));
}

} // namespace tilescope::cli
