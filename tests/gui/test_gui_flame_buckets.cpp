// ProgramPathCache::lodPrograms (the flame's pyramid buckets kept across windows) against the
// reader's own query, and zoomed-out flame rows at most one bar per pixel.
#include "TestReports.hpp"
#include "execution/ExecutionModel.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace tilescope;
using namespace tilescope::gui;
using gui::test::openSession;
using gui::test::smallReport;

namespace {

void requireSame(const std::vector<report::RunLodProgram>& got,
                 const std::vector<report::RunLodProgram>& expected) {
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("bucket " << expected[i].bucket);
        REQUIRE(got[i].bucket == expected[i].bucket);
        REQUIRE(got[i].steps == expected[i].steps);
        REQUIRE(got[i].programId == expected[i].programId);
    }
}

} // namespace

TEST_CASE("Flame pyramid buckets read once match the reader at every window") {
    report::ProfileReader reader(smallReport().string());
    const report::RunRecord run = reader.runs().front();
    const std::int64_t level = reader.runLodLevelFor(run, double(run.totalCycles));
    REQUIRE(level >= 0);
    const double width = double(reader.runLodBaseCycles()) * std::pow(4.0, double(level));
    const auto buckets = std::int64_t(std::ceil(double(run.totalCycles) / width));
    REQUIRE(buckets >= 4);
    const auto expected = [&](std::int64_t first, std::int64_t last) {
        return reader.runLodPrograms(run, level, std::uint64_t(double(first) * width),
                                     std::uint64_t(double(last) * width));
    };
    ProgramPathCache cache;
    // A middle window, then windows overlapping it on either side (a pan), the whole level,
    // and ranges reaching past the ends.
    const std::int64_t mid = buckets / 2;
    for (const auto& [first, last] :
         std::vector<std::pair<std::int64_t, std::int64_t>>{{mid - 1, mid},
                                                            {mid - 2, mid - 1},
                                                            {mid, buckets - 1},
                                                            {0, buckets - 1},
                                                            {mid, mid},
                                                            {-5, 1},
                                                            {buckets - 2, buckets + 10}}) {
        INFO("buckets " << first << "-" << last);
        requireSame(cache.lodPrograms(reader, run, level, first, last, width),
                    expected(std::max<std::int64_t>(first, 0), std::min(last, buckets - 1)));
    }
    REQUIRE(cache.lodPrograms(reader, run, level, buckets, buckets + 3, width).empty());
}

TEST_CASE("Zoomed-out flame rows hold at most one bar per pixel") {
    // Enough cycles for a pyramid of several levels (the small report has one).
    report::SyntheticSpec spec;
    spec.ipus = 1;
    spec.tilesPerIpu = 16;
    spec.steps = 20000;
    spec.perTileCycles = false;
    const auto path =
        report::generateSyntheticReport(gui::test::scratchDir("flame-levels"), spec).profile;
    auto session = openSession(path);
    report::ProfileReader reader(path.string());
    const report::RunRecord run = reader.runs().front();
    ProgramPathCache programs;
    const ExecutionModel::Layers flame{ExecutionModel::Flame, 0, 0, &programs};
    const int widthPx = 2000;
    auto w = ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, widthPx, flame);
    REQUIRE(w.lodLevel >= 0);
    // The columns' level has one to four buckets per pixel; the flame reads the one above.
    const double above = double(reader.runLodBaseCycles()) * std::pow(4.0, double(w.lodLevel + 1));
    REQUIRE(reader.runLodLevelFor(run, above * 1.001) == w.lodLevel + 1);
    REQUIRE(double(run.totalCycles) / above <= widthPx);
    programs.resolve(reader, w.flame.missing);
    w = ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, widthPx, flame);
    REQUIRE(w.flame.missing.empty());
    REQUIRE(!w.flame.rows.empty());
    for (const auto& row : w.flame.rows) {
        REQUIRE(row.size() <= std::size_t(widthPx));
        for (std::size_t i = 1; i < row.size(); ++i)
            REQUIRE(row[i - 1].endCycle <= row[i].firstCycle);
    }
    double rootSteps = 0;
    for (const auto& s : w.flame.rows.front())
        rootSteps += s.steps;
    REQUIRE(rootSteps == double(run.numSteps)); // every step counted once, whatever the level
}
