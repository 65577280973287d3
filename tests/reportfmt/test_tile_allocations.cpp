// The tile memory map (format v6, table tile_allocation): the writer and reader round trip, what
// the writer refuses, damaged maps, and files of the v5 writer that record none.

#include "SmallReport.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/Schema.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

using namespace tilescope::report;
using tilescope::testing::CompileProfile;
using tilescope::testing::fileBytes;
using tilescope::testing::TempDir;
using tilescope::testing::writeCompileProfile;
namespace fs = std::filesystem;

namespace {

std::int64_t regionId(const CompileProfile& p, const std::string& name) {
    for (const auto& r : p.target.regions)
        if (r.name == name)
            return r.id;
    return p.target.regions.front().id;
}

} // namespace

TEST_CASE("The writer stores each tile's memory map and the reader gives it back in address "
          "order") {
    TempDir dir("tilescope-allocations");
    const fs::path path = dir / "map.pop";
    std::vector<TileAllocation> tile3;
    std::string variableName;
    {
        ProfileWriter w(path);
        const CompileProfile p = writeCompileProfile(w, 2, 8);
        const std::int64_t low = regionId(p, "non_interleaved");
        const std::int64_t variable = p.variables.front().id;
        variableName = p.variables.front().name;
        // Given out of order; a not-always-live part shares an address with another one.
        tile3 = {{4096, 512, low, memoryCategoryId("not_always_live_variables"), variable, 2, 5},
                 {0, 1024, low, memoryCategoryId("vertex_state"), {}, {}, {}},
                 {4096, 256, low, memoryCategoryId("not_always_live_variables"), {}, 7, 9},
                 {1024, 3000, low, memoryCategoryId("always_live_variables"), variable, {}, {}}};
        w.setTileAllocations(3, tile3);
        w.finishCompilation();
        w.close();
    }
    ProfileReader r(path.string());
    CHECK(r.file().formatVersion() == Schema::kProfileVersion);
    REQUIRE(r.hasTileAllocations());
    const auto back = r.tileAllocations(3);
    REQUIRE(back.size() == 4);
    CHECK(back[0].address == 0);
    CHECK(back[0].categoryId == memoryCategoryId("vertex_state"));
    CHECK_FALSE(back[0].variableId);
    CHECK(back[1].address == 1024);
    CHECK(back[1].bytes == 3000);
    CHECK(back[1].variableId == tile3[3].variableId);
    CHECK_FALSE(back[1].firstStep);
    // Equal addresses keep the order they were given in.
    CHECK(back[2].address == 4096);
    CHECK(back[2].bytes == 512);
    CHECK(back[2].firstStep == 2);
    CHECK(back[2].lastStep == 5);
    CHECK(back[3].bytes == 256);
    CHECK_FALSE(back[3].variableId);
    CHECK(back[3].lastStep == 9);
    CHECK(r.tileAllocations(4).empty()); // a tile with nothing recorded
    const auto names = r.variableNames({*back[1].variableId, 123456});
    REQUIRE(names.size() == 1);
    CHECK(names.begin()->second == variableName);
}

TEST_CASE("The writer refuses a memory map that does not fit the target") {
    TempDir dir("tilescope-allocations");
    ProfileWriter w(dir / "refused.pop");
    const CompileProfile p = writeCompileProfile(w, 2, 8);
    const std::int64_t region = p.target.regions.front().id;
    const std::int64_t category = memoryCategoryId("vertex_state");
    CHECK_THROWS_WITH(w.setTileAllocations(16, {{0, 8, region, category, {}, {}, {}}}),
                      Catch::Contains("the target has 16 tiles"));
    CHECK_THROWS_WITH(w.setTileAllocations(0, {{0, 8, 99, category, {}, {}, {}}}),
                      Catch::Contains("unknown memory region id 99"));
    CHECK_THROWS_WITH(w.setTileAllocations(0, {{0, 8, region, 0, {}, {}, {}}}),
                      Catch::Contains("unknown memory category id 0"));
    CHECK_THROWS_WITH(
        w.setTileAllocations(0, {{3 * p.target.bytesPerTile, 8, region, category, {}, {}, {}}}),
        Catch::Contains("past the tile"));
    w.finishCompilation();
    w.close();
    CHECK_FALSE(ProfileReader((dir / "refused.pop").string()).hasTileAllocations());
}

TEST_CASE("A damaged memory map is reported as such, and the rest of the report still reads") {
    TempDir dir("tilescope-allocations");
    const fs::path path = dir / "damaged.pop";
    {
        ProfileWriter w(path);
        const CompileProfile p = writeCompileProfile(w, 2, 8);
        w.setTileAllocations(
            0,
            {{0, 64, p.target.regions.front().id, memoryCategoryId("vertex_state"), {}, {}, {}}});
        w.finishCompilation();
        w.close();
    }
    const char* damage =
        GENERATE("UPDATE tile_allocation SET allocations = x'05'",   // five, none there
                 "UPDATE tile_allocation SET allocations = x'0180'", // ends inside a number
                 "UPDATE tile_allocation SET allocations = allocations || x'00'");
    INFO(damage);
    tilescope::testing::execSql(path, damage);
    ProfileReader r(path.string());
    CHECK(r.hasCompilation());
    CHECK(r.hasTileAllocations());
    try {
        (void)r.tileAllocations(0);
        FAIL("a damaged memory map was accepted");
    } catch (const ReportError& e) {
        const std::string what = e.what();
        CHECK_THAT(what, Catch::Contains("damaged tile memory map"));
        CHECK_THAT(what, Catch::Contains(path.filename().string()));
    }
}

TEST_CASE("Files of the v5 writer open without a memory map and are not changed") {
    TempDir dir("tilescope-allocations");
    const fs::path copy = dir / "v5.pop";
    fs::copy_file(fs::path(TILESCOPE_TEST_DATA) / "format-v5" / "mlp_forward.pop", copy);
    const std::string before = fileBytes(copy);
    {
        ProfileReader r(copy.string());
        CHECK(r.file().formatVersion() == 5);
        CHECK_FALSE(r.hasTileAllocations());
        CHECK(r.tileAllocations(0).empty());
        CHECK(r.hasCompilation());
        CHECK(r.counts().variables > 0);
    }
    CHECK(fileBytes(copy) == before);
}
