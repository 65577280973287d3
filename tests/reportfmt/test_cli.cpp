// tilescope-cli end to end: the built binary on real synthetic reports, its output checked against
// the library's readers on the same files.

#include "CliProcess.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ProfileSummary.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

using nlohmann::json;
using tilescope::testing::CliResult;
using tilescope::testing::runCli;
using tilescope::testing::ScratchDir;
namespace report = tilescope::report;

namespace {

/// A small but complete report (2 IPUs x 16 tiles, two runs, a host trace), written fresh for
/// each test case.
struct SmallReport {
    ScratchDir scratch;
    report::SyntheticOutput files;

    explicit SmallReport(bool outOfMemory = false) {
        report::SyntheticSpec spec;
        spec.ipus = 2;
        spec.tilesPerIpu = 16;
        spec.steps = 60;
        spec.runs = 2;
        spec.hostEvents = 3000;
        spec.hostThreads = 4;
        spec.outOfMemory = outOfMemory;
        spec.seed = 7;
        files = report::generateSyntheticReport(scratch / "report", spec);
    }
    std::string profile() const { return files.profile.string(); }
    std::string hostTrace() const { return files.hostTrace.string(); }
    CliResult run(const std::vector<std::string>& args) const { return runCli(args, scratch); }
};

/// Runs and requires success with nothing on stderr.
CliResult runOk(const SmallReport& r, const std::vector<std::string>& args) {
    CliResult result = r.run(args);
    INFO("stderr: " << result.err);
    REQUIRE(result.exited);
    REQUIRE(result.exitCode == 0);
    REQUIRE(result.err.empty());
    return result;
}

std::string grouped(std::uint64_t v) {
    std::string digits = std::to_string(v), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

/// Strict RFC 4180 reader: CRLF records, quoted fields with doubled quotes.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false, fieldStarted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && !fieldStarted) {
            quoted = fieldStarted = true;
        } else if (c == ',') {
            record.push_back(std::move(field));
            field.clear();
            fieldStarted = false;
        } else if (c == '\r') {
            REQUIRE(i + 1 < text.size());
            REQUIRE(text[i + 1] == '\n');
            ++i;
            record.push_back(std::move(field));
            records.push_back(std::move(record));
            field.clear();
            record.clear();
            fieldStarted = false;
        } else {
            REQUIRE(c != '\n'); // a bare LF outside quotes is not RFC 4180
            REQUIRE(c != '"');
            field += c;
            fieldStarted = true;
        }
    }
    REQUIRE_FALSE(quoted);
    REQUIRE(record.empty());
    REQUIRE(field.empty());
    return records;
}

std::int64_t countRows(const report::ReportFile& file, const std::string& table) {
    std::int64_t n = -1;
    file.query(
        "SELECT count(*) FROM " + table, [](const auto&) {},
        [&](const report::ReportFile::Row& row) {
            n = std::stoll(*row[0]);
            return false;
        });
    return n;
}

} // namespace

