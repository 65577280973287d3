// Lightweight-profiling blocks in the joint host+device timeline: a track per recording tile and
// nesting depth under the report's device row, each block where its run's device time puts it
// (the run's host start plus its run-relative cycles at the target's clock), stream copies in the
// steps' stream colour, and blocks of runs the report does not hold left out and counted.
#include "TestReports.hpp"
#include "system/DeviceTraceSession.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <sqlite3.h>
#include <string>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

using Kind = TimelineModel::RowKind;

/// The small report with blocks as the engine writes them: on tile 0 a block over cycles
/// [q, 6q) of run 0 holding one over [2q, 3q); on tile 5 a stream copy's three phases; one block
/// of a run the report does not hold; on tile 0 a block over [q, 2q) of run 1. The engine was
/// loaded 1000 cycles before run 0 started, and run 1 follows run 0 on the device's counter.
std::filesystem::path reportWithBlocks(std::uint64_t& q) {
    const auto dir = test::scratchDir("joint-blocks");
    const auto path = dir / "blocks.pop";
    std::filesystem::copy_file(test::smallReport(), path,
                               std::filesystem::copy_options::overwrite_existing);
    const report::ProfileReader reader(path.string());
    REQUIRE(reader.runs().size() == 2);
    q = reader.runs()[0].totalCycles / 10;
    REQUIRE(q > 10);
    REQUIRE(reader.runs()[1].totalCycles > 2 * q);
    const auto at = [&](std::uint64_t k) { return std::to_string(1000 + k * q); };
    const std::uint64_t run1 = 1000 + reader.runs()[0].totalCycles;
    const auto at1 = [&](std::uint64_t k) { return std::to_string(run1 + k * q); };
    // clang-format off
    const std::string sql =
        "INSERT INTO block(run_index, run_start, tile, kind, program_id, step_id, cycles_from, "
        "cycles_to, dropped) VALUES "
        "(0, 1000, 0, 0, (SELECT min(id) FROM program), NULL, " + at(1) + ", " + at(6) + ", 0),"
        "(0, 1000, 0, 0, (SELECT max(id) FROM program), NULL, " + at(2) + ", " + at(3) + ", 0),"
        "(0, 1000, 5, 1, NULL, NULL, " + at(6) + ", " + at(7) + ", 0),"
        "(0, 1000, 5, 2, NULL, NULL, " + at(7) + ", " + at(8) + ", 0),"
        "(0, 1000, 5, 3, NULL, NULL, " + at(8) + ", " + at(9) + ", 0),"
        "(1, " + std::to_string(run1) + ", 0, 0, (SELECT min(id) FROM program), NULL, " + at1(1) +
        ", " + at1(2) + ", 0),"
        "(3, 99000, 0, 0, (SELECT min(id) FROM program), NULL, 99000, 99100, 0)";
    // clang-format on
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.string().c_str(), &db) == SQLITE_OK);
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    INFO((message ? message : ""));
    sqlite3_free(message);
    sqlite3_close(db);
    REQUIRE(rc == SQLITE_OK);
    return path;
}

} // namespace

