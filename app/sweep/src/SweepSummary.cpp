// The sweep table: each variant's status and report figures, deltas from the baseline,
// thresholds, summary.json and the Pareto front (SweepSummary.hpp).

#include "tilescope/sweep/SweepSummary.hpp"

#include "tilescope/report/ProfileSummary.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <thread>

namespace tilescope::sweep {
namespace {

using nlohmann::json;

/// Fills a row's figures from its report; any failure is kept as the row's reportProblem.
void readReport(const std::filesystem::path& variantDirectory, VariantRow& row) {
    const auto file = reportFileOf(variantDirectory);
    if (file.empty())
        return;
    try {
        const report::ProfileReader reader(file.string());
        const report::ProfileSummary s = report::summarize(reader);
        row.hasReport = true;
        row.compiled = reader.hasCompilation();
        row.fits = row.compiled && !s.outOfMemory && s.tilesOverCapacity == 0;
        row.tiles = s.target.numTiles();
        row.bytesPerTile = s.target.bytesPerTile;
        row.clockHz = s.target.clockHz;
        row.totalMemoryBytes = s.totalBytesIncludingGaps;
        row.peakTileMemoryBytes = s.maxTileBytesIncludingGaps;
        row.alwaysLiveBytes = s.alwaysLiveBytes;
        row.peakNotAlwaysLiveBytes = s.peakNotAlwaysLiveBytes;
        for (const auto& r : s.runs) {
            row.cyclesPerRun.push_back(r.cycles);
            row.runSeconds += r.hostMicroseconds / 1e6;
        }
        const std::string compileNs = reader.file().metadataValue("compile_ns");
        if (!compileNs.empty())
            row.compileSeconds = std::stod(compileNs) / 1e9;
        const auto runs = reader.runs();
        if (!runs.empty())
            for (const auto& p : reader.runPhaseTotals(runs.front()))
                row.phases.push_back({p.phase, p.cycles});
    } catch (const std::exception& e) {
        row.hasReport = false;
        row.reportProblem = e.what();
    }
}

VariantRow readRow(const SweepPlan& plan, const Variant& v) {
    VariantRow row;
    row.name = v.name;
    row.settings = v.settings;
    const auto dir = plan.variantDirectory(v);
    if (const auto status = readStatus(dir)) {
        row.state = status->state;
        row.reason = status->reason;
        row.outputTail = status->outputTail;
        row.hostSeconds = status->hostSeconds;
    } else if (std::filesystem::exists(dir)) {
        row.state = "running";
    }
    readReport(dir, row);
    return row;
}

bool hasFigures(const VariantRow& r) {
    return r.hasReport && r.compiled;
}

std::vector<BaselineDelta> deltasOf(const VariantRow& base, const VariantRow& row) {
    std::vector<BaselineDelta> out;
    if (base.cycles() && row.cycles())
        out.push_back({"cycles", *base.cycles(), *row.cycles()});
    out.push_back({"total_memory", base.totalMemoryBytes, row.totalMemoryBytes});
    out.push_back({"peak_tile_memory", base.peakTileMemoryBytes, row.peakTileMemoryBytes});
    out.push_back({"always_live", base.alwaysLiveBytes, row.alwaysLiveBytes});
    out.push_back(
        {"peak_not_always_live", base.peakNotAlwaysLiveBytes, row.peakNotAlwaysLiveBytes});
    return out;
}

json optionalNumber(const std::optional<double>& v) {
    return v ? json(*v) : json(nullptr);
}

} // namespace

std::optional<double> BaselineDelta::percentChange() const {
    if (baseline == 0)
        return std::nullopt;
    return 100.0 * static_cast<double>(difference()) / static_cast<double>(baseline);
}

SweepSummary summarizeSweep(const std::filesystem::path& directory,
                            const std::optional<std::string>& baseline,
                            const SweepThresholds& thresholds, unsigned threads) {
    const auto began = std::chrono::steady_clock::now();
    const SweepPlan plan = readPlan(directory);
    SweepSummary out;
    out.directory = plan.directory;
    out.command = plan.command;
    for (const auto& v : plan.variants)
        for (const auto& s : v.settings)
            if (std::find(out.axes.begin(), out.axes.end(), s.key) == out.axes.end())
                out.axes.push_back(s.key);
    if (baseline && !plan.find(*baseline))
        throw SweepError("--baseline: no variant named '" + *baseline + "' in " +
                         directory.string());

    // Reports are independent files: read them on several threads (one reader each).
    out.rows.resize(plan.variants.size());
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(
        std::min<std::size_t>(threads, std::max<std::size_t>(1, plan.variants.size())));
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < plan.variants.size();)
            out.rows[i] = readRow(plan, plan.variants[i]);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();

