// Files that are not (or no longer) valid reports: tilescope-cli must answer each with exit status
// 1 and exactly one stderr line naming the file and the problem, never a crash; the reader must
// throw ReportError. Damage that leaves the file readable must still end cleanly.

#include "CliProcess.hpp"
#include "SmallReport.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ProfileSummary.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sqlite3.h>

using tilescope::testing::CliResult;
using tilescope::testing::runCli;
using tilescope::testing::ScratchDir;
namespace fs = std::filesystem;
namespace report = tilescope::report;

namespace {

/// A valid report to damage; each case works on its own copy.
struct BadInputFixture {
    ScratchDir scratch;
    fs::path valid;

    BadInputFixture() {
        report::SyntheticSpec spec;
        spec.ipus = 1;
        spec.tilesPerIpu = 64;
        spec.steps = 400;
        spec.runs = 2;
        spec.seed = 3;
        valid = report::generateSyntheticReport(scratch / "valid", spec).profile;
    }

    fs::path copyOfValid(const std::string& name) const {
        const fs::path copy = scratch / name;
        fs::copy_file(valid, copy, fs::copy_options::overwrite_existing);
        return copy;
    }

    fs::path writeFile(const std::string& name, const std::string& bytes) const {
        const fs::path path = scratch / name;
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }
};

/// Runs SQL on a file in read-write mode (what an attacker or a bad tool could do to a report).
void tamper(const fs::path& path, const std::string& sql) {
    tilescope::testing::execSql(path, sql);
}

/// The reader built with AddressSanitizer and UBSan (the fuzz target, which runs a file given as
/// an argument once) goes through the file without a sanitizer report. Skipped when clang is
/// not there to build it.
void requireNoSanitizerError(const fs::path& file, const ScratchDir& scratch) {
#ifdef TILESCOPE_SANITIZED_READER
    const CliResult result =
        tilescope::testing::runProgram(TILESCOPE_SANITIZED_READER, {file.string()}, scratch);
    INFO("sanitized reader on " << file << ":\n" << result.err);
    CHECK(result.exited);
    CHECK(result.exitCode == 0);
    CHECK_THAT(result.err, !Catch::Contains("Sanitizer") && !Catch::Contains("runtime error"));
#else
    (void)file;
    (void)scratch;
#endif
}

/// info and summary both fail with status 1 and one line "tilescope-cli: <file>: <problem>".
void requireCleanRefusal(const fs::path& file, const std::string& problem,
                         const ScratchDir& scratch) {
    requireNoSanitizerError(file, scratch);
    for (const char* command : {"info", "summary"}) {
        INFO(command << " " << file);
        const CliResult result = runCli({command, file.string()}, scratch);
        INFO("stderr: " << result.err);
        REQUIRE(result.exited); // not killed by a signal
        CHECK(result.exitCode == 1);
        const auto lines = result.errLines();
        REQUIRE(lines.size() == 1);
        CHECK_THAT(lines[0], Catch::StartsWith("tilescope-cli: " + file.string() + ": "));
        CHECK_THAT(lines[0], Catch::Contains(problem));
        CHECK(result.out.empty());
    }
    try {
        const report::ProfileReader reader(file.string());
        FAIL("ProfileReader opened " << file);
    } catch (const report::ReportError& e) {
        CHECK(e.file() == file.string());
        CHECK_THAT(e.problem(), Catch::Contains(problem));
    }
}

} // namespace

TEST_CASE("a text file is refused") {
    const BadInputFixture f;
    requireCleanRefusal(f.writeFile("notes.pop", "These are my notes, not a report.\n"),
                        "not an SQLite database", f.scratch);
}

TEST_CASE("an empty file is refused") {
    const BadInputFixture f;
    requireCleanRefusal(f.writeFile("empty.pop", ""), "empty", f.scratch);
}

TEST_CASE("an SQLite database that is not a report is refused") {
    const BadInputFixture f;
    const fs::path path = f.scratch / "other.db";
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db,
                         "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT);"
                         "INSERT INTO customers(name) VALUES('ada'), ('alan');",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    requireCleanRefusal(path, "not a TileScope report", f.scratch);
}

TEST_CASE("a report cut at half its size is refused") {
    const BadInputFixture f;
    const fs::path path = f.copyOfValid("half.pop");
    const auto size = fs::file_size(path);
    REQUIRE(size > 8192);
    fs::resize_file(path, size / 2);
    requireCleanRefusal(path, "truncated", f.scratch);
}

