// The system analyser's models on a small host trace written here with HostTraceWriter, whose
// every figure is known: row structure, nesting, windows (raw and level-of-detail), counters,
// search hits, and the call tree and statistics of the whole trace and of a range.
#include "TestReports.hpp"
#include "system/CallTreeModel.hpp"
#include "system/EventSearchModel.hpp"
#include "system/HostTraceSession.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/HostTraceStatistics.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ReportError.hpp"

#include <QSignalSpy>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

constexpr std::int64_t B = 1'700'000'000'000'000'000; // trace epoch offset

/// main:   outer [1000, 11000] > inner [2000, 5000] > leaf [2500, 3000]
///                             > inner [6000, 10000];  mark (instant) at 12000
/// worker: outer [3000, 4000]
/// Queue [items]: depth = 1 @1000, 4 @5000, 2 @9000
std::filesystem::path writeKnownTrace(const std::string& name, std::int64_t shift = 0) {
    const auto path = test::scratchDir("timeline-" + name) / "known.pvti";
    report::HostTraceWriter w(path);
    const auto p = w.addProcess(100, "proc", B + shift);
    const auto main = w.addThread(p, 1, "main");
    const auto worker = w.addThread(p, 2, "worker");
    const auto ch = w.addChannel("user");
    const auto outer = w.intern("outer"), inner = w.intern("inner"), leaf = w.intern("leaf"),
               mark = w.intern("mark");
    const std::int64_t t = B + shift;
    w.addEvent(main, ch, leaf, t + 2500, t + 3000, 2);
    w.addEvent(main, ch, inner, t + 2000, t + 5000, 1);
    w.addEvent(main, ch, inner, t + 6000, t + 10000, 1);
    w.addEvent(main, ch, outer, t + 1000, t + 11000, 0);
    w.addInstant(main, ch, mark, t + 12000, 0);
    w.addEvent(worker, ch, outer, t + 3000, t + 4000, 0);
    const auto g = w.addGraph(p, "Queue", "items");
    const auto s = w.addSeries(g, "depth");
    w.addSample(s, t + 1000, 1);
    w.addSample(s, t + 5000, 4);
    w.addSample(s, t + 9000, 2);
    w.close();
    return path;
}

std::vector<std::shared_ptr<HostTraceSession>> openKnown(const std::string& name) {
    return {HostTraceSession::open(writeKnownTrace(name).string())};
}

int rowOf(const TimelineModel& m, TimelineModel::RowKind kind, const QString& label,
          std::int32_t depth = 0, int parent = -2) {
    for (int i = 0; i < int(m.rows().size()); ++i) {
        const auto& r = m.rows()[std::size_t(i)];
        if (r.kind == kind && r.label == label && r.depth == depth &&
            (parent == -2 || r.parent == parent))
            return i;
    }
    return -1;
}

} // namespace

TEST_CASE("Timeline rows: file > process > threads > one track per depth, then counters") {
    TimelineModel m(openKnown("rows"));
    using K = TimelineModel::RowKind;
    REQUIRE(m.rows().size() == 9);
    REQUIRE(m.beginNs() == B + 1000);
    REQUIRE(m.endNs() == B + 12000);
    const int file = rowOf(m, K::File, "known.pvti");
    const int process = rowOf(m, K::Process, "proc (pid 100)");
    const int main = rowOf(m, K::Thread, "main (tid 1)");
    const int worker = rowOf(m, K::Thread, "worker (tid 2)");
    REQUIRE(file == 0);
    REQUIRE(m.rows()[std::size_t(process)].parent == file);
    REQUIRE(m.rows()[std::size_t(main)].parent == process);
    REQUIRE(m.rows()[std::size_t(worker)].parent == process);
    for (int d = 0; d <= 2; ++d)
        REQUIRE(rowOf(m, K::Track, QStringLiteral("depth %1").arg(d), d, main) >= 0);
    REQUIRE(rowOf(m, K::Track, "depth 0", 0, worker) >= 0);
    REQUIRE(rowOf(m, K::Track, "depth 1", 1, worker) == -1); // worker has no nesting
    const int counter = rowOf(m, K::Counter, "Queue");
    REQUIRE(m.rows()[std::size_t(counter)].unit == "items");
    REQUIRE(m.rows()[std::size_t(counter)].parent == process);

    SECTION("collapsing hides descendants, pinning moves a row first") {
        REQUIRE(m.shownRows().size() == 9);
        QSignalSpy changed(&m, &TimelineModel::rowsChanged);
        m.setExpanded(main, false);
        REQUIRE(changed.size() == 1);
        REQUIRE(m.shownRows().size() == 6);
        m.setAllExpanded(false);
        // Files and processes stay open; every thread closes.
        REQUIRE(m.shownRows() == std::vector<int>{file, process, main, worker, counter});
        m.setPinned(counter, true);
        REQUIRE(m.shownRows().front() == counter);
        m.setAllExpanded(true);
        REQUIRE(m.shownRows().size() == 9);
    }
}

