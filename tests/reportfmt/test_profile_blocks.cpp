// Lightweight-profiling blocks (format v5): the writer and reader round trip, statistics per
// block, refused and damaged rows, and files of the v4 writer that record none.

#include "SmallReport.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/Schema.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

using namespace tilescope::report;
using tilescope::testing::fileBytes;
using tilescope::testing::TempDir;
using tilescope::testing::writeCompileProfile;
namespace fs = std::filesystem;

namespace {

BlockRecord block(std::uint32_t tile, BlockKind kind, std::optional<std::int64_t> program,
                  std::uint64_t from, std::uint64_t to, std::uint64_t dropped = 0) {
    BlockRecord b;
    b.tile = tile;
    b.kind = kind;
    b.programId = program;
    b.cyclesFrom = from;
    b.cyclesTo = to;
    b.dropped = dropped;
    return b;
}

/// A compile profile of 2 IPUs x 8 tiles with a program "stage" and blocks of two runs.
std::int64_t writeProfile(const fs::path& path) {
    ProfileWriter w(path);
    writeCompileProfile(w, 2, 8);
    ProgramRecord p;
    p.kind = "Block";
    p.name = "stage";
    const std::int64_t stage = w.addProgram(p);
    w.finishCompilation();
    // Out of order on purpose: the reader sorts by tile and first cycle, enclosing first.
    w.addBlocks(0, {block(8, BlockKind::Common, stage, 100, 200),
                    block(0, BlockKind::Common, stage, 150, 170),
                    block(0, BlockKind::Common, stage, 100, 300)});
    BlockRecord overflow = block(0, BlockKind::Overflow, std::nullopt, 400, 900, 7);
    overflow.runStartCycle = 350; // the second run started at cycle 350
    w.addBlocks(1, {overflow});
    w.close();
    return stage;
}

} // namespace

TEST_CASE("Blocks are written and read back per tile, nested blocks after their parents") {
    TempDir dir("tilescope-blocks");
    const fs::path path = dir / "blocks.pop";
    const auto stage = writeProfile(path);
    ProfileReader r(path.string());
    CHECK(r.file().formatVersion() == Schema::kProfileVersion);
    CHECK(r.numBlocks() == 4);
    CHECK(r.blockTiles() == std::vector<std::uint32_t>{0, 8});
    const auto tile0 = r.blocks(0);
    REQUIRE(tile0.size() == 3);
    CHECK(tile0[0].cyclesTo == 300); // the enclosing block first
    CHECK(tile0[1].cyclesFrom == 150);
    CHECK(tile0[1].programId == stage);
    CHECK(tile0[2].kind == BlockKind::Overflow);
    CHECK(tile0[2].dropped == 7);
    CHECK(tile0[2].runIndex == 1);
    CHECK(tile0[2].runStartCycle == 350);
    CHECK(tile0[0].runStartCycle == 0);
    CHECK_FALSE(tile0[2].programId);
    CHECK(r.blocks(8).size() == 1);
    CHECK(r.blocks().size() == 4);

    const auto stats = r.blockStatistics();
    REQUIRE(stats.size() == 2);
    CHECK(stats[0].name == "stage");
    CHECK(stats[0].count == 3);
    CHECK(stats[0].minCycles == 20);
    CHECK(stats[0].maxCycles == 200);
    CHECK(stats[0].meanCycles == Approx(320.0 / 3));
    CHECK(stats[1].name == "Overflow");
    CHECK(stats[1].dropped == 7);
}

TEST_CASE("Blocks off the target are refused, damaged kinds are reported against the file") {
    TempDir dir("tilescope-blocks");
    {
        ProfileWriter w(dir / "refused.pop");
        writeCompileProfile(w, 1, 4);
        w.finishCompilation();
        CHECK_THROWS_WITH(w.addBlocks(0, {block(4, BlockKind::Common, std::nullopt, 0, 1)}),
                          Catch::Contains("tile 4"));
        CHECK_THROWS_AS(w.addBlocks(0, {block(0, BlockKind::Common, std::nullopt, 5, 1)}),
                        ReportError);
        w.close();
    }
    const fs::path path = dir / "damaged.pop";
    writeProfile(path);
    tilescope::testing::execSql(path, "UPDATE block SET kind = 42 WHERE tile = 8");
    ProfileReader r(path.string());
    CHECK(r.blocks(0).size() == 3);
    CHECK_THROWS_WITH(r.blocks(8), Catch::Contains("unknown kind 42") &&
                                       Catch::Contains(path.filename().string()));
}

TEST_CASE("Files of the v4 writer open without blocks and are not changed") {
    TempDir dir("tilescope-blocks");
    const fs::path copy = dir / "v4.pop";
    fs::copy_file(fs::path(TILESCOPE_TEST_DATA) / "format-v4" / "profile.pop", copy);
    const std::string before = fileBytes(copy);
    {
        ProfileReader r(copy.string());
        CHECK(r.file().formatVersion() == 4);
        CHECK(r.numBlocks() == 0);
        CHECK(r.blocks(0).empty());
        CHECK(r.blockStatistics().empty());
        CHECK(r.target().numTiles() == 32);
        CHECK_FALSE(r.runs().empty());
        CHECK_FALSE(r.tilePlacement().empty());
    }
    CHECK(fileBytes(copy) == before);
}

TEST_CASE("Blocks of one run in a window of run-relative cycles come with their names") {
    TempDir dir("tilescope-blocks");
    const fs::path path = dir / "blocks.pop";
    writeProfile(path);
    ProfileReader r(path.string());
    std::vector<std::string> names;
    const auto run0 = r.blocksOfRun(0, 0, 1000, 100, &names);
    REQUIRE(run0.size() == 3);
    CHECK(names == std::vector<std::string>{"stage", "stage", "stage"});
    CHECK(run0[2].tile == 8);
    CHECK(r.blocksOfRun(0, 0, 1000, 2).size() == 2);
    CHECK(r.blocksOfRun(0, 160, 175, 100).size() == 3); // inner, its parent, and tile 8's
    CHECK(r.blocksOfRun(0, 301, 1000, 100).empty());
    names.clear();
    const auto run1 = r.blocksOfRun(1, 0, 100, 100, &names); // 400..900 from a start at 350
    REQUIRE(run1.size() == 1);
    CHECK(names == std::vector<std::string>{"Overflow"});
    CHECK(r.blocksOfRun(1, 551, 1000, 100).empty());
}

TEST_CASE("A run lasts the device's cycle count when block instrumentation follows its last step") {
    TempDir dir("tilescope-blocks");
    const fs::path path = dir / "runs.pop";
    std::uint64_t lastStepEnd[2] = {0, 0};
    {
        ProfileWriter w(path);
        const auto profile = writeCompileProfile(w, 2, 8);
        for (std::int64_t r = 0; r < 2; ++r) {
            w.beginRun(0, 1000 + r);
            const auto step = tilescope::testing::syntheticRunStep(profile, r, 0);
            const std::uint64_t end = step.startCycle + step.cycles;
            lastStepEnd[r] = end;
            w.addRunStep(step);
            // Run 0: the exit edge of a block 36 cycles past the step; run 1: a count that is
            // less than the steps' end changes nothing.
            w.endRun(2000 + r, r == 0 ? end + 36 : end / 2);
        }
        w.close();
    }
    const ProfileReader r(path.string());
    const auto runs = r.runs();
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].totalCycles == lastStepEnd[0] + 36);
    CHECK(runs[1].totalCycles == lastStepEnd[1]);
}
