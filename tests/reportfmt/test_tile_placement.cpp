// Tile placement (format v4): the simulated floor plan, its consistency checks, the writer and
// reader round trip, damaged tables, and files of the v3 writer that record none.

#include "SmallReport.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/Schema.hpp"
#include "tilescope/report/SyntheticReport.hpp"
#include "tilescope/report/TilePlacement.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>

using namespace tilescope::report;
using tilescope::testing::fileBytes;
using tilescope::testing::TempDir;
using tilescope::testing::writeCompileProfile;
namespace fs = std::filesystem;

namespace {

/// A finished compile profile of 2 IPUs x 8 tiles, with `placement` when it is not empty.
void writeProfile(const fs::path& path, const TilePlacement& placement) {
    ProfileWriter w(path);
    writeCompileProfile(w, 2, 8);
    if (!placement.empty())
        w.setTilePlacement(placement);
    w.finishCompilation();
    w.close();
}

} // namespace

TEST_CASE("The simulated floor plan puts every tile of an IPU in its own cell") {
    SECTION("Mk2: 23 columns of 32 tiles on each side of the spine") {
        const auto p = TilePlacement::spineColumns(2, 1472, 32);
        CHECK(p.columns == 23);
        CHECK(p.rows == 64);
        CHECK(p.problem(2, 1472).empty());
        // Tiles 0 and 1 share a port just above the spine, 2 and 3 just below it.
        CHECK((p.x[0] == 0 && p.y[0] == 31 && p.x[1] == 0 && p.y[1] == 30));
        CHECK((p.x[2] == 0 && p.y[2] == 32 && p.x[3] == 0 && p.y[3] == 33));
        // Pair 32 (tiles 64, 65) is the first pair of the second column above the spine.
        CHECK((p.x[64] == 1 && p.y[64] == 31));
        // The second IPU repeats the first.
        CHECK((p.x[1472 + 5] == p.x[5] && p.y[1472 + 5] == p.y[5]));
    }
    SECTION("Mk1: 19 columns") {
        const auto p = TilePlacement::spineColumns(1, 1216, 32);
        CHECK(p.columns == 19);
        CHECK(p.rows == 64);
        CHECK(p.problem(1, 1216).empty());
    }
    SECTION("any tile count and column height gives a consistent grid") {
        for (std::uint32_t tiles : {1u, 2u, 3u, 5u, 8u, 63u, 64u, 65u, 100u, 1471u})
            for (std::uint32_t column : {0u, 1u, 2u, 7u, 32u}) {
                INFO(tiles << " tiles, columns of " << column);
                const auto p = TilePlacement::spineColumns(3, tiles, column);
                CHECK(p.problem(3, tiles).empty());
                // No empty column at the right of the die.
                std::set<std::uint32_t> used(p.x.begin(), p.x.end());
                CHECK(used.size() == p.columns);
            }
        // Small IPUs get short columns instead of a mostly empty die.
        const auto eight = TilePlacement::spineColumns(1, 8, 32);
        CHECK(eight.columns == 1);
        CHECK(eight.rows == 8);
    }
}

TEST_CASE("Physical order walks each IPU's die column by column, top to bottom") {
    const auto p = TilePlacement::spineColumns(2, 1472, 32);
    const auto order = p.physicalOrder(1472);
    REQUIRE(order.size() == 2 * 1472);
    CHECK(std::set<std::uint32_t>(order.begin(), order.end()).size() == order.size());
    for (std::size_t pos = 0; pos < order.size(); ++pos) {
        REQUIRE(order[pos] / 1472 == pos / 1472); // IPUs stay apart
        if (pos % 1472 == 0)
            continue;
        const auto a = order[pos - 1], b = order[pos];
        REQUIRE((p.x[a] < p.x[b] || (p.x[a] == p.x[b] && p.y[a] < p.y[b])));
    }
    // The top left cell holds the last pair of column 0 above the spine: pair 30, tile 61.
    CHECK(order[0] == 61);
    CHECK(order[1472] == 1472 + 61);
}