TEST_CASE("info of a profile shows its metadata, target and counts") {
    const SmallReport r;
    const report::ProfileReader reader(r.profile());
    const auto counts = reader.counts();
    const auto& target = reader.target();

    const json j = json::parse(runOk(r, {"info", r.profile(), "--format", "json"}).out);
    CHECK(j["kind"] == "profile");
    CHECK(j["format_version"] == report::Schema::kProfileVersion);
    CHECK(j["writer_state"] == "complete");
    CHECK(j["engine_name"] == reader.file().metadataValue("engine_name"));
    CHECK(j["command_line"] == reader.file().metadataValue("command_line"));
    CHECK(j["target"]["num_ipus"] == 2);
    CHECK(j["target"]["tiles_per_ipu"] == 16);
    CHECK(j["target"]["bytes_per_tile"] == target.bytesPerTile);
    CHECK(j["counts"]["programs"] == counts.programs);
    CHECK(j["counts"]["steps"] == counts.steps);
    CHECK(j["counts"]["compute_sets"] == counts.computeSets);
    CHECK(j["counts"]["vertices"] == counts.vertices);
    CHECK(j["counts"]["variables"] == counts.variables);
    CHECK(j["counts"]["operations"] == counts.operations);
    CHECK(j["counts"]["runs"] == 2);
    CHECK(counts.steps > 0);

    const std::string text = runOk(r, {"info", r.profile()}).out;
    CHECK_THAT(text, Catch::Contains("Kind            profile report"));
    CHECK_THAT(text, Catch::Contains("Writer state    complete"));
    CHECK_THAT(text, Catch::Contains("2 IPUs x 16 tiles (32 tiles)"));
    CHECK_THAT(text, Catch::Contains("Steps           " + grouped(counts.steps) + "\n"));
    CHECK_THAT(text, Catch::Contains("Vertices        " + grouped(counts.vertices) + " "));
    CHECK_THAT(text, Catch::Contains("Runs            2 (" + grouped(counts.runSteps)));

    // A report folder names its profile.pop.
    CHECK(runOk(r, {"info", r.files.profile.parent_path().string()}).out == text);
}

