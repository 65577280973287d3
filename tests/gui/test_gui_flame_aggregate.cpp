// The system analyser's aggregated flame graph (all threads of a process merged) on a host trace
// written here with known events, against the per-thread flames of the same trace; and the
// stacking of counter series for the stacked-area graph type.
#include "TestReports.hpp"
#include "system/ChartStacking.hpp"
#include "system/FlameAggregate.hpp"
#include "system/HostTraceSession.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <QSignalSpy>
#include <algorithm>
#include <catch2/catch.hpp>
#include <utility>
#include <vector>

using namespace tilescope;
using namespace tilescope::gui;
using Box = TimelineModel::Box;
using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;

namespace {

constexpr std::int64_t B = 1'700'000'000'000'000'000;

/// main:   depth 0 [1000, 5000] [8000, 9000]; depth 1 [2000, 3000]
/// worker: depth 0 [4000, 6000] [10000, 11000]; depth 1 [4500, 5500]
/// io:     depth 0 [7000, 7500]
std::vector<std::shared_ptr<HostTraceSession>> threeThreads() {
    const auto path = test::scratchDir("flame-aggregate") / "threads.pvti";
    report::HostTraceWriter w(path);
    const auto p = w.addProcess(7, "app", B);
    const auto main = w.addThread(p, 1, "main");
    const auto worker = w.addThread(p, 2, "worker");
    const auto io = w.addThread(p, 3, "io");
    const auto ch = w.addChannel("user");
    const auto step = w.intern("step"), load = w.intern("load"), read = w.intern("read");
    w.addEvent(main, ch, load, B + 2000, B + 3000, 1);
    w.addEvent(main, ch, step, B + 1000, B + 5000, 0);
    w.addEvent(main, ch, step, B + 8000, B + 9000, 0);
    w.addEvent(worker, ch, load, B + 4500, B + 5500, 1);
    w.addEvent(worker, ch, step, B + 4000, B + 6000, 0);
    w.addEvent(worker, ch, step, B + 10000, B + 11000, 0);
    w.addEvent(io, ch, read, B + 7000, B + 7500, 0);
    w.close();
    return {HostTraceSession::open(path.string())};
}

Intervals intervalsOf(const std::vector<Box>& boxes) {
    Intervals out;
    for (const auto& b : boxes)
        out.emplace_back(b.startNs, b.endNs);
    return out;
}

/// The union of intervals: sorted, overlapping ones joined.
Intervals unionOf(Intervals all) {
    std::sort(all.begin(), all.end());
    Intervals out;
    for (const auto& i : all) {
        if (!out.empty() && i.first < out.back().second)
            out.back().second = std::max(out.back().second, i.second);
        else
            out.push_back(i);
    }
    return out;
}

std::vector<int> tracksOf(const TimelineModel& m, std::int64_t threadId) {
    std::vector<int> out;
    for (int i = 0; i < int(m.rows().size()); ++i) {
        const auto& r = m.rows()[std::size_t(i)];
        if (r.kind == TimelineModel::RowKind::Track && r.threadId == threadId)
            out.push_back(i);
    }
    return out;
}

} // namespace

TEST_CASE("per process, a process's threads become one row with a track per depth") {
    TimelineModel m(threeThreads());
    using K = TimelineModel::RowKind;
    REQUIRE(m.rows().size() == 10); // file, process, 3 threads, 2 + 2 + 1 tracks
    QSignalSpy rebuilt(&m, &TimelineModel::rowsChanged);
    m.setFlameMode(TimelineModel::FlameMode::PerProcess);
    CHECK(rebuilt.count() == 1);
    REQUIRE(m.rows().size() == 5); // file, process, all threads, depth 0 and 1
    CHECK(m.rows()[2].kind == K::Thread);
    CHECK(m.rows()[2].threadId == TimelineModel::kAllThreads);
    CHECK(m.rows()[2].label == "all 3 threads (aggregated)");
    CHECK(m.rows()[3].kind == K::Track);
    CHECK(m.rows()[4].depth == 1);
    m.setFlameMode(TimelineModel::FlameMode::PerThread);
    CHECK(m.rows().size() == 10);
}

