// tilescope-cli compare as a regression gate: the built binary on two reports written with known
// figures (TwoReports.hpp); each output format parsed, exit 0 within thresholds, 3 beyond them,
// 2 for bad input.

#include "CliProcess.hpp"
#include "TwoReports.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace tilescope::testing;
using nlohmann::json;

namespace {

struct Reports {
    ScratchDir scratch;
    std::string source = (scratch / "source").string(); // a report folder
    std::string target = (scratch / "target.pop").string();
    Reports() {
        std::filesystem::create_directories(source);
        writeTwoReportsVariant(std::filesystem::path(source) / "profile.pop",
                               {Variant::Source, {{"a", 100}, {"b", 200}, {"a", 100}, {"b", 200}}});
        writeTwoReportsVariant(
            target,
            {Variant::Target, {{"a", 100}, {"c", 300}, {"a", 120}, {"c", 300}, {"a", 100}}});
    }
    CliResult compare(std::vector<std::string> extra) const {
        std::vector<std::string> args{"compare", source, target};
        args.insert(args.end(), extra.begin(), extra.end());
        return runCli(args, scratch);
    }
};

const json& figure(const json& list, const std::string& name) {
    for (const auto& f : list)
        if (f.at("name") == name)
            return f;
    FAIL("no figure " << name);
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("compare --format json holds every figure and the worst tiles") {
    Reports r;
    const auto out = r.compare({"--format", "json", "--per-operation"});
    INFO(out.err);
    REQUIRE(out.exited);
    REQUIRE(out.exitCode == 0);
    const json j = json::parse(out.out);
    const auto& total = figure(j.at("memory"), "total_bytes_including_gaps");
    CHECK(total.at("source") == 1040);
    CHECK(total.at("target") == 1190);
    CHECK(total.at("difference") == 150);
    CHECK(total.at("percent_change").get<double>() == Approx(100.0 * 150 / 1040));
    CHECK(figure(j.at("memory"), "max_tile_bytes_including_gaps").at("difference") == 100);
    CHECK(j.at("runs").at(0).at("cycles").at("difference") == 320);
    CHECK(j.at("worst_tiles").at(0).at("tile") == 3);
    CHECK(j.at("worst_tiles").at(1).at("tile") == 1);
    CHECK(j.at("worst_tiles").at(1).at("difference") == 60);
    CHECK(j.at("passed") == true);
    CHECK(j.at("thresholds").empty());
    CHECK(j.at("programs").at("added") == 1);
    CHECK(j.at("operations").at("matched") == 1);
    CHECK(j.at("operations").at("added") == 1);
    CHECK(j.at("operations").at("removed") == 1);
    // Largest cycle increase first: relu (added, 600 cycles).
    CHECK(j.at("operations").at("rows").at(0).at("name") == "relu");
    CHECK(j.at("operations").at("rows").at(0).at("status") == "added");
}

TEST_CASE("compare text and markdown outputs") {
    Reports r;
    const auto text = r.compare({});
    REQUIRE(text.exitCode == 0);
    CHECK(text.out.find("Total including gaps (bytes)") != std::string::npos);
    CHECK(text.out.find("+150") != std::string::npos);
    CHECK(text.out.find("Worst tiles") != std::string::npos);
    CHECK(text.out.find("Operations (") == std::string::npos); // only with --per-operation

    const auto md = r.compare({"--format", "markdown", "--per-operation"});
    REQUIRE(md.exitCode == 0);
    // Every table is well formed: a header, a separator row, and rows of the same width.
    std::istringstream in(md.out);
    std::size_t tables = 0, columns = 0;
    std::string line, previous;
    bool sawTotal = false;
    while (std::getline(in, line)) {
        if (line.rfind("|", 0) == 0) {
            const auto cells = static_cast<std::size_t>(std::count(line.begin(), line.end(), '|'));
            if (previous.rfind("|", 0) != 0) {
                ++tables;
                columns = cells;
            }
            CHECK(cells == columns);
            if (line.find("| Total including gaps (bytes) | 1,040 | 1,190 | +150 |") !=
                std::string::npos)
                sawTotal = true;
            if (line.find("---") != std::string::npos)
                CHECK(previous.rfind("|", 0) == 0);
        }
        previous = line;
    }
    CHECK(sawTotal);
    CHECK(tables >= 6);
    CHECK(md.out.find("| model/relu | added |") != std::string::npos);
}

TEST_CASE("compare thresholds: exit 0 within, 3 beyond, naming the figure") {
    Reports r;
    // Total memory +14.4%, fullest tile +24.4%, run cycles +53.3%.
    CHECK(r.compare({"--max-memory-increase", "15%"}).exitCode == 0);
    const auto memory = r.compare({"--max-memory-increase", "10%"});
    CHECK(memory.exitCode == 3);
    CHECK(memory.err.find("total memory") != std::string::npos);
    CHECK(r.compare({"--max-tile-memory-increase", "25"}).exitCode == 0);
    CHECK(r.compare({"--max-tile-memory-increase", "20%"}).exitCode == 3);
    CHECK(r.compare({"--max-cycles-increase", "60%"}).exitCode == 0);
    const auto cycles = r.compare({"--max-cycles-increase", "50%", "--format", "json"});
    CHECK(cycles.exitCode == 3);
    CHECK(cycles.err.find("cycles of run 0") != std::string::npos);
    const json j = json::parse(cycles.out);
    CHECK(j.at("passed") == false);
    CHECK(j.at("thresholds").at(0).at("exceeded") == true);
    CHECK(j.at("thresholds").at(0).at("limit_percent") == 50.0);
    // Several thresholds: one exceeded is enough to fail, and only that one is named.
    const auto mixed =
        r.compare({"--max-memory-increase", "50%", "--max-tile-memory-increase", "1.5%"});
    CHECK(mixed.exitCode == 3);
    CHECK(mixed.err.find("fullest tile") != std::string::npos);
    CHECK(mixed.err.find("total memory") == std::string::npos);
    CHECK(mixed.out.find("EXCEEDED") != std::string::npos);
}

TEST_CASE("compare refuses bad input with exit 2 and a clear message") {
    Reports r;
    const auto missing =
        runCli({"compare", r.source, (r.scratch / "nope.pop").string()}, r.scratch);
    CHECK(missing.exitCode == 2);
    CHECK(missing.err.find("nope.pop") != std::string::npos);

    const auto notReport = r.scratch / "notes.txt";
    std::ofstream(notReport) << "not a report\n";
    const auto text = runCli({"compare", notReport.string(), r.target}, r.scratch);
    CHECK(text.exitCode == 2);
    CHECK(text.err.find("notes.txt") != std::string::npos);

    for (const std::string bad : {"abc", "5%%", "", "nan", "1e999"}) {
        const auto out = r.compare({"--max-cycles-increase=" + bad});
        INFO(bad << ": " << out.err);
        CHECK(out.exitCode == 2);
        CHECK(out.err.find("--max-cycles-increase") != std::string::npos);
    }
    const auto negative = r.compare({"--max-memory-increase=-5%"});
    CHECK(negative.exitCode == 2);
    CHECK(negative.err.find("negative") != std::string::npos);
    CHECK(r.compare({"--format", "yaml"}).exitCode == 2);

    // A profile against a host trace.
    const auto trace = r.scratch / "host.pvti";
    {
        tilescope::report::HostTraceWriter w(trace);
        w.close();
    }
    const auto kinds = runCli({"compare", r.source, trace.string()}, r.scratch);
    CHECK(kinds.exitCode == 2);
    CHECK(kinds.err.find("same kind") != std::string::npos);
    CHECK(kinds.exited);
}