TEST_CASE("info tells an unfinished report from a complete one") {
    const SmallReport r;
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(r.profile().c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
    const int rc = sqlite3_exec(db, "UPDATE metadata SET value = 'open' WHERE key = 'writer_state'",
                                nullptr, nullptr, nullptr);
    sqlite3_close(db);
    REQUIRE(rc == SQLITE_OK);

    CHECK(json::parse(runOk(r, {"info", r.profile(), "--format", "json"}).out)["writer_state"] ==
          "incomplete");
    CHECK_THAT(runOk(r, {"info", r.profile()}).out, Catch::Contains("Writer state    incomplete"));
    CHECK_THAT(runOk(r, {"summary", r.profile()}).out, Catch::Contains("(incomplete)"));
}

TEST_CASE("info of a host trace shows its counts and time span") {
    const SmallReport r;
    const report::HostTraceReader reader(r.hostTrace());
    const auto counts = reader.counts();
    const auto span = reader.timeSpan();
    REQUIRE(span);

    const json j = json::parse(runOk(r, {"info", r.hostTrace(), "--format", "json"}).out);
    CHECK(j["kind"] == "host_trace");
    CHECK(j["counts"]["processes"] == counts.processes);
    CHECK(j["counts"]["threads"] == 4);
    CHECK(j["counts"]["channels"] == counts.channels);
    CHECK(j["counts"]["events"] == counts.events);
    CHECK(j["counts"]["series"] == counts.series);
    CHECK(j["counts"]["samples"] == counts.samples);
    CHECK(j["time_span"]["start_ns"] == span->first);
    CHECK(j["time_span"]["end_ns"] == span->second);

    const std::string text = runOk(r, {"info", r.hostTrace()}).out;
    CHECK_THAT(text, Catch::Contains("host trace (pvti)"));
    CHECK_THAT(text, Catch::Contains("Events          " + grouped(counts.events) + "\n"));
}

TEST_CASE("summary of a profile matches summarize() and the stored totals") {
    const SmallReport r;
    const report::ProfileReader reader(r.profile());
    const report::ProfileSummary s = report::summarize(reader);

    const json j = json::parse(runOk(r, {"summary", r.profile(), "--format", "json"}).out);
    const json& m = j["memory"];
    CHECK(m["capacity_bytes"] == s.totalCapacityBytes);
    CHECK(m["total_bytes_including_gaps"] == s.totalBytesIncludingGaps);
    CHECK(m["total_bytes_excluding_gaps"] == s.totalBytesExcludingGaps);
    CHECK(m["always_live_bytes"] == s.alwaysLiveBytes);
    CHECK(m["peak_not_always_live_bytes"] == s.peakNotAlwaysLiveBytes);
    CHECK(m["max_tile"] == s.maxTile);
    CHECK(m["tiles_over_capacity"] == 0);
    CHECK(j["out_of_memory"] == false);
    REQUIRE(m["categories"].size() == s.categories.size());
    for (std::size_t i = 0; i < s.categories.size(); ++i) {
        CHECK(m["categories"][i]["name"] == s.categories[i].name);
        CHECK(m["categories"][i]["bytes"] == s.categories[i].bytes);
    }
    REQUIRE(j["runs"].size() == 2);
    for (std::size_t i = 0; i < s.runs.size(); ++i) {
        CHECK(j["runs"][i]["cycles"] == s.runs[i].cycles);
        CHECK(j["runs"][i]["steps"] == s.runs[i].steps);
    }
    CHECK(j["engine_options"].size() == reader.engineOptions().size());

    // Independently of summarize(): the stored per-category totals add up to the same figure.
    std::uint64_t stored = 0;
    reader.file().query(
        "SELECT sum(total_bytes) FROM tile_memory", [](const auto&) {},
        [&](const report::ReportFile::Row& row) {
            stored = std::stoull(*row[0]);
            return false;
        });
    CHECK(m["total_bytes_including_gaps"] == stored);

    const std::string text = runOk(r, {"summary", r.profile()}).out;
    CHECK_THAT(text, Catch::Contains("(" + grouped(s.totalBytesIncludingGaps) + " bytes)"));
    CHECK_THAT(text, Catch::Contains("(" + grouped(s.alwaysLiveBytes) + " bytes)"));
    CHECK_THAT(text, Catch::Contains(grouped(s.runs[0].cycles) + " cycles"));
    CHECK_THAT(text, Catch::Contains("Tiles over capacity   0"));
    CHECK_THAT(text, !Catch::Contains("OUT OF MEMORY"));
    for (const auto& c : s.categories)
        CHECK_THAT(text, Catch::Contains(c.label));
}

TEST_CASE("summary of an out-of-memory report says so") {
    const SmallReport r(/*outOfMemory=*/true);
    const report::ProfileSummary s = report::summarize(report::ProfileReader(r.profile()));
    REQUIRE(s.tilesOverCapacity > 0);

    const json j = json::parse(runOk(r, {"summary", r.profile(), "--format", "json"}).out);
    CHECK(j["out_of_memory"] == true);
    CHECK(j["memory"]["tiles_over_capacity"] == s.tilesOverCapacity);
    const std::string text = runOk(r, {"summary", r.profile()}).out;
    CHECK_THAT(text,
               Catch::Contains("OUT OF MEMORY: " + grouped(s.tilesOverCapacity) + " of 32 tiles"));
}

TEST_CASE("summary of a host trace counts events per thread") {
    const SmallReport r;
    const report::HostTraceReader reader(r.hostTrace());
    std::map<std::int64_t, std::uint64_t> expected;
    reader.file().query(
        "SELECT thread_id, sum(events) FROM event_block GROUP BY thread_id", [](const auto&) {},
        [&](const report::ReportFile::Row& row) {
            expected[std::stoll(*row[0])] = std::stoull(*row[1]);
            return true;
        });

    const json j = json::parse(runOk(r, {"summary", r.hostTrace(), "--format", "json"}).out);
    REQUIRE(j["threads"].size() == 4);
    std::uint64_t total = 0;
    for (const auto& t : j["threads"]) {
        CHECK(t["events"] == expected[t["id"].get<std::int64_t>()]);
        total += t["events"].get<std::uint64_t>();
    }
    CHECK(total == static_cast<std::uint64_t>(reader.counts().events));
    CHECK_THAT(runOk(r, {"summary", r.hostTrace()}).out, Catch::Contains("Events per thread"));
}

TEST_CASE("sql runs read-only queries in every output format") {
    const SmallReport r;
    const report::ProfileReader reader(r.profile());
    const auto steps = reader.counts().steps;

    const json j =
        json::parse(runOk(r, {"sql", r.profile(), "SELECT count(*) AS n, 'x' AS s FROM step",
                              "--format", "json"})
                        .out);
    REQUIRE(j.size() == 1);
    CHECK(j[0]["n"] == steps);
    CHECK(j[0]["s"] == "x");

    const auto limited = json::parse(
        runOk(r, {"sql", r.profile(), "SELECT id FROM step", "--format", "json", "--limit", "3"})
            .out);
    CHECK(limited.size() == 3);

    const std::string text = runOk(r, {"sql", r.profile(), "SELECT id, kind FROM step"}).out;
    CHECK_THAT(text, Catch::StartsWith("id  kind"));
    CHECK_THAT(text, Catch::EndsWith("(" + std::to_string(steps) + " rows)\n"));

    // RFC 4180: commas, quotes and line breaks inside fields survive a round trip.
    const auto csv = parseCsv(
        runOk(r, {"sql", r.profile(),
                  "SELECT 'a,b' AS comma, 'say \"hi\"' AS quote, 'one' || char(13, 10) || 'two' "
                  "AS crlf, NULL AS missing, 2.5 AS num",
                  "--format", "csv"})
            .out);
    REQUIRE(csv.size() == 2);
    CHECK(csv[0] == std::vector<std::string>{"comma", "quote", "crlf", "missing", "num"});
    CHECK(csv[1] == std::vector<std::string>{"a,b", "say \"hi\"", "one\r\ntwo", "", "2.5"});
}

TEST_CASE("sql refuses statements that would change the report") {
    const SmallReport r;
    const auto before = tilescope::testing::readWholeFile(r.files.profile);
    for (const std::string q :
         {"INSERT INTO name(text) VALUES('x')", "UPDATE metadata SET value = 'x'",
          "DELETE FROM step", "DROP TABLE step", "CREATE TABLE t(x)",
          "ATTACH DATABASE 'other.db' AS other", "PRAGMA writable_schema = 1",
          "PRAGMA user_version = 7", "SELECT 1; DELETE FROM step", "VACUUM"}) {
        INFO(q);
        const CliResult result = r.run({"sql", r.profile(), q});
        REQUIRE(result.exited);
        CHECK((result.exitCode == 1 || result.exitCode == 2));
        REQUIRE(result.errLines().size() == 1);
        CHECK_THAT(result.errLines()[0],
                   Catch::StartsWith("tilescope-cli: " + r.profile() + ": query refused"));
        CHECK(result.out.empty());
    }
    CHECK(tilescope::testing::readWholeFile(r.files.profile) == before);
    CHECK_FALSE(std::filesystem::exists(r.scratch / "report" / "other.db"));
}

TEST_CASE("export writes whole tables that parse back") {
    const SmallReport r;
    const report::ReportFile file(r.profile());
    const auto numTiles = report::ProfileReader(r.profile()).target().numTiles();

    for (const std::string table : {"step", "run_step", "variable", "tile_memory", "metadata"}) {
        INFO(table);
        const auto rows = countRows(file, table);
        REQUIRE(rows > 0);
        const json j = json::parse(
            runOk(r, {"export", r.profile(), "--table", table, "--format", "json"}).out);
        CHECK(static_cast<std::int64_t>(j.size()) == rows);
        const auto csv = parseCsv(runOk(r, {"export", r.profile(), "--table", table}).out);
        CHECK(static_cast<std::int64_t>(csv.size()) == rows + 1);
        CHECK(csv[0].size() == j[0].size());
    }

    // Decoded per-tile series: one value per tile, adding up to the stored total.
    const auto out = r.scratch / "tile_memory.json";
    const CliResult written = runOk(r, {"export", r.profile(), "-t", "tile_memory", "--format",
                                        "json", "--decode-series", "-o", out.string()});
    CHECK(written.out.empty());
    const json tm = json::parse(tilescope::testing::readWholeFile(out));
    REQUIRE_FALSE(tm.empty());
    for (const auto& row : tm) {
        REQUIRE(row["per_tile"].is_array());
        REQUIRE(row["per_tile"].size() == numTiles);
        std::uint64_t sum = 0, max = 0;
        for (const auto& v : row["per_tile"]) {
            REQUIRE(v.is_number_unsigned());
            sum += v.get<std::uint64_t>();
            max = std::max(max, v.get<std::uint64_t>());
        }
        CHECK(row["total_bytes"] == sum);
        CHECK(row["max_tile_bytes"] == max);
    }
    // Without decoding, blobs are hex strings.
    const json raw =
        json::parse(runOk(r, {"export", r.profile(), "-t", "tile_memory", "--format", "json"}).out);
    CHECK(raw[0]["per_tile"].is_string());
    CHECK(raw[0]["per_tile"].get<std::string>().find_first_not_of("0123456789abcdef") ==
          std::string::npos);

    // Host traces export the same way.
    const report::ReportFile trace(r.hostTrace());
    const json events = json::parse(
        runOk(r, {"export", r.hostTrace(), "-t", "event_block", "--format", "json"}).out);
    CHECK(static_cast<std::int64_t>(events.size()) == countRows(trace, "event_block"));
    CHECK(events[0]["start_ns"].is_number_integer());
}

TEST_CASE("usage errors exit with status 2 and say what is wrong") {
    const SmallReport r;
    const std::vector<std::vector<std::string>> cases = {
        {},
        {"frobnicate"},
        {"info"},
        {"info", r.profile(), "--bogus"},
        {"info", r.profile(), "--format", "xml"},
        {"summary", r.profile(), "--format", "csv"},
        {"sql", r.profile()},
        {"sql", r.profile(), "SELECT 1", "--limit", "many"},
        {"sql", r.profile(), "SELECT 1", "--limit", "-1"},
        {"export", r.profile()},
        {"export", r.profile(), "--table", "no_such_table"},
        {"export", r.profile(), "--table", "step", "--format", "text"},
        {"export", r.profile(), "--table", "step", "-o", r.profile()},
        {"synth", (r.scratch / "x").string(), "--steps", "2"},
        {"synth", (r.scratch / "x").string(), "--ipus", "0"},
        {"synth", (r.scratch / "x").string(), "--steps", "-5"}, // not 2^64 - 5 steps
    };
    for (const auto& args : cases) {
        std::string joined;
        for (const auto& a : args)
            joined += a + " ";
        INFO(joined);
        const CliResult result = r.run(args);
        REQUIRE(result.exited);
        CHECK(result.exitCode == 2);
        REQUIRE_FALSE(result.errLines().empty());
        CHECK_THAT(result.errLines()[0], Catch::StartsWith("tilescope-cli: "));
    }
    // The refused -o left the report intact.
    CHECK_NOTHROW(report::ProfileReader(r.profile()));

    const CliResult unknownTable = r.run({"export", r.profile(), "--table", "no_such_table"});
    CHECK_THAT(unknownTable.err, Catch::Contains("no table 'no_such_table'"));
    CHECK_THAT(unknownTable.err, Catch::Contains("run_step"));
}

TEST_CASE("help documents the exit codes") {
    const SmallReport r;
    const CliResult help = runOk(r, {"--help"});
    CHECK_THAT(help.out, Catch::Contains("Exit status"));
    CHECK_THAT(help.out, Catch::Contains("2  usage error"));
    for (const char* command : {"info", "summary", "sql", "export", "synth"})
        CHECK_THAT(help.out, Catch::Contains(command));
    CHECK_THAT(runOk(r, {"export", "--help"}).out, Catch::Contains("--decode-series"));
}

TEST_CASE("a missing file is one error line and status 1") {
    const SmallReport r;
    const std::string missing = (r.scratch / "nothing.pop").string();
    for (const char* command : {"info", "summary"}) {
        const CliResult result = r.run({command, missing});
        REQUIRE(result.exited);
        CHECK(result.exitCode == 1);
        CHECK(result.errLines() ==
              std::vector<std::string>{"tilescope-cli: " + missing + ": no such file"});
    }
    const CliResult folder = r.run({"info", r.scratch.path().string()});
    CHECK(folder.exitCode == 1);
    CHECK(folder.errLines().size() == 1);
    CHECK_THAT(folder.err, Catch::Contains("without a profile.pop"));
}

TEST_CASE("synth writes a report of the requested shape and lists its files") {
    const ScratchDir scratch;
    const auto dir = scratch / "synthetic";
    const CliResult result = runCli({"synth", dir.string(), "--ipus", "3", "--tiles-per-ipu", "8",
                                     "--steps", "40", "--runs", "3", "--host-events", "500",
                                     "--host-threads", "2", "--seed", "5", "--no-per-tile-cycles"},
                                    scratch);
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    CHECK(result.err.empty()); // no progress line when stderr is not a terminal
    CHECK_THAT(result.out, Catch::Contains("wrote " + (dir / "profile.pop").string()));
    CHECK_THAT(result.out, Catch::Contains("wrote " + (dir / "host.pvti").string()));

    const report::ProfileReader reader((dir / "profile.pop").string());
    CHECK(reader.target().numIpus == 3);
    CHECK(reader.target().tilesPerIpu == 8);
    CHECK(reader.counts().runs == 3);
    const auto runs = reader.runs();
    REQUIRE_FALSE(runs.empty());
    const auto steps = reader.runSteps(runs[0], 0, 5, /*withPerTile=*/true);
    REQUIRE_FALSE(steps.empty());
    CHECK(steps[0].perTile.empty());
    CHECK(report::HostTraceReader((dir / "host.pvti").string()).counts().threads == 2);
}

TEST_CASE("summary lists block statistics and compare matches blocks by name") {
    const SmallReport r;
    // Two executions of a block on tile 0 and an overflow, as the engine writes them (format v5).
    const std::string withBlocks = (r.scratch / "blocks.pop").string();
    std::filesystem::copy_file(r.profile(), withBlocks);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(withBlocks.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db,
                         "INSERT INTO program(parent_id, position, kind, name_id, code_bytes) "
                         "VALUES(NULL, 99, 'Block', (SELECT min(id) FROM name), 0);"
                         "INSERT INTO block(run_index, run_start, tile, kind, program_id, step_id, "
                         "cycles_from, cycles_to, dropped) VALUES "
                         "(0, 0, 0, 0, (SELECT max(id) FROM program), NULL, 100, 300, 0),"
                         "(0, 0, 0, 0, (SELECT max(id) FROM program), NULL, 400, 1000, 0),"
                         "(0, 0, 0, 7, NULL, NULL, 1000, 2000, 9)",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);

    const json j = json::parse(runOk(r, {"summary", withBlocks, "--format", "json"}).out);
    REQUIRE(j["blocks"].size() == 2);
    CHECK(j["blocks"][0]["kind"] == "Common");
    CHECK(j["blocks"][0]["count"] == 2);
    CHECK(j["blocks"][0]["min_cycles"] == 200);
    CHECK(j["blocks"][0]["mean_cycles"] == 400.0);
    CHECK(j["blocks"][0]["max_cycles"] == 600);
    CHECK(j["blocks"][1]["dropped"] == 9);
    const std::string text = runOk(r, {"summary", withBlocks}).out;
    CHECK_THAT(text, Catch::Contains("Blocks (cycles per execution)") &&
                         Catch::Contains("9 block records were lost"));
    // A report without blocks prints no block section.
    CHECK_THAT(runOk(r, {"summary", r.profile()}).out,
               !Catch::Contains("Blocks (cycles per execution)"));

    const json c =
        json::parse(runOk(r, {"compare", r.profile(), withBlocks, "--format", "json"}).out);
    REQUIRE(c["blocks"].size() == 1);
    CHECK(c["blocks"][0]["count"]["source"].is_null());
    CHECK(c["blocks"][0]["count"]["target"] == 2);
}