    const VariantRow* base = nullptr;
    if (baseline) {
        for (const auto& r : out.rows)
            if (r.name == *baseline)
                base = &r;
        if (!hasFigures(*base))
            throw SweepError("--baseline: variant '" + *baseline +
                             "' has no compiled report to compare with");
    } else {
        for (const auto& r : out.rows)
            if (!base && hasFigures(r))
                base = &r;
    }
    out.deltas.resize(out.rows.size());
    if (base) {
        out.baseline = base->name;
        for (std::size_t i = 0; i < out.rows.size(); ++i) {
            const VariantRow& row = out.rows[i];
            if (&row == base || !hasFigures(row))
                continue;
            out.deltas[i] = deltasOf(*base, row);
            const auto check = [&](const std::optional<double>& limit, const char* option,
                                   const char* figure, const char* label) {
                if (!limit)
                    return;
                for (const auto& d : out.deltas[i])
                    if (d.figure == figure) {
                        const auto p = d.percentChange();
                        if (p ? *p > *limit : d.value > d.baseline)
                            out.exceeded.push_back({row.name, option, label, *limit, p});
                    }
            };
            check(thresholds.maxCyclesIncrease, "--max-cycles-increase", "cycles",
                  "cycles of the first run");
            check(thresholds.maxMemoryIncrease, "--max-memory-increase", "total_memory",
                  "total memory including gaps");
            check(thresholds.maxTileMemoryIncrease, "--max-tile-memory-increase",
                  "peak_tile_memory", "fullest tile's memory");
        }
    }
    out.summarySeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    return out;
}

std::vector<bool> paretoFront(const std::vector<VariantRow>& rows) {
    std::vector<bool> front(rows.size(), false);
    const auto eligible = [](const VariantRow& r) { return r.fits && r.cycles().has_value(); };
    // Sorted by cycles then memory, a row is on the front when its memory is below every
    // earlier row's: O(n log n) for the 1,000-variant sweeps the view must draw at once.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (eligible(rows[i]))
            order.push_back(i);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::pair(*rows[a].cycles(), rows[a].peakTileMemoryBytes) <
               std::pair(*rows[b].cycles(), rows[b].peakTileMemoryBytes);
    });
    // Equal points are both on the front (neither is better in one figure).
    std::optional<std::pair<std::uint64_t, std::uint64_t>> lastOnFront;
    for (std::size_t i : order) {
        const auto point = std::pair(*rows[i].cycles(), rows[i].peakTileMemoryBytes);
        if (!lastOnFront || point.second < lastOnFront->second || point == *lastOnFront) {
            front[i] = true;
            lastOnFront = point;
        }
    }
    return front;
}

std::string summaryJson(const SweepSummary& s) {
    json rows = json::array();
    const auto front = paretoFront(s.rows);
    for (std::size_t i = 0; i < s.rows.size(); ++i) {
        const VariantRow& r = s.rows[i];
        json settings = json::object();
        for (const auto& x : r.settings)
            settings[x.key] = x.value;
        json phases = json::object();
        for (const auto& p : r.phases)
            phases[p.phase] = p.cycles;
        json deltas = json::object();
        for (const auto& d : s.deltas[i])
            deltas[d.figure] = {{"baseline", d.baseline},
                                {"value", d.value},
                                {"difference", d.difference()},
                                {"percent_change", optionalNumber(d.percentChange())}};
        json row = {{"name", r.name},
                    {"settings", std::move(settings)},
                    {"state", r.state},
                    {"reason", r.reason},
                    {"has_report", r.hasReport},
                    {"compiled", r.compiled},
                    {"fits", r.fits},
                    {"pareto", static_cast<bool>(front[i])},
                    {"tiles", r.tiles},
                    {"bytes_per_tile", r.bytesPerTile},
                    {"total_memory_bytes", r.totalMemoryBytes},
                    {"peak_tile_memory_bytes", r.peakTileMemoryBytes},
                    {"always_live_bytes", r.alwaysLiveBytes},
                    {"peak_not_always_live_bytes", r.peakNotAlwaysLiveBytes},
                    {"cycles", r.cycles() ? json(*r.cycles()) : json(nullptr)},
                    {"cycles_per_run", r.cyclesPerRun},
                    {"cycles_by_phase", std::move(phases)},
                    {"clock_hz", r.clockHz},
                    {"host_seconds", r.hostSeconds},
                    {"compile_seconds", r.compileSeconds},
                    {"run_seconds", r.runSeconds},
                    {"baseline_differences", std::move(deltas)}};
        if (!r.reportProblem.empty())
            row["report_problem"] = r.reportProblem;
        if (!r.outputTail.empty())
            row["output_tail"] = r.outputTail;
        rows.push_back(std::move(row));
    }
    json exceeded = json::array();
    for (const auto& e : s.exceeded)
        exceeded.push_back({{"variant", e.variant},
                            {"option", e.option},
                            {"figure", e.figure},
                            {"limit_percent", e.limitPercent},
                            {"percent_change", optionalNumber(e.changePercent)}});
    return json{{"format", "tilescope-sweep-summary"},
                {"version", 1},
                {"directory", s.directory.string()},
                {"command", s.command},
                {"axes", s.axes},
                {"baseline", s.baseline.empty() ? json(nullptr) : json(s.baseline)},
                {"variants", std::move(rows)},
                {"thresholds_exceeded", std::move(exceeded)},
                {"passed", s.exceeded.empty()}}
        .dump(2);
}

