// A file written by the format-v1 writer (tests/data/format-v1, committed before the v2 schema
// change) must keep opening, read-only and unmodified, with every v2 feature available through the
// temp-schema migration and equal to what the current writer stores for the same program.

#include "SmallReport.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ProfileSummary.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

using namespace tilescope::report;
namespace fs = std::filesystem;

using tilescope::testing::fileBytes;
using tilescope::testing::formatFixtureSpec;

TEST_CASE("a format-v1 profile opens through the v2 reader without being modified") {
    const fs::path fixture = fs::path(TILESCOPE_TEST_DATA) / "format-v1" / "profile.pop";
    // Work on a copy: a read-only open must not even create side files next to the fixture.
    const fs::path dir = fs::temp_directory_path() / "tilescope-migration-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path copy = dir / "profile.pop";
    fs::copy_file(fixture, copy);
    const std::string before = fileBytes(copy);

    {
        ProfileReader old(copy.string());
        REQUIRE(old.file().formatVersion() == 1);
        CHECK(Schema::kProfileVersion >= 2);

        const fs::path fresh = dir / "fresh";
        generateSyntheticReport(fresh, formatFixtureSpec());
        ProfileReader now((fresh / "profile.pop").string());
        REQUIRE(now.file().formatVersion() == Schema::kProfileVersion);

        // Same generator, same seed: the data must agree, and so must the migrated pyramid.
        CHECK(old.counts().steps == now.counts().steps);
        CHECK(old.counts().variables == now.counts().variables);
        const auto a = summarize(old);
        const auto b = summarize(now);
        CHECK(a.totalBytesIncludingGaps == b.totalBytesIncludingGaps);
        CHECK(a.peakNotAlwaysLiveBytes == b.peakNotAlwaysLiveBytes);
        REQUIRE(a.runs.size() == b.runs.size());
        CHECK(a.runs[0].cycles == b.runs[0].cycles);

        for (std::int64_t level = 0; level < 3; ++level) {
            const auto la = old.livenessLod(level, 0, 1 << 30);
            const auto lb = now.livenessLod(level, 0, 1 << 30);
            REQUIRE(la.size() == lb.size());
            for (std::size_t i = 0; i < la.size(); ++i) {
                CHECK(la[i].firstStep == lb[i].firstStep);
                CHECK(la[i].lastStep == lb[i].lastStep);
                CHECK(la[i].maxNotAlwaysLiveBytes == lb[i].maxNotAlwaysLiveBytes);
                CHECK(la[i].minNotAlwaysLiveBytes == lb[i].minNotAlwaysLiveBytes);
            }
        }
        const auto level0 = old.livenessLod(0, 0, 1 << 30);
        REQUIRE_FALSE(level0.empty());
        // The pyramid agrees with the steps it summarises.
        const auto steps =
            old.steps(level0[0].firstStep, level0[0].lastStep - level0[0].firstStep + 1);
        std::uint64_t maxNal = 0;
        for (const auto& s : steps)
            maxNal = std::max(maxNal, s.notAlwaysLiveBytes);
        CHECK(level0[0].maxNotAlwaysLiveBytes == maxNal);
    }
    CHECK(fileBytes(copy) == before);
    for (const char* suffix : {"-wal", "-shm", "-journal"})
        CHECK_FALSE(fs::exists(copy.string() + suffix));
    fs::remove_all(dir);
}
