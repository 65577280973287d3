// Host trace round trip: processes, threads, channels, nested events, instants, unfinished
// events and counter series written by HostTraceWriter read back equal through HostTraceReader,
// and every stored level-of-detail level accounts for every event and sample.

#include "SmallReport.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>

using namespace tilescope::report;
using tilescope::testing::HostTraceContent;
using tilescope::testing::TempDir;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

using Track = std::pair<std::int64_t, std::int32_t>; // thread, depth

std::map<Track, std::vector<HostEvent>> byTrack(const std::vector<HostEvent>& events) {
    std::map<Track, std::vector<HostEvent>> tracks;
    for (const auto& e : events)
        tracks[{e.threadId, e.depth}].push_back(e);
    for (auto& [track, list] : tracks)
        std::stable_sort(list.begin(), list.end(),
                         [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
    return tracks;
}

// Writers number events in the order they store their blocks (format v4), not in the order of
// the calls: `sameIds` is false for events of a v4 writer (ids are checked for uniqueness).
void checkEvent(const HostEvent& got, const HostEvent& want, bool sameIds = true) {
    INFO("event " << want.id);
    if (sameIds)
        REQUIRE(got.id == want.id);
    REQUIRE(got.threadId == want.threadId);
    REQUIRE(got.channelId == want.channelId);
    REQUIRE(got.nameId == want.nameId);
    REQUIRE(got.kind == want.kind);
    REQUIRE(got.startNs == want.startNs);
    REQUIRE(got.endNs == want.endNs);
    REQUIRE(got.depth == want.depth);
}

} // namespace

TEST_CASE("a host trace reads back as written") {
    TempDir dir("tilescope-pvti");
    const auto path = dir / "host.pvti";
    const HostTraceContent c = tilescope::testing::writeSmallHostTrace(path);
    const HostTraceReader r(path.string());

    CHECK(r.file().kind() == FileKind::HostTrace);
    CHECK(r.file().complete());
    CHECK(r.file().metadataValue("command_line") == "./small");
    CHECK(r.hasLevelOfDetail());

    const HostTraceCounts n = r.counts();
    CHECK(n.processes == 1);
    CHECK(n.threads == 2);
    CHECK(n.channels == 2);
    CHECK(n.events == std::ssize(c.events));
    CHECK(n.graphs == 1);
    CHECK(n.series == 2);
    CHECK(n.samples == 400);

    const auto processes = r.processes();
    REQUIRE(processes.size() == 1);
    CHECK(processes[0].pid == 4242);
    CHECK(processes[0].name == "small-app");
    const auto threads = r.threads();
    REQUIRE(threads.size() == 2);
    CHECK(threads[1].name == "worker");
    CHECK(threads[1].tid == 4243);
    CHECK(threads[1].processId == c.processId);
    const auto channels = r.channels();
    REQUIRE(channels.size() == 2);
    CHECK(channels[0].name == "poplar");

    SECTION("every track holds its events in start order, with kinds and names") {
        std::vector<std::int64_t> ids;
        for (const auto& [track, want] : byTrack(c.events)) {
            INFO("thread " << track.first << " depth " << track.second);
            const auto got = r.events(track.first, track.second, kMin, kMax, 1'000'000);
            REQUIRE(got.size() == want.size());
            for (std::size_t i = 0; i < got.size(); ++i) {
                checkEvent(got[i], want[i], false);
                ids.push_back(got[i].id);
            }
        }
        // Ids are 1..n, each once: first_event_id + index over the stored blocks.
        std::sort(ids.begin(), ids.end());
        for (std::size_t i = 0; i < ids.size(); ++i)
            REQUIRE(ids[i] == static_cast<std::int64_t>(i) + 1);
        CHECK(std::ssize(ids) == n.events);
        for (const auto thread : c.threadIds)
            CHECK(r.maxDepth(thread) == 3); // instants sit inside the depth-2 events
        CHECK(r.maxDepth(999) == -1);
        CHECK(r.events(999, 0, kMin, kMax, 10).empty());
    }

    SECTION("nesting: each event lies inside one event of the enclosing depth") {
        for (const auto& e : c.events) {
            if (e.depth == 0)
                continue;
            const auto parents = r.events(e.threadId, e.depth - 1, e.startNs, e.startNs, 10);
            INFO("event " << e.id);
            REQUIRE(parents.size() == 1);
            CHECK(parents[0].startNs <= e.startNs);
            CHECK(*parents[0].endNs >= e.endNs.value_or(e.startNs));
        }
    }

    SECTION("instants, unfinished events and windows") {
        const auto thread = c.threadIds[0];
        const auto instants = r.events(thread, 3, kMin, kMax, 100);
        REQUIRE(instants.size() == 3);
        for (const auto& e : instants) {
            CHECK(e.kind == EventKind::Instant);
            CHECK(e.endNs == e.startNs);
            CHECK(r.name(e.nameId) == "marker");
        }
        const auto& last = r.events(thread, 0, kMin, kMax, 1000).back();
        CHECK(last.kind == EventKind::Unfinished);
        CHECK_FALSE(last.endNs);
        CHECK(r.name(last.nameId) == "pending");
        // An unfinished event runs to the end of the trace: a window far later still sees it.
        const auto late = r.events(thread, 0, last.startNs + 1'000'000, kMax, 10);
        REQUIRE(late.size() == 1);
        CHECK(late[0].id == last.id);

        // A window starting inside an event includes it; the limit is respected.
        const auto& e10 = r.events(thread, 0, kMin, kMax, 1000).at(10);
        const auto window = r.events(thread, 0, e10.startNs + 1, e10.startNs + 25'000, 100);
        REQUIRE(window.size() == 3);
        CHECK(window[0].id == e10.id);
        CHECK(r.events(thread, 0, kMin, kMax, 5).size() == 5);
        CHECK(r.events(thread, 0, 10, 5, 5).empty());
    }

    SECTION("time span, graphs, series and samples") {
        std::int64_t lo = kMax, hi = kMin;
        for (const auto& e : c.events) {
            lo = std::min(lo, e.startNs);
            hi = std::max(hi, e.endNs.value_or(e.startNs));
        }
        for (const auto& s : c.samples)
            for (const auto& [t, v] : s) {
                lo = std::min(lo, t);
                hi = std::max(hi, t);
            }
        const auto span = r.timeSpan();
        REQUIRE(span);
        CHECK(span->first == lo);
        CHECK(span->second == hi);

        const auto graphs = r.graphs();
        REQUIRE(graphs.size() == 1);
        CHECK(graphs[0].name == "memory");
        CHECK(graphs[0].unit == "bytes");
        const auto series = r.series();
        REQUIRE(series.size() == 2);
        CHECK(series[1].name == "device");
        CHECK(series[1].graphId == c.graphId);
        for (std::size_t s = 0; s < c.seriesIds.size(); ++s) {
            CHECK(r.samples(c.seriesIds[s], kMin, kMax, 10'000) == c.samples[s]);
            const auto some =
                r.samples(c.seriesIds[s], c.samples[s][10].first, c.samples[s][19].first, 10'000);
            CHECK(some.size() == 10);
        }
    }
}

TEST_CASE("every stored level of detail accounts for every event and sample") {
    TempDir dir("tilescope-pvti-lod");
    const auto path = dir / "host.pvti";
    // 8192 frames of 10 us per track: at the default 1 us base, the finest level worth storing
    // (a quarter of the raw rows) still has more than a screenful of buckets per track, so the
    // writer must store at least one coarser level too.
    const HostTraceContent c = tilescope::testing::writeSmallHostTrace(path, 3 * 8192);
    const HostTraceReader r(path.string());
    REQUIRE(r.hasLevelOfDetail());
    CHECK(r.lodBaseNs() == 1000);

    std::set<std::int64_t> levelsSeen;
    for (const auto& [track, events] : byTrack(c.events)) {
        std::uint64_t busy = 0, longest = 0;
        for (const auto& e : events) {
            const auto d = static_cast<std::uint64_t>(e.endNs.value_or(e.startNs) - e.startNs);
            busy += d;
            longest = std::max(longest, d);
        }
        int levels = 0;
        for (std::int64_t level = 0; level <= 40; ++level) {
            const auto rows = r.eventLod(track.first, track.second, level, kMin, kMax);
            if (rows.empty())
                continue;
            INFO("thread " << track.first << " depth " << track.second << " level " << level);
            ++levels;
            levelsSeen.insert(level);
            std::uint64_t count = 0, rowsBusy = 0, rowsLongest = 0;
            for (const auto& row : rows) {
                count += row.events;
                rowsBusy += row.busyNs;
                rowsLongest = std::max(rowsLongest, row.longestNs);
            }
            CHECK(count == events.size());
            CHECK(rowsBusy == busy);
            CHECK(rowsLongest == longest);
        }
        CHECK(levels >= 1);
    }
    REQUIRE(levelsSeen.size() >= 2);
    const std::int64_t finest = *levelsSeen.begin(), coarsest = *levelsSeen.rbegin();
    CHECK(r.eventLodLevelFor(1) == -1);
    CHECK(r.eventLodLevelFor(1000 * std::pow(4.0, finest)) == finest);
    CHECK(r.eventLodLevelFor(1e18) == coarsest);
    // The coarsest level fits a screenful per track.
    for (const auto& [track, events] : byTrack(c.events))
        CHECK(r.eventLod(track.first, track.second, coarsest, kMin, kMax).size() <= 1024);

    for (std::size_t s = 0; s < c.seriesIds.size(); ++s) {
        const auto& want = c.samples[s];
        double lo = want[0].second, hi = lo, total = 0;
        for (const auto& [t, v] : want) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            total += v;
        }
        int levels = 0;
        for (std::int64_t level = 0; level <= 40; ++level) {
            const auto rows = r.sampleLod(c.seriesIds[s], level, kMin, kMax);
            if (rows.empty())
                continue;
            ++levels;
            std::uint64_t count = 0;
            double rowsLo = rows[0].minValue, rowsHi = rows[0].maxValue, rowsSum = 0;
            for (const auto& row : rows) {
                count += row.samples;
                rowsLo = std::min(rowsLo, row.minValue);
                rowsHi = std::max(rowsHi, row.maxValue);
                rowsSum += row.sumValue;
            }
            CHECK(count == want.size());
            CHECK(rowsLo == lo);
            CHECK(rowsHi == hi);
            CHECK(rowsSum == Approx(total));
        }
        CHECK(levels >= 1);
    }
}

TEST_CASE("a scratch file holds the same trace as a shared one, finished as one file") {
    TempDir dir("tilescope-pvti-scratch");
    const auto sharedPath = dir / "shared.pvti", scratchPath = dir / "scratch.pvti";
    HostTraceWriterOptions scratch;
    scratch.scratchFile = true;
    // Large enough for several stored pyramid levels (see the level-of-detail test).
    const HostTraceContent c = tilescope::testing::writeSmallHostTrace(sharedPath, 3 * 8192);
    tilescope::testing::writeSmallHostTrace(scratchPath, 3 * 8192, scratch);
    for (const char* suffix : {"-wal", "-shm", "-journal"})
        CHECK_FALSE(std::filesystem::exists(scratchPath.string() + suffix));
    {
        // SQLite's header bytes 18 and 19 are 2 in WAL mode: a finished file must not need one.
        std::ifstream in(scratchPath, std::ios::binary);
        char header[20] = {};
        REQUIRE(in.read(header, sizeof header));
        CHECK(header[18] == 1);
        CHECK(header[19] == 1);
    }

    const HostTraceReader shared(sharedPath.string()), scratchReader(scratchPath.string());
    REQUIRE(scratchReader.hasLevelOfDetail());
    CHECK(scratchReader.counts().events == shared.counts().events);
    CHECK(scratchReader.timeSpan() == shared.timeSpan());
    int levelsCompared = 0;
    for (const auto& [track, events] : byTrack(c.events)) {
        INFO("thread " << track.first << " depth " << track.second);
        const auto got = scratchReader.events(track.first, track.second, kMin, kMax, 1 << 20);
        REQUIRE(got.size() == events.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            checkEvent(got[i], events[i], false);
        for (std::int64_t level = 0; level <= 40; ++level) {
            const auto want = shared.eventLod(track.first, track.second, level, kMin, kMax);
            const auto rows = scratchReader.eventLod(track.first, track.second, level, kMin, kMax);
            REQUIRE(rows.size() == want.size());
            for (std::size_t i = 0; i < rows.size(); ++i) {
                CHECK(rows[i].bucket == want[i].bucket);
                CHECK(rows[i].events == want[i].events);
                CHECK(rows[i].busyNs == want[i].busyNs);
                CHECK(rows[i].longestNs == want[i].longestNs);
                CHECK(rows[i].longestNameId == want[i].longestNameId);
            }
            levelsCompared += rows.empty() ? 0 : 1;
        }
    }
    CHECK(levelsCompared >= 2);
    for (const std::int64_t series : c.seriesIds) {
        CHECK(scratchReader.samples(series, kMin, kMax, 10'000) ==
              shared.samples(series, kMin, kMax, 10'000));
        for (std::int64_t level = 0; level <= 40; ++level)
            CHECK(scratchReader.sampleLod(series, level, kMin, kMax).size() ==
                  shared.sampleLod(series, level, kMin, kMax).size());
    }
}