void writeSummaryJson(const SweepSummary& summary) {
    const auto file = summary.directory / "summary.json";
    const auto temporary = summary.directory / "summary.json.tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << summaryJson(summary) << "\n";
        if (!out.flush())
            throw SweepError(temporary.string() + ": cannot write");
    }
    std::error_code ec;
    std::filesystem::rename(temporary, file, ec);
    if (ec)
        throw SweepError(file.string() + ": cannot write (" + ec.message() + ")");
}

std::optional<SweepSummary> readSummaryJson(const std::filesystem::path& directory) {
    std::ifstream in(directory / "summary.json", std::ios::binary);
    if (!in)
        return std::nullopt;
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    return parseSummaryJson(text, std::filesystem::absolute(directory));
}

std::optional<SweepSummary> parseSummaryJson(const std::string& text,
                                             const std::filesystem::path& directory) {
    try {
        const json j = json::parse(text);
        if (j.value("format", "") != "tilescope-sweep-summary" || j.value("version", 0) != 1)
            return std::nullopt;
        SweepSummary s;
        s.directory = directory;
        s.command = j.at("command").get<std::vector<std::string>>();
        s.axes = j.at("axes").get<std::vector<std::string>>();
        if (j.at("baseline").is_string())
            s.baseline = j["baseline"].get<std::string>();
        for (const auto& v : j.at("variants")) {
            VariantRow r;
            r.name = v.at("name").get<std::string>();
            for (const auto& [key, value] : v.at("settings").items())
                r.settings.push_back(parseSetting(key, value.get<std::string>()));
            r.state = v.at("state").get<std::string>();
            r.reason = v.value("reason", "");
            r.outputTail = v.value("output_tail", "");
            r.reportProblem = v.value("report_problem", "");
            r.hasReport = v.at("has_report").get<bool>();
            r.compiled = v.at("compiled").get<bool>();
            r.fits = v.at("fits").get<bool>();
            r.tiles = v.at("tiles").get<std::uint64_t>();
            r.bytesPerTile = v.at("bytes_per_tile").get<std::uint64_t>();
            r.totalMemoryBytes = v.at("total_memory_bytes").get<std::uint64_t>();
            r.peakTileMemoryBytes = v.at("peak_tile_memory_bytes").get<std::uint64_t>();
            r.alwaysLiveBytes = v.at("always_live_bytes").get<std::uint64_t>();
            r.peakNotAlwaysLiveBytes = v.at("peak_not_always_live_bytes").get<std::uint64_t>();
            r.cyclesPerRun = v.at("cycles_per_run").get<std::vector<std::uint64_t>>();
            for (const auto& [phase, cycles] : v.at("cycles_by_phase").items())
                r.phases.push_back({phase, cycles.get<std::uint64_t>()});
            r.clockHz = v.value("clock_hz", 0.0);
            r.hostSeconds = v.value("host_seconds", 0.0);
            r.compileSeconds = v.value("compile_seconds", 0.0);
            r.runSeconds = v.value("run_seconds", 0.0);
            std::vector<BaselineDelta> deltas;
            for (const auto& [figure, d] : v.at("baseline_differences").items())
                deltas.push_back({figure, d.at("baseline").get<std::uint64_t>(),
                                  d.at("value").get<std::uint64_t>()});
            s.rows.push_back(std::move(r));
            s.deltas.push_back(std::move(deltas));
        }
        return s;
    } catch (const std::exception&) { // a damaged or foreign file: read the reports instead
        return std::nullopt;
    }
}

} // namespace tilescope::sweep
