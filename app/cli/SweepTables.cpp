#include "SweepTables.hpp"

#include "ComparisonTables.hpp"
#include "Units.hpp"

#include <fmt/format.h>

namespace tilescope::cli {
namespace {

using sweep::BaselineDelta;
using sweep::VariantRow;

std::string change(const std::vector<BaselineDelta>& deltas, const char* figure) {
    for (const auto& d : deltas)
        if (d.figure == figure) {
            if (const auto p = d.percentChange())
                return fmt::format("{:+.1f}%", *p);
            return d.value == 0 ? "0" : "new";
        }
    return "";
}

std::string kib(std::uint64_t bytes) {
    return fmt::format("{:.1f}", static_cast<double>(bytes) / 1024.0);
}

std::string settingValue(const VariantRow& row, const std::string& key) {
    for (const auto& s : row.settings)
        if (s.key == key)
            return s.value;
    return "";
}

std::string phaseCycles(const VariantRow& row, const char* phase) {
    for (const auto& p : row.phases)
        if (p.phase == phase)
            return groupDigits(p.cycles);
    return row.phases.empty() ? "" : "0";
}

} // namespace

void printSweepSummary(const sweep::SweepSummary& s, const std::string& format) {
    if (format == "json") {
        fmt::print("{}\n", sweep::summaryJson(s));
        return;
    }
    const CompareFormat f = format == "markdown" ? CompareFormat::Markdown : CompareFormat::Text;
    const bool md = f == CompareFormat::Markdown;
    std::size_t compiled = 0, fit = 0, failed = 0;
    for (const auto& r : s.rows) {
        compiled += r.compiled;
        fit += r.fits;
        failed += r.state == "failed";
    }
    if (md)
        fmt::print("## TileScope sweep\n\nFolder: `{}`  \n", s.directory.string());
    else
        fmt::print("Sweep {}\n", s.directory.string());
    fmt::print("{} variants: {} compiled, {} fit, {} failed; baseline {}\n", s.rows.size(),
               compiled, fit, failed, s.baseline.empty() ? "(none)" : s.baseline);

    ComparisonTable t;
    t.columns = {"Variant"};
    for (const auto& axis : s.axes) { // the last part of the key, as in variant names
        const auto cut = axis.find_last_of(":.");
        t.columns.push_back(cut == std::string::npos ? axis : axis.substr(cut + 1));
    }
    t.leftColumns = t.columns.size() + 2;
    for (const char* c :
         {"State", "Fits", "Peak tile KiB", "vs base", "Total KiB", "Always-live KiB",
          "Peak NAL KiB", "Cycles", "vs base", "Compute", "Exchange", "Sync", "Host s"})
        t.columns.push_back(c);
    const auto front = sweep::paretoFront(s.rows);
    for (std::size_t i = 0; i < s.rows.size(); ++i) {
        const auto& r = s.rows[i];
        std::vector<std::string> cells = {r.name + (front[i] ? " *" : "") +
                                          (r.name == s.baseline ? " (base)" : "")};
        for (const auto& axis : s.axes)
            cells.push_back(settingValue(r, axis));
        cells.push_back(r.state);
        cells.push_back(!r.compiled ? "-" : r.fits ? "yes" : "NO");
        const bool figures = r.hasReport && r.compiled;
        cells.push_back(figures ? kib(r.peakTileMemoryBytes) : "");
        cells.push_back(change(s.deltas[i], "peak_tile_memory"));
        cells.push_back(figures ? kib(r.totalMemoryBytes) : "");
        cells.push_back(figures ? kib(r.alwaysLiveBytes) : "");
        cells.push_back(figures ? kib(r.peakNotAlwaysLiveBytes) : "");
        cells.push_back(r.cycles() ? groupDigits(*r.cycles()) : "");
        cells.push_back(change(s.deltas[i], "cycles"));
        cells.push_back(phaseCycles(r, "compute"));
        cells.push_back(phaseCycles(r, "exchange"));
        cells.push_back(phaseCycles(r, "sync"));
        cells.push_back(r.hostSeconds > 0 ? fmt::format("{:.2f}", r.hostSeconds) : "");
        t.rows.push_back(std::move(cells));
    }
    printTable(t, f);
    fmt::print("{}* on the Pareto front of cycles and peak tile memory (variants that fit)\n",
               md ? "\n" : "\n  ");

    bool anyFailed = false;
    for (const auto& r : s.rows)
        if (r.state == "failed" || r.state == "cancelled" || !r.reportProblem.empty()) {
            if (!anyFailed)
                printHeading("Variants that did not succeed", f);
            anyFailed = true;
            fmt::print("{}{}: {}{}{}\n", md ? "- " : "  ", r.name, r.state,
                       r.reason.empty() ? "" : " (" + r.reason + ")",
                       r.reportProblem.empty() ? "" : "; report: " + r.reportProblem);
            if (!r.outputTail.empty()) {
                fmt::print("{}", md ? "\n```\n" : "");
                std::string tail = r.outputTail;
                std::size_t from = 0;
                while (from <= tail.size()) {
                    const auto nl = tail.find('\n', from);
                    fmt::print("{}{}\n", md ? "" : "      | ",
                               tail.substr(from, nl == std::string::npos ? nl : nl - from));
                    if (nl == std::string::npos)
                        break;
                    from = nl + 1;
                }
                fmt::print("{}", md ? "```\n\n" : "");
            }
        }
    if (!s.exceeded.empty()) {
        ComparisonTable gates{"Thresholds exceeded (relative to the baseline)",
                              {"Variant", "Option", "Figure", "Change", "Limit"},
                              {},
                              3};
        for (const auto& e : s.exceeded)
            gates.rows.push_back(
                {e.variant, e.option, e.figure,
                 e.changePercent ? fmt::format("{:+.2f}%", *e.changePercent) : "grew from 0",
                 fmt::format("+{}%", e.limitPercent)});
        printTable(gates, f);
    }
}

} // namespace tilescope::cli
