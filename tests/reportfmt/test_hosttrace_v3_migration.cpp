// A host trace written by the format-v3 writer (tests/data/hosttrace-v3, one event row per event)
// opens through the v4 reader, read-only and unmodified: its events are packed into temp event
// blocks at open and read back exactly as the v3 reader returned them (recorded below from the
// v3 code), ids included; the other readers (scan, statistics, search, export) see them too.
// v3 and v4 files (tests/data/hosttrace-v4) open with an empty temp event_metadata (v5).

#include "SmallReport.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceScan.hpp"
#include "tilescope/report/HostTraceStatistics.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <limits>
#include <string>

using namespace tilescope::report;
namespace fs = std::filesystem;
using tilescope::testing::fileBytes;

namespace {

struct ExpectedEvent {
    std::int64_t id, thread, channel;
    const char* name;
    int kind;
    std::int64_t start, end; // -1: no end
    std::int32_t depth;
};

// HostTraceReader::events(thread, depth, min, max, 1000) of the v3 code, thread by thread and
// depth by depth (make_host_pvti.cpp printed them).
const ExpectedEvent kV3Events[] = {
    {7, 1, 1, "step", 0, 1000050, 1009000, 0},
    {15, 1, 1, "step", 0, 1010050, 1019000, 0},
    {23, 1, 1, "step", 0, 1020050, 1029000, 0},
    {31, 1, 1, "step", 0, 1030050, 1039000, 0},
    {1, 1, 1, "forward", 0, 1000100, 1003000, 1},
    {5, 1, 1, "backward", 0, 1004000, 1008000, 1},
    {9, 1, 1, "forward", 0, 1010100, 1013000, 1},
    {13, 1, 1, "backward", 0, 1014000, 1018000, 1},
    {17, 1, 1, "forward", 0, 1020100, 1023000, 1},
    {21, 1, 1, "backward", 0, 1024000, 1028000, 1},
    {25, 1, 1, "forward", 0, 1030100, 1033000, 1},
    {29, 1, 1, "backward", 0, 1034000, 1038000, 1},
    {3, 1, 2, "mark", 1, 1003500, 1003500, 2},
    {4, 1, 1, "sync", 0, 1004100, 1004900, 2},
    {11, 1, 2, "mark", 1, 1013500, 1013500, 2},
    {12, 1, 1, "sync", 0, 1014100, 1014900, 2},
    {19, 1, 2, "mark", 1, 1023500, 1023500, 2},
    {20, 1, 1, "sync", 0, 1024100, 1024900, 2},
    {27, 1, 2, "mark", 1, 1033500, 1033500, 2},
    {28, 1, 1, "sync", 0, 1034100, 1034900, 2},
    {6, 2, 2, "load batch", 0, 1000000, 1002000, 0},
    {14, 2, 2, "load batch", 0, 1010000, 1012007, 0},
    {22, 2, 2, "load batch", 0, 1020000, 1022014, 0},
    {30, 2, 2, "load batch", 0, 1030000, 1032021, 0},
    {2, 2, 2, "read", 0, 1000050, 1000700, 1},
    {10, 2, 2, "read", 0, 1010050, 1010713, 1},
    {18, 2, 2, "read", 0, 1020050, 1020726, 1},
    {26, 2, 2, "read", 0, 1030050, 1030739, 1},
    {8, 3, 2, "mark", 1, 1005555, 1005555, 0},
    {16, 3, 2, "mark", 1, 1015555, 1015555, 0},
    {24, 3, 2, "mark", 1, 1025555, 1025555, 0},
    {32, 3, 2, "mark", 1, 1035555, 1035555, 0},
    {33, 3, 1, "hang", 2, 1050000, -1, 0},
    {34, 3, 1, "read", 0, 1045000, 1046000, 1},
};

fs::path fixture() {
    return fs::path(TILESCOPE_TEST_DATA) / "hosttrace-v3" / "host.pvti";
}

} // namespace