TEST_CASE("Joint timeline: blocks as tracks per tile and depth on the steps' clock") {
    std::uint64_t q = 0;
    const auto path = reportWithBlocks(q);
    const auto device = DeviceTraceSession::open(path.string());
    const report::ProfileReader reader(path.string());
    const auto run = reader.runs()[0];
    const double nsPerCycle = 1e9 / reader.target().clockHz;
    const auto nsAt = [&](std::uint64_t k) {
        return run.hostStartNs + std::llround(double(k * q) * nsPerCycle);
    };

    // Tile 0 has two depths, tile 5 one; the block of the missing run is counted, not drawn.
    const auto& tracks = device->blockTracks();
    REQUIRE(tracks.size() == 3);
    CHECK((tracks[0].tile == 0 && tracks[0].depth == 0));
    CHECK((tracks[1].tile == 0 && tracks[1].depth == 1));
    CHECK((tracks[2].tile == 5 && tracks[2].depth == 0));
    CHECK(device->unplacedBlocks() == 1);

    TimelineModel model(TimelineModel::HostFiles{}, TimelineModel::DeviceFiles{device});
    const auto& rows = model.rows();
    std::vector<int> blockRows;
    int stepsRow = -1;
    for (int i = 0; i < int(rows.size()); ++i) {
        const auto& r = rows[std::size_t(i)];
        if (r.kind == Kind::DeviceTrack && r.depth >= DeviceTraceSession::FirstBlockTrack)
            blockRows.push_back(i);
        if (r.kind == Kind::DeviceTrack && r.depth == DeviceTraceSession::Steps)
            stepsRow = i;
    }
    REQUIRE(blockRows.size() == 3);
    const auto& header = rows[std::size_t(rows[std::size_t(blockRows[0])].parent)];
    CHECK(header.kind == Kind::Device);
    CHECK(header.label.endsWith(QStringLiteral("; 1 blocks of runs the report does not store")));
    CHECK(blockRows[0] == stepsRow + 1);
    CHECK(rows[std::size_t(blockRows[0])].label == QStringLiteral("blocks, tile 0"));
    CHECK(rows[std::size_t(blockRows[1])].label == QStringLiteral("blocks, tile 0, nested 1"));
    CHECK(rows[std::size_t(blockRows[2])].label == QStringLiteral("blocks, tile 5"));

    // The whole run at 10,000 pixels: every block on its own, at its cycles converted to time.
    const auto w = TimelineModel::fetchWindow(model.files(), rows, run.hostStartNs, nsAt(10) + 1,
                                              10000, blockRows, model.devices());
    const auto& outer = w.tracks.at(blockRows[0]);
    const auto& inner = w.tracks.at(blockRows[1]);
    const auto& copies = w.tracks.at(blockRows[2]);
    REQUIRE(outer.size() == 1);
    REQUIRE(inner.size() == 1);
    REQUIRE(copies.size() == 3);
    CHECK(outer[0].startNs == nsAt(1));
    CHECK(outer[0].endNs == nsAt(6));
    CHECK(outer[0].cycles == 5 * q);
    CHECK(inner[0].startNs == nsAt(2));
    CHECK(inner[0].endNs == nsAt(3));
    CHECK(inner[0].cycles == q);
    // Nesting: the inner block lies inside the outer one.
    CHECK((outer[0].startNs < inner[0].startNs && inner[0].endNs < outer[0].endNs));
    const auto streamColour = DeviceTraceSession::phaseColour("stream");
    for (std::size_t i = 0; i < copies.size(); ++i) {
        CHECK(copies[i].startNs == nsAt(6 + i));
        CHECK(copies[i].endNs == nsAt(7 + i));
        CHECK(copies[i].colour == streamColour);
    }
    CHECK(outer[0].colour != streamColour);
    CHECK(model.eventName(blockRows[2], copies[1].nameId) == QStringLiteral("StreamCopyMid"));
    CHECK(model.describeBox(blockRows[2], copies[0]).contains(QStringLiteral("tile 5")));
    CHECK(model.describeBox(blockRows[0], outer[0]).contains(QStringLiteral("Common block")));

    // A window after the blocks holds none; zoomed far out, the copies share one box.
    const auto after = TimelineModel::fetchWindow(model.files(), rows, nsAt(9) + 10, nsAt(10), 1000,
                                                  blockRows, model.devices());
    for (const int r : blockRows)
        CHECK(after.tracks.at(r).empty());
    const auto far = TimelineModel::fetchWindow(model.files(), rows, run.hostStartNs,
                                                run.hostStartNs + std::int64_t(1e12), 100,
                                                {blockRows[2]}, model.devices());
    REQUIRE(far.tracks.at(blockRows[2]).size() == 1);
    CHECK(far.tracks.at(blockRows[2])[0].count == 3);
    CHECK(far.tracks.at(blockRows[2])[0].cycles == 3 * q);

    // Run 1's block sits at its run-relative cycles after run 1's own host start.
    const auto run1 = reader.runs()[1];
    const auto second = TimelineModel::fetchWindow(
        model.files(), rows, run1.hostStartNs,
        run1.hostStartNs + std::llround(double(run1.totalCycles) * nsPerCycle), 10000,
        {blockRows[0]}, model.devices());
    REQUIRE(second.tracks.at(blockRows[0]).size() == 1);
    const auto& b = second.tracks.at(blockRows[0])[0];
    CHECK(b.startNs == run1.hostStartNs + std::llround(double(q) * nsPerCycle));
    CHECK(b.endNs == run1.hostStartNs + std::llround(double(2 * q) * nsPerCycle));
    CHECK(b.cycles == q);
}

TEST_CASE("Joint timeline: a report without blocks adds no block track") {
    const auto device = DeviceTraceSession::open(test::smallReport().string());
    CHECK(device->blockTracks().empty());
    TimelineModel model(TimelineModel::HostFiles{}, TimelineModel::DeviceFiles{device});
    for (const auto& r : model.rows())
        if (r.kind == Kind::DeviceTrack)
            CHECK(r.depth < DeviceTraceSession::FirstBlockTrack);
}