TEST_CASE("Timeline windows: nested events, instants and counters from raw rows") {
    auto files = openKnown("window");
    TimelineModel m(files);
    using K = TimelineModel::RowKind;
    const int main = rowOf(m, K::Thread, "main (tid 1)");
    const int d0 = rowOf(m, K::Track, "depth 0", 0, main);
    const int d1 = rowOf(m, K::Track, "depth 1", 1, main);
    const int d2 = rowOf(m, K::Track, "depth 2", 2, main);
    const int counter = rowOf(m, K::Counter, "Queue");
    const auto w = TimelineModel::fetchWindow(files, m.rows(), m.beginNs(), m.endNs(), 1100,
                                              {d0, d1, d2, counter});
    REQUIRE(w.readRawEvents);
    const auto& top = w.tracks.at(d0);
    REQUIRE(top.size() == 2);
    REQUIRE(m.eventName(d0, top[0].nameId) == "outer");
    REQUIRE(top[0].startNs == B + 1000);
    REQUIRE(top[0].endNs == B + 11000);
    REQUIRE(m.eventName(d0, top[1].nameId) == "mark");
    REQUIRE(top[1].kind == report::EventKind::Instant);
    const auto& mid = w.tracks.at(d1);
    REQUIRE(mid.size() == 2);
    REQUIRE(m.eventName(d1, mid[0].nameId) == "inner");
    REQUIRE(mid[1].startNs == B + 6000);
    REQUIRE(w.tracks.at(d2).size() == 1);
    REQUIRE(m.eventName(d2, w.tracks.at(d2)[0].nameId) == "leaf");
    const auto& chart = w.charts.at(counter);
    REQUIRE(chart.size() == 1);
    REQUIRE(chart[0].name == "depth");
    REQUIRE(chart[0].points.size() == 3);
    REQUIRE(chart[0].points[1].tNs == B + 5000);
    REQUIRE(chart[0].points[1].mean == 4.0);

    SECTION("a window in the middle reads only what overlaps it") {
        const auto v = TimelineModel::fetchWindow(files, m.rows(), B + 5500, B + 5800, 300, {d1});
        REQUIRE(v.tracks.at(d1).empty());
        const auto u = TimelineModel::fetchWindow(files, m.rows(), B + 4000, B + 6500, 300, {d1});
        REQUIRE(u.tracks.at(d1).size() == 2);
    }
}

TEST_CASE("Timeline windows zoomed out come from the pyramid, never raw events") {
    auto files = openKnown("lod");
    REQUIRE(files[0]->eventLevelFor(double(files[0]->endNs() - files[0]->beginNs())) >= 0);
    TimelineModel m(files);
    const int d0 = rowOf(m, TimelineModel::RowKind::Track, "depth 0", 0,
                         rowOf(m, TimelineModel::RowKind::Thread, "main (tid 1)"));
    // Two pixels over the whole trace: two events on the track are more than one per 2 pixels.
    const auto w = TimelineModel::fetchWindow(files, m.rows(), m.beginNs(), m.endNs(), 2, {d0});
    REQUIRE_FALSE(w.readRawEvents);
    std::uint32_t events = 0;
    for (const auto& b : w.tracks.at(d0)) {
        REQUIRE(b.aggregated);
        events += b.count;
    }
    REQUIRE(events == 2);
}

TEST_CASE("Timeline model answers window requests on a worker") {
    TimelineModel m(openKnown("async"));
    QSignalSpy spy(&m, &TimelineModel::windowChanged);
    m.requestWindow(m.beginNs(), m.endNs(), 500, m.shownRows());
    REQUIRE(test::waitFor(spy));
    REQUIRE(m.hasWindow());
    REQUIRE(m.isIdle());
    REQUIRE(m.window().tracks.size() == 4);
    REQUIRE(m.window().charts.size() == 1);
}

