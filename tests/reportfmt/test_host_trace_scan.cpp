// scanThreadEvents: one scan of the event table gives, per thread, exactly the events that
// HostTraceReader::events gives track by track, in the same order, whatever order the writer
// stored them in (call order with children before parents, runs of one track, or the track order
// of an import), and refuses damaged rows as the reader does.

#include "SmallReport.hpp"
#include "tilescope/report/HostTraceScan.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ReportError.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <sqlite3.h>

using namespace tilescope::report;
using tilescope::testing::TempDir;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

void checkAgainstReader(const std::string& path) {
    HostTraceReader reader(path);
    std::vector<std::int64_t> threads;
    for (const auto& t : reader.threads())
        threads.push_back(t.id);
    REQUIRE(threads.size() >= 2);
    const auto columns = scanThreadEvents(reader, threads);
    REQUIRE(columns.size() == threads.size());
    std::size_t total = 0;
    for (std::size_t t = 0; t < threads.size(); ++t) {
        std::vector<HostEvent> want;
        for (std::int32_t d = 0; d <= reader.maxDepth(threads[t]); ++d)
            for (const auto& e : reader.events(threads[t], d, kMin, kMax, kMax))
                want.push_back(e);
        const auto& c = columns[t];
        REQUIRE(c.size() == want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            INFO("thread " << threads[t] << " row " << i);
            CHECK(c.id[i] == want[i].id);
            CHECK(c.depth[i] == want[i].depth);
            CHECK(c.startNs[i] == want[i].startNs);
            CHECK(c.endNs[i] == want[i].endNs.value_or(want[i].startNs));
            CHECK(c.kind[i] == want[i].kind);
            CHECK(c.nameId[i] == want[i].nameId);
            CHECK(c.channelId[i] == want[i].channelId);
        }
        total += want.size();
    }
    CHECK(total == static_cast<std::size_t>(reader.counts().events));
    // A thread not asked for is skipped; an unknown thread row gets no events.
    const auto one = scanThreadEvents(reader, {threads[1], 999999});
    CHECK(one[0].id == columns[1].id);
    CHECK(one[1].size() == 0);
}

} // namespace

TEST_CASE("scanThreadEvents equals the reader's per-track events for every storage order") {
    TempDir dir("tilescope-scan");
    SECTION("call order (children before parents)") {
        tilescope::testing::writeSmallHostTrace(dir / "call.pvti", 300);
        checkAgainstReader((dir / "call.pvti").string());
    }
    SECTION("scratch writer") {
        HostTraceWriterOptions o;
        o.scratchFile = true;
        tilescope::testing::writeSmallHostTrace(dir / "runs.pvti", 300, o);
        checkAgainstReader((dir / "runs.pvti").string());
    }
}

TEST_CASE("scanThreadEvents refuses a damaged event block naming the file") {
    TempDir dir("tilescope-scan-damaged");
    const auto path = dir / "damaged.pvti";
    tilescope::testing::writeSmallHostTrace(path, 50);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    // The last byte of the first block's blob cut off: its last event is truncated.
    REQUIRE(sqlite3_exec(db,
                         "UPDATE event_block SET data = substr(data, 1, length(data) - 1) "
                         "WHERE id = 1",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
    HostTraceReader reader(path.string());
    std::vector<std::int64_t> threads;
    for (const auto& t : reader.threads())
        threads.push_back(t.id);
    CHECK_THROWS_WITH(scanThreadEvents(reader, threads), Catch::Contains("damaged.pvti") &&
                                                             Catch::Contains("event block 1") &&
                                                             Catch::Contains("truncated"));
}
