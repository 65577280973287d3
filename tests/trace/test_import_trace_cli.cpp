// `tilescope-cli import-trace IN -o OUT.pvti [--strict]` as other checks rely on it: one summary
// line of repairs, exit 0 on import (with or without repairs), 1 on a refused file (nothing left
// at -o), 2 on a usage error; `info` shows what the import repaired.

#include "../reportfmt/CliProcess.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

using tilescope::testing::runCli;
using tilescope::testing::ScratchDir;
namespace fs = std::filesystem;

namespace {
const std::string kCorpus = std::string(TILESCOPE_TEST_DATA) + "/chrome/";
}

TEST_CASE("import-trace prints one summary line of repairs and exits 0") {
    ScratchDir scratch;
    const auto out = (scratch / "cut.pvti").string();
    const auto r =
        runCli({"import-trace", kCorpus + "clang-ftime-trace-cut-off.json", "-o", out}, scratch);
    REQUIRE(r.exited);
    CHECK(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::StartsWith("imported 187 events; reordered 75; dropped 0 unmatched "
                                        "E; closed 0 unfinished B; 0 overlapping slices on own "
                                        "rows; file cut off, dropped 1 partial event\n"));
    CHECK(fs::exists(out));
    const auto info = runCli({"info", out}, scratch);
    CHECK(info.exitCode == 0);
    CHECK_THAT(info.out, Catch::Contains("Imported from   clang-ftime-trace-cut-off.json") &&
                             Catch::Contains("Import          imported 187 events; reordered 75"));
    const auto asJson = runCli({"info", out, "--format", "json"}, scratch);
    CHECK_THAT(asJson.out, Catch::Contains("\"reordered\": 75"));
}

TEST_CASE("import-trace --strict refuses a repaired file with exit 1 and leaves nothing") {
    ScratchDir scratch;
    const auto out = (scratch / "strict.pvti").string();
    const auto r = runCli(
        {"import-trace", kCorpus + "overlap-and-unmatched.json", "-o", out, "--strict"}, scratch);
    REQUIRE(r.exited);
    CHECK(r.exitCode == 1);
    CHECK_THAT(r.err, Catch::Contains("refused (--strict): line 3, column 1, thread pid 0 tid 1"));
    CHECK_FALSE(fs::exists(out));
    CHECK(fs::is_empty(scratch.path()));
    const auto clean =
        runCli({"import-trace", kCorpus + "in-order.json", "-o", out, "--strict"}, scratch);
    CHECK(clean.exitCode == 0);
    CHECK(fs::exists(out));
}

TEST_CASE("import-trace refuses what is not a trace with exit 1, and bad usage with exit 2") {
    ScratchDir scratch;
    const auto out = (scratch / "x.pvti").string();
    for (const char* file : {"not-json.json", "other-shape.json", "event-without-ph.json"}) {
        INFO(file);
        const auto r = runCli({"import-trace", kCorpus + file, "-o", out}, scratch);
        CHECK(r.exitCode == 1);
        CHECK(r.errLines().size() == 1);
        CHECK_FALSE(fs::exists(out));
    }
    CHECK(runCli({"import-trace", kCorpus + "in-order.json"}, scratch).exitCode == 2);
    CHECK(runCli({"import-trace", kCorpus + "in-order.json", "-o", out, "--bogus"}, scratch)
              .exitCode == 2);
    CHECK(fs::is_empty(scratch.path()));
}