TEST_CASE("Call tree of the whole trace: exact counts, totals and self times") {
    auto files = openKnown("tree");
    const auto t = CallTreeModel::computeTree(files, files[0]->beginNs(), files[0]->endNs());
    REQUIRE(t.events == 6);
    REQUIRE(t.totalNs == 10000 + 3000 + 500 + 4000 + 0 + 1000);
    CallTreeModel model(files);
    QSignalSpy loaded(&model, &CallTreeModel::loaded);
    model.compute();
    REQUIRE(test::waitFor(loaded));
    const auto& nodes = model.tree().nodes;
    const auto node = [&](const QStringList& path) {
        const int n = model.findPath(path);
        REQUIRE(n > 0);
        return nodes[std::size_t(n)];
    };
    const auto outer = node({"outer"});
    REQUIRE(outer.count == 2);
    REQUIRE(outer.totalNs == 11000);
    REQUIRE(outer.selfNs == 11000 - 7000);
    REQUIRE(outer.minNs == 1000);
    REQUIRE(outer.maxNs == 10000);
    const auto inner = node({"outer", "inner"});
    REQUIRE(inner.count == 2);
    REQUIRE(inner.totalNs == 7000);
    REQUIRE(inner.selfNs == 6500);
    const auto leaf = node({"outer", "inner", "leaf"});
    REQUIRE(leaf.count == 1);
    REQUIRE(leaf.selfNs == 500);
    REQUIRE(node({"mark"}).count == 1);
    REQUIRE(model.findPath({"inner"}) == -1); // never at the top
    REQUIRE(model.rowCount() == 2);           // outer, mark

    // The statistics table: one row per name, longest total first, mean = total / count.
    auto& stats = model.statistics();
    REQUIRE(stats.rowCount() == 4);
    REQUIRE(stats.value(0, 0).toString() == "outer");
    REQUIRE(stats.value(0, 1).toULongLong() == 2);
    REQUIRE(stats.value(0, 2).toLongLong() == 11000);
    REQUIRE(stats.value(0, 3).toLongLong() == 4000);
    REQUIRE(stats.value(0, 4).toLongLong() == 1000);
    REQUIRE(stats.value(0, 5).toDouble() == 5500.0);
    REQUIRE(stats.value(0, 6).toLongLong() == 10000);
    REQUIRE(stats.value(1, 0).toString() == "inner");
    REQUIRE(stats.value(1, 5).toDouble() == 3500.0);
}

TEST_CASE("Call tree of a range clips durations to it") {
    auto files = openKnown("range");
    const auto t = CallTreeModel::computeTree(files, B + 2500, B + 4500);
    REQUIRE(t.events == 4); // outer (main), inner, leaf, outer (worker)
    REQUIRE(t.totalNs == 2000 + 2000 + 500 + 1000);
    const auto& root = t.nodes[0];
    REQUIRE(root.children.size() == 1);
    const auto& outer = t.nodes[std::size_t(root.children[0])];
    REQUIRE(outer.name == "outer");
    REQUIRE(outer.count == 2);
    REQUIRE(outer.totalNs == 3000);
    REQUIRE(outer.selfNs == 1000);
    const auto& inner = t.nodes[std::size_t(outer.children[0])];
    REQUIRE(inner.totalNs == 2000);
    REQUIRE(inner.selfNs == 1500);
}

TEST_CASE("Two traces on one time axis: rows of both, merged call tree") {
    std::vector<std::shared_ptr<HostTraceSession>> files = {
        HostTraceSession::open(writeKnownTrace("two-a").string()),
        HostTraceSession::open(writeKnownTrace("two-b", 20000).string())};
    TimelineModel m(files);
    REQUIRE(m.rows().size() == 18);
    REQUIRE(m.beginNs() == B + 1000);
    REQUIRE(m.endNs() == B + 32000);
    REQUIRE(m.rows()[9].kind == TimelineModel::RowKind::File);
    REQUIRE(m.rows()[9].file == 1);
    const auto t = CallTreeModel::computeTree(files, m.beginNs(), m.endNs());
    REQUIRE(t.events == 12);
    CallTreeModel model(files);
    QSignalSpy loaded(&model, &CallTreeModel::loaded);
    model.compute();
    REQUIRE(test::waitFor(loaded));
    REQUIRE(model.tree().nodes[std::size_t(model.findPath({"outer", "inner"}))].count == 4);
}