TEST_CASE("a format-v3 host trace opens with its events as the v3 reader returned them") {
    const auto before = fileBytes(fixture());
    {
        HostTraceReader reader(fixture().string());
        CHECK(reader.file().formatVersion() == 3);
        CHECK(reader.counts().events == 34);
        CHECK(reader.counts().samples == 6);
        CHECK(reader.timeSpan() == std::pair<std::int64_t, std::int64_t>{1'000'000, 1'050'000});
        CHECK(reader.hasLevelOfDetail());
        std::size_t next = 0;
        for (const ThreadInfo& thread : reader.threads()) {
            const std::int32_t maxDepth = reader.maxDepth(thread.id);
            CHECK(maxDepth == (thread.id == 1 ? 2 : 1));
            for (std::int32_t depth = 0; depth <= maxDepth; ++depth)
                for (const HostEvent& e :
                     reader.events(thread.id, depth, std::numeric_limits<std::int64_t>::min(),
                                   std::numeric_limits<std::int64_t>::max(), 1000)) {
                    REQUIRE(next < std::size(kV3Events));
                    const ExpectedEvent& want = kV3Events[next++];
                    INFO("event " << want.id);
                    CHECK(e.id == want.id);
                    CHECK(e.threadId == want.thread);
                    CHECK(e.channelId == want.channel);
                    CHECK(reader.name(e.nameId) == want.name);
                    CHECK(static_cast<int>(e.kind) == want.kind);
                    CHECK(e.startNs == want.start);
                    CHECK(e.endNs == (want.end < 0 ? std::nullopt : std::optional(want.end)));
                    CHECK(e.depth == depth);
                }
        }
        CHECK(next == std::size(kV3Events));

        // A window in the middle: the event running into it, then those starting inside it.
        const auto window = reader.events(1, 1, 1'005'000, 1'014'500, 10);
        REQUIRE(window.size() == 3);
        CHECK(window[0].id == 5);
        CHECK(window[1].id == 9);
        CHECK(window[2].id == 13);
        // The unfinished event runs to the end of the trace.
        const auto late = reader.events(3, 0, 1'060'000, 1'070'000, 10);
        REQUIRE(late.size() == 1);
        CHECK(late[0].id == 33);

        // The other v3 tables are untouched by the upgrade.
        CHECK(reader.heatmaps().size() == 1);
        CHECK(reader.asyncTracks().size() == 1);
        CHECK(reader.flows(10).size() == 1);
        REQUIRE(reader.droppedEvents().size() == 1);
        CHECK(reader.droppedEvents()[0].events == 17);

        // Whole-file readers over the upgraded blocks.
        const auto columns = scanThreadEvents(reader, {2});
        REQUIRE(columns[0].size() == 8);
        CHECK(columns[0].id.front() == 6);
        CHECK(columns[0].id.back() == 26);
        bool truncated = true;
        std::int64_t mark = 0;
        for (const auto& [id, text] : hostTraceNames(reader))
            if (text == "mark")
                mark = id;
        const auto marks = findEventsByName(reader, {mark}, 100, &truncated);
        CHECK(marks.size() == 8);
        CHECK_FALSE(truncated);
        const HostCallTree tree = buildCallTree(reader, 1'000'000, 1'050'000);
        CHECK(tree.events == 34);
    }
    CHECK(fileBytes(fixture()) == before);
}

TEST_CASE("format-v3 and v4 host traces open with no tracepoint metadata, unmodified") {
    const fs::path v4 = fs::path(TILESCOPE_TEST_DATA) / "hosttrace-v4" / "host.pvti";
    for (const fs::path& file : {fixture(), v4}) {
        INFO(file);
        const auto before = fileBytes(file);
        {
            HostTraceReader reader(file.string());
            CHECK(reader.file().formatVersion() == (file == v4 ? 4 : 3));
            CHECK(reader.counts().events == 34);
            CHECK(reader.eventsWithMetadata() == 0);
            CHECK(reader.eventMetadata(1).empty());
            CHECK(reader.eventMetadataBetween(0, 1000).empty());
        }
        CHECK(fileBytes(file) == before);
    }
}