TEST_CASE("the aggregated flame is the union of the per-thread flames") {
    const auto files = threeThreads();
    TimelineModel perThread(files);
    TimelineModel perProcess(files);
    perProcess.setFlameMode(TimelineModel::FlameMode::PerProcess);
    const auto& threads = files.front()->threads();
    REQUIRE(threads.size() == 3);

    // Zoomed in (raw events, 1 ns per pixel) and zoomed out (pyramid columns, 20 pixels).
    for (const int width : {10000, 20}) {
        INFO("width " << width);
        const std::int64_t from = B + 1000, to = B + 11000;
        std::vector<int> threadTracks;
        for (const auto& t : threads)
            for (int row : tracksOf(perThread, t.id))
                threadTracks.push_back(row);
        const auto byThread =
            TimelineModel::fetchWindow(files, perThread.rows(), from, to, width, threadTracks);
        const auto aggregatedTracks = tracksOf(perProcess, TimelineModel::kAllThreads);
        REQUIRE(aggregatedTracks.size() == 2);
        const auto merged =
            TimelineModel::fetchWindow(files, perProcess.rows(), from, to, width, aggregatedTracks);
        for (std::int32_t depth = 0; depth <= 1; ++depth) {
            INFO("depth " << depth);
            Intervals all;
            for (int row : threadTracks)
                if (perThread.rows()[std::size_t(row)].depth == depth)
                    for (const auto& i : intervalsOf(byThread.tracks.at(row)))
                        all.push_back(i);
            const int aggregated = aggregatedTracks[std::size_t(depth)];
            CHECK(unionOf(intervalsOf(merged.tracks.at(aggregated))) == unionOf(all));
            CHECK(intervalsOf(merged.tracks.at(aggregated)) == unionOf(all));
        }
        if (width == 10000) {
            // The figures themselves: main's and worker's first steps overlap into one box.
            const auto& depth0 = merged.tracks.at(aggregatedTracks[0]);
            CHECK(intervalsOf(depth0) == Intervals{{B + 1000, B + 6000},
                                                   {B + 7000, B + 7500},
                                                   {B + 8000, B + 9000},
                                                   {B + 10000, B + 11000}});
            CHECK(depth0[0].count == 2);
            CHECK(depth0[0].aggregated);
            CHECK(depth0[0].eventId == 0);
            CHECK_FALSE(depth0[1].aggregated); // io's read overlaps nothing: still one event
            CHECK(depth0[1].eventId != 0);
            CHECK(perProcess.eventName(aggregatedTracks[0], depth0[1].nameId) == "read");
            CHECK(intervalsOf(merged.tracks.at(aggregatedTracks[1])) ==
                  Intervals{{B + 2000, B + 3000}, {B + 4500, B + 5500}});
        }
    }
}

TEST_CASE("merging thread flames keeps the longest box's name and sums counts") {
    Box a;
    a.startNs = 0;
    a.endNs = 10;
    a.nameId = 1;
    a.eventId = 5;
    Box b = a;
    b.startNs = 5;
    b.endNs = 30;
    b.nameId = 2;
    b.count = 3;
    Box c = a;
    c.startNs = 30; // touches b: stays apart
    c.endNs = 40;
    const auto merged = mergeThreadFlames({{a, c}, {b}});
    REQUIRE(merged.size() == 2);
    CHECK(merged[0].startNs == 0);
    CHECK(merged[0].endNs == 30);
    CHECK(merged[0].nameId == 2);
    CHECK(merged[0].count == 4);
    CHECK(merged[1].startNs == 30);
    CHECK(merged[1].eventId == 5);
    CHECK(mergeThreadFlames({}).empty());
}

TEST_CASE("stacked series: each band sits on the sum of the ones before it") {
    TimelineModel::Series s1, s2;
    s1.points = {{100, 2, 2, 2}, {300, 5, 5, 5}};
    s2.points = {{200, 1, 1, 1}, {300, 4, 4, 4}, {400, 3, 3, 3}};
    const auto bands = stackSeries({s1, s2});
    REQUIRE(bands.size() == 2);
    REQUIRE(bands[0].size() == 4); // times 100, 200, 300, 400
    CHECK(bands[0][0].tNs == 100);
    CHECK(bands[0][0].min == 0);
    CHECK(bands[0][0].max == 2);
    CHECK(bands[0][1].max == 2); // s1 holds 2 until 300
    CHECK(bands[0][2].max == 5);
    CHECK(bands[0][3].max == 5);
    CHECK(bands[1][0].min == 2); // s2 has no sample yet: 0 on top of s1
    CHECK(bands[1][0].max == 2);
    CHECK(bands[1][1].max == 3);
    CHECK(bands[1][2].min == 5);
    CHECK(bands[1][2].max == 9);
    CHECK(bands[1][3].max == 8);
}