TEST_CASE("Search by substring and regular expression") {
    auto files = openKnown("search");
    bool truncated = true;
    auto hits = EventSearchModel::find(files, "INN", false, &truncated);
    REQUIRE_FALSE(truncated);
    REQUIRE(hits.size() == 2);
    REQUIRE(hits[0].event.startNs == B + 2000);
    REQUIRE(hits[1].event.startNs == B + 6000);
    hits = EventSearchModel::find(files, "^(outer|leaf)$", true, &truncated);
    REQUIRE(hits.size() == 3);
    REQUIRE(hits[0].event.startNs == B + 1000);
    REQUIRE(hits[1].event.startNs == B + 2500);
    REQUIRE(hits[2].event.startNs == B + 3000);
    REQUIRE(EventSearchModel::find(files, "nothing", false, &truncated).empty());
    REQUIRE_THROWS_AS(EventSearchModel::find(files, "(", true, &truncated), std::invalid_argument);

    SECTION("the model lists hits and steps through them, wrapping") {
        EventSearchModel model(files);
        QSignalSpy done(&model, &EventSearchModel::finished);
        model.search("outer", false);
        REQUIRE(test::waitFor(done));
        REQUIRE(model.rowCount() == 2);
        REQUIRE(model.value(0, 1).toString() == "main");
        REQUIRE(model.value(1, 1).toString() == "worker");
        REQUIRE(model.value(1, 4).toLongLong() == 1000);
        QSignalSpy current(&model, &EventSearchModel::currentChanged);
        model.next();
        model.next();
        model.next();
        REQUIRE(current.size() == 3);
        REQUIRE(model.current() == 0);
        model.previous();
        REQUIRE(model.current() == 1);
        QSignalSpy failed(&model, &EventSearchModel::failed);
        model.search("[", true);
        REQUIRE(failed.size() == 1);
    }
}

TEST_CASE("A file that is not a host trace fails to open with a message naming it") {
    const auto path = test::scratchDir("timeline-bad") / "bad.pvti";
    std::ofstream(path) << "not a database";
    REQUIRE_THROWS_AS(HostTraceSession::open(path.string()), report::ReportError);
    try {
        HostTraceSession::open(path.string());
    } catch (const report::ReportError& e) {
        REQUIRE(std::string(e.what()).find("bad.pvti") != std::string::npos);
    }
}

TEST_CASE("Pyramid windows served while panning equal direct pyramid reads") {
    // One thread with 40 000 events on two depths: enough for several stored levels.
    const auto path = test::scratchDir("timeline-panning") / "dense.pvti";
    {
        report::HostTraceWriter w(path);
        const auto p = w.addProcess(7, "dense", B);
        const auto t = w.addThread(p, 1, "main");
        const auto ch = w.addChannel("user");
        const auto a = w.intern("a"), b = w.intern("b");
        for (std::int64_t i = 0; i < 20000; ++i) {
            const std::int64_t at = B + i * 5000;
            w.addEvent(t, ch, b, at + 500, at + 1500, 1);
            w.addEvent(t, ch, a, at, at + 3000 + (i % 7) * 100, 0);
        }
        w.close();
    }
    auto session = HostTraceSession::open(path.string());
    const std::int64_t finest = session->finestEventLevel();
    REQUIRE(finest >= 0);
    REQUIRE(finest < session->coarsestEventLevel());
    const std::int64_t threadId = session->threads().at(0).id;
    const report::HostTraceReader reader(path.string());
    const std::int64_t width = std::int64_t(double(reader.lodBaseNs()) * std::pow(4.0, finest));
    const std::int64_t first = B / width;
    auto check = [&](std::int64_t from, std::int64_t to) {
        const auto got = session->eventLodWindow(threadId, {0, 1}, finest, from, to);
        REQUIRE(got.size() == 2);
        for (std::int32_t d = 0; d < 2; ++d) {
            const auto want = reader.eventLod(threadId, d, finest, from * width, to * width);
            REQUIRE(!want.empty());
            REQUIRE(got[std::size_t(d)].size() == want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                REQUIRE(got[std::size_t(d)][i].bucket == want[i].bucket);
                REQUIRE(got[std::size_t(d)][i].events == want[i].events);
                REQUIRE(got[std::size_t(d)][i].busyNs == want[i].busyNs);
            }
        }
    };
    check(first + 10, first + 40);   // cold
    check(first + 25, first + 60);   // panned right: extends the held range
    check(first + 5, first + 30);    // panned left
    check(first + 12, first + 20);   // inside the held range
    check(first + 500, first + 530); // elsewhere: replaces it
    // The coarsest level comes from what open() read, over the whole trace.
    const std::int64_t coarse = session->coarsestEventLevel();
    const auto all =
        session->eventLodWindow(threadId, {0}, coarse, std::numeric_limits<std::int64_t>::min(),
                                std::numeric_limits<std::int64_t>::max());
    std::uint64_t events = 0;
    for (const auto& r : all.at(0))
        events += r.events;
    REQUIRE(events >= 20000);
}