TEST_CASE("An inconsistent placement names what is wrong") {
    auto p = TilePlacement::spineColumns(2, 8, 4);
    REQUIRE(p.problem(2, 8).empty());
    CHECK_THAT(p.problem(2, 9), Catch::Contains("covers 16"));
    auto outside = p;
    outside.x[3] = outside.columns;
    CHECK_THAT(outside.problem(2, 8), Catch::Contains("tile 3 is placed at"));
    auto twice = p;
    twice.x[9] = twice.x[8];
    twice.y[9] = twice.y[8];
    CHECK_THAT(twice.problem(2, 8), Catch::Contains("tiles 8 and 9"));
    // The same cell on two IPUs is fine: each IPU has its own die.
    auto grid = p;
    grid.rows = 0;
    CHECK_THAT(grid.problem(2, 8), Catch::Contains("implausible die grid"));
    grid.rows = 1;
    grid.columns = 1;
    CHECK_THAT(grid.problem(2, 8), Catch::Contains("smaller than the 8 tiles"));
}

TEST_CASE("The writer stores a placement and the reader gives it back") {
    TempDir dir("tilescope-placement");
    const auto placement = TilePlacement::spineColumns(2, 8, 4);
    writeProfile(dir / "placed.pop", placement);
    writeProfile(dir / "unplaced.pop", {});
    {
        ProfileReader r((dir / "placed.pop").string());
        CHECK(r.file().formatVersion() == Schema::kProfileVersion);
        const TilePlacement back = r.tilePlacement();
        CHECK(back.columns == placement.columns);
        CHECK(back.rows == placement.rows);
        CHECK(back.x == placement.x);
        CHECK(back.y == placement.y);
    }
    CHECK(ProfileReader((dir / "unplaced.pop").string()).tilePlacement().empty());

    SECTION("a placement that does not fit the target is refused and the file stays whole") {
        const fs::path path = dir / "refused.pop";
        {
            ProfileWriter w(path);
            writeCompileProfile(w, 2, 8);
            CHECK_THROWS_WITH(w.setTilePlacement(TilePlacement::spineColumns(1, 8, 4)),
                              Catch::Contains("covers 8 and 8 tiles, the target has 16"));
            w.finishCompilation();
            w.close();
        }
        ProfileReader r(path.string());
        CHECK(r.tilePlacement().empty());
        CHECK(r.hasCompilation());
    }
    SECTION("a synthetic report records the simulated floor plan") {
        SyntheticSpec spec;
        spec.ipus = 2;
        spec.tilesPerIpu = 64;
        spec.steps = 40;
        generateSyntheticReport(dir / "synth", spec);
        const auto p = ProfileReader((dir / "synth" / "profile.pop").string()).tilePlacement();
        const auto expected = TilePlacement::spineColumns(2, 64, 32);
        CHECK(p.x == expected.x);
        CHECK(p.y == expected.y);
    }
}

TEST_CASE("A damaged placement is reported as such, and the rest of the report still reads") {
    TempDir dir("tilescope-placement");
    const fs::path path = dir / "damaged.pop";
    writeProfile(path, TilePlacement::spineColumns(2, 8, 4));
    const char* damage = GENERATE(
        "UPDATE tile_placement SET die_columns = 0", "UPDATE tile_placement SET die_x = x'ff'",
        // Tile 0 moved onto tile 1's cell: x = 0 for all, y = 0 twice.
        "UPDATE tile_placement SET die_y = (SELECT die_x FROM tile_placement)",
        "UPDATE tile_placement SET die_rows = 1, die_columns = 1");
    INFO(damage);
    tilescope::testing::execSql(path, damage);
    ProfileReader r(path.string());
    CHECK(r.target().numTiles() == 16);
    CHECK(r.hasCompilation());
    try {
        (void)r.tilePlacement();
        FAIL("a damaged placement was accepted");
    } catch (const ReportError& e) {
        const std::string what = e.what();
        CHECK_THAT(what, Catch::Contains("damaged") || Catch::Contains("tile placement") ||
                             Catch::Contains("placed"));
        CHECK_THAT(what, Catch::Contains(path.filename().string()));
    }
}

TEST_CASE("Files of the v3 writer open without a placement and are not changed") {
    TempDir dir("tilescope-placement");
    const fs::path copy = dir / "v3.pop";
    fs::copy_file(fs::path(TILESCOPE_TEST_DATA) / "format-v3" / "profile.pop", copy);
    const std::string before = fileBytes(copy);
    {
        ProfileReader r(copy.string());
        CHECK(r.file().formatVersion() == 3);
        CHECK(r.tilePlacement().empty());
        CHECK(r.target().numTiles() == 32);
        CHECK_FALSE(r.runs().empty());
    }
    CHECK(fileBytes(copy) == before);
}