TEST_CASE("a report of a newer format version is refused with a clear message") {
    const BadInputFixture f;
    const fs::path path = f.copyOfValid("newer.pop");
    tamper(path, "PRAGMA user_version = 99;"
                 "UPDATE metadata SET value = '99' WHERE key = 'format_version';"
                 // The message quotes the writer's version: it must still be one line.
                 "UPDATE metadata SET value = '9.0' || char(10) || 'beta' "
                 "WHERE key = 'tool_version';");
    requireCleanRefusal(path, "newer", f.scratch);
}

TEST_CASE("a report whose schema carries a trigger is refused") {
    const BadInputFixture f;
    const fs::path path = f.copyOfValid("trigger.pop");
    tamper(path, "CREATE TRIGGER steal AFTER INSERT ON name BEGIN "
                 "SELECT load_extension('/tmp/evil.so'); END;");
    requireCleanRefusal(path, "trigger", f.scratch);
}

TEST_CASE("a report whose schema carries a view that calls functions is refused") {
    const BadInputFixture f;
    const fs::path path = f.copyOfValid("view.pop");
    tamper(path, "CREATE VIEW step_summary AS SELECT load_extension('/tmp/evil.so'), "
                 "randomblob(1000000000), count(*) FROM step;");
    requireCleanRefusal(path, "view", f.scratch);
}

TEST_CASE("a report with random bytes in its middle never crashes the reader or the CLI") {
    const BadInputFixture f;
    const auto size = fs::file_size(f.valid);
    for (const unsigned seed : {1u, 2u, 3u, 4u, 5u, 6u}) {
        INFO("seed " << seed);
        const fs::path path = f.copyOfValid("random-" + std::to_string(seed) + ".pop");
        std::mt19937_64 random(seed);
        {
            // Overwrite a few KiB somewhere in the middle half of the file.
            std::fstream io(path, std::ios::binary | std::ios::in | std::ios::out);
            const auto offset = size / 4 + random() % (size / 2);
            std::string noise(4096, '\0');
            for (char& c : noise)
                c = static_cast<char>(random());
            io.seekp(static_cast<std::streamoff>(offset));
            io.write(noise.data(), static_cast<std::streamsize>(
                                       std::min<std::uint64_t>(noise.size(), size - offset)));
        }

        requireNoSanitizerError(path, f.scratch);
        // In-process: everything the summary reads either works or is a ReportError.
        try {
            const report::ProfileReader reader(path.string());
            (void)reader.counts();
            (void)report::summarize(reader);
        } catch (const report::ReportError& e) {
            CHECK(e.file() == path.string());
        }

        for (const char* command : {"info", "summary"}) {
            INFO(command);
            const CliResult result = runCli({command, path.string()}, f.scratch);
            INFO("stderr: " << result.err);
            REQUIRE(result.exited);
            if (result.exitCode == 0) {
                CHECK(result.err.empty());
                continue;
            }
            CHECK(result.exitCode == 1);
            REQUIRE(result.errLines().size() == 1);
            CHECK_THAT(result.errLines()[0],
                       Catch::StartsWith("tilescope-cli: " + path.string() + ": "));
        }
    }
}

TEST_CASE("a damaged per-tile blob fails the export with the table, row and column") {
    const BadInputFixture f;
    const fs::path path = f.copyOfValid("blob.pop");
    // Tag 1 (Packed32) announcing 64 elements, with no payload: a valid schema, a broken series.
    tamper(path, "UPDATE tile_memory SET per_tile = x'0140'");
    const CliResult result =
        runCli({"export", path.string(), "-t", "tile_memory", "--decode-series", "--format", "json",
                "-o", (f.scratch / "out.json").string()},
               f.scratch);
    REQUIRE(result.exited);
    CHECK(result.exitCode == 1);
    REQUIRE(result.errLines().size() == 1);
    CHECK_THAT(result.errLines()[0], Catch::StartsWith("tilescope-cli: " + path.string() +
                                                       ": table tile_memory, row 1, "
                                                       "column per_tile: "));
    CHECK_FALSE(fs::exists(f.scratch / "out.json")); // no half-written export left behind

    // Without decoding, the same table exports (as hex).
    const CliResult raw = runCli({"export", path.string(), "-t", "tile_memory"}, f.scratch);
    CHECK(raw.exitCode == 0);
}
