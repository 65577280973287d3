// Operations rolled up (report::OperationRollup) and `tilescope-cli operations`: on a hand-written
// report with nested operations, every operation's inclusive totals are its own plus its
// descendants', and the command prints exactly what the library computes.

#include "CliProcess.hpp"
#include "SmallReport.hpp"
#include "tilescope/report/OperationRollup.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

using nlohmann::json;
using tilescope::testing::runCli;
using tilescope::testing::ScratchDir;
namespace report = tilescope::report;

namespace {

// "model/block/head0" is no operation: "scores" nests directly in "block".
const std::vector<tilescope::testing::NestedOperation> kOps = {
    {"model", "model", 5, 50, 32, std::nullopt},
    {"block", "model/block", 100, 200, 64, 10},
    {"matMul", "model/block/head0/scores", 1000, 400, 256, 5000},
    {"reduce", "model/block/head0/scores/reduce", 300, 100, 0, 70},
    {"other", "other", 7, 8, 16, std::nullopt},
};

std::filesystem::path writeNestedReport(const ScratchDir& dir) {
    const auto path = dir / "profile.pop";
    tilescope::testing::writeNestedOperationsReport(path, kOps, 2);
    return path;
}

} // namespace

TEST_CASE("operations roll up into self and inclusive totals") {
    const ScratchDir dir;
    const report::ProfileReader reader(writeNestedReport(dir).string());
    const report::RolledUpOperations rolled = report::rollUpOperations(reader);
    const auto& up = rolled.rollup;
    REQUIRE(rolled.operations.size() == std::size(kOps));
    CHECK(up.parent == std::vector<int>{-1, 0, 1, 2, -1});
    CHECK(up.descendants == std::vector<int>{3, 2, 1, 0, 0});
    for (std::size_t i = 0; i < std::size(kOps); ++i) {
        CHECK(up.self[i].cycles == kOps[i].cycles);
        CHECK(up.self[i].flops == kOps[i].flops);
    }
    // model: 5 + 100 + 1000 + 300; block: 100 + 1000 + 300; scores: 1000 + 300.
    CHECK(up.inclusive[0].cycles == 1405);
    CHECK(up.inclusive[1].cycles == 1400);
    CHECK(up.inclusive[2].cycles == 1300);
    CHECK(up.inclusive[3].cycles == 300);
    CHECK(up.inclusive[0].codeBytes == 50 + 200 + 400 + 100);
    CHECK(up.inclusive[0].variableBytes == 32 + 64 + 256);
    CHECK(up.inclusive[0].steps == 4);
    CHECK(up.inclusive[0].flops == std::optional<std::uint64_t>(10 + 5000 + 70));
    CHECK(up.inclusive[4].cycles == 7);
    CHECK_FALSE(up.inclusive[4].flops);
    // Inclusive = self + the children's inclusive, for every operation.
    for (std::size_t i = 0; i < std::size(kOps); ++i) {
        std::uint64_t cycles = up.self[i].cycles;
        for (std::size_t c = 0; c < std::size(kOps); ++c)
            if (up.parent[c] == int(i))
                cycles += up.inclusive[c].cycles;
        CHECK(up.inclusive[i].cycles == cycles);
    }
}

TEST_CASE("tilescope-cli operations prints self and inclusive totals") {
    const ScratchDir dir;
    const auto path = writeNestedReport(dir);
    const auto result = runCli({"operations", path.string(), "--format", "json"}, dir);
    INFO("stderr: " << result.err);
    REQUIRE(result.exited);
    REQUIRE(result.exitCode == 0);
    const json rows = json::parse(result.out);
    REQUIRE(rows.size() == std::size(kOps));
    CHECK(rows[0]["debug_path"] == "model");
    CHECK(rows[0]["within"].is_null());
    CHECK(rows[0]["sub_operations"] == 3);
    CHECK(rows[0]["cycles"] == 5);
    CHECK(rows[0]["cycles_inclusive"] == 1405);
    CHECK(rows[0]["flops"].is_null());
    CHECK(rows[0]["flops_inclusive"] == 5080);
    CHECK(rows[3]["within"] == "model/block/head0/scores");
    CHECK(rows[1]["memory_bytes_inclusive"] == 64 + 256);
    CHECK(rows[4]["cycles_inclusive"] == 7);

    const auto text = runCli({"operations", path.string()}, dir);
    REQUIRE(text.exitCode == 0);
    CHECK_THAT(text.out, Catch::Contains("cycles_inclusive"));
    CHECK_THAT(text.out, Catch::EndsWith("(5 rows)\n"));

    // A missing file is an error, not an empty table.
    const auto bad = runCli({"operations", (dir / "missing.pop").string()}, dir);
    CHECK(bad.exitCode != 0);
}
