// Writes tests/data/hosttrace-v3/host.pvti with the format-v3 writer, then prints the events the
// v3 reader returns, as C++ initializers for the migration test.
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include <cstdio>
#include <filesystem>
using namespace tilescope::report;
int main(int argc, char** argv) {
    const std::string path = argv[1];
    if (argc > 2) {
        HostTraceWriter w(path);
        w.setMetadata("source", "hosttrace-v3 fixture");
        const auto p = w.addProcess(4242, "trainer", 1'000'000);
        const auto t1 = w.addThread(p, 100, "main");
        const auto t2 = w.addThread(p, 101, "loader");
        const auto t3 = w.addThread(p, 102, "io");
        const auto chA = w.addChannel("poplar");
        const auto chB = w.addChannel("framework");
        const auto nStep = w.intern("step"), nFwd = w.intern("forward"), nBwd = w.intern("backward"),
                   nLoad = w.intern("load batch"), nRead = w.intern("read"), nMark = w.intern("mark"),
                   nHang = w.intern("hang"), nSync = w.intern("sync");
        // Completion order, as the pvti front end writes: children before their parents.
        std::int64_t t = 1'000'000;
        for (int i = 0; i < 4; ++i) {
            const std::int64_t s = t + i * 10'000;
            w.addEvent(t1, chA, nFwd, s + 100, s + 3'000, 1);
            w.addEvent(t2, chB, nRead, s + 50, s + 700 + i * 13, 1);
            w.addInstant(t1, chB, nMark, s + 3'500, 2);
            w.addEvent(t1, chA, nSync, s + 4'100, s + 4'900, 2);
            w.addEvent(t1, chA, nBwd, s + 4'000, s + 8'000, 1);
            w.addEvent(t2, chB, nLoad, s, s + 2'000 + i * 7, 0);
            w.addEvent(t1, chA, nStep, s + 50, s + 9'000, 0);
            w.addInstant(t3, chB, nMark, s + 5'555, 0);
        }
        w.addUnfinished(t3, chA, nHang, t + 50'000, 0);
        w.addEvent(t3, chA, nRead, t + 45'000, t + 46'000, 1);
        const auto g = w.addGraph(p, "memory", "bytes");
        const auto sr = w.addSeries(g, "host rss");
        for (int i = 0; i < 6; ++i)
            w.addSample(sr, t + i * 7'000, 1024.0 * (i + 1) + 0.5);
        const auto h = w.addHeatmap(p, "latency", "us", false, {"1", "10", "100"});
        const double vals[] = {0.5, 3, 12, 250, 99.5};
        const int buckets[] = {0, 1, 2, 3, 2};
        for (int i = 0; i < 5; ++i)
            w.addHeatmapSample(h, t + i * 9'000, vals[i], buckets[i]);
        const auto at = w.addAsyncTrack(p, "request", "net", "0x2a");
        const auto nReq = w.intern("request");
        w.addAsyncSlice(at, nReq, EventKind::Complete, t + 1'000, t + 30'000, 0);
        w.addAsyncSlice(at, nRead, EventKind::Complete, t + 2'000, t + 5'000, 1);
        w.addFlow(nLoad, t2, t + 2'000, t1, t + 10'050);
        w.setDroppedEvents(t2, 17);
        w.close();
    }
    HostTraceReader r(path);
    const auto c = r.counts();
    std::printf("// counts: events %lld threads %lld samples %lld\n", (long long)c.events,
                (long long)c.threads, (long long)c.samples);
    const auto span = r.timeSpan();
    std::printf("// span %lld %lld\n", (long long)span->first, (long long)span->second);
    for (const auto& th : r.threads()) {
        std::printf("// thread %lld maxDepth %d\n", (long long)th.id, r.maxDepth(th.id));
        for (int d = 0; d <= r.maxDepth(th.id); ++d)
            for (const auto& e : r.events(th.id, d, INT64_MIN, INT64_MAX, 1000))
                std::printf("{%lld, %lld, %lld, \"%s\", %d, %lld, %lld, %d},\n", (long long)e.id,
                            (long long)e.threadId, (long long)e.channelId, r.name(e.nameId).c_str(),
                            (int)e.kind, (long long)e.startNs, e.endNs ? (long long)*e.endNs : -1LL,
                            e.depth);
    }
}
