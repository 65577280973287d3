// The pvti event path under load: many threads tracing at once while threads start and exit,
// checked through the file (every record is in it or counted as dropped, and events nest), and
// the bound on buffered events (past it events are dropped, counted in the file and shown by the
// reader's API). The full size, 8 threads x 5 M events, runs with TILESCOPE_STRESS_EVENTS=5000000
// (configure with -DTILESCOPE_STRESS_TESTS=ON, then `ctest -L stress`); the default test set
// runs the same test scaled down (40 k events per thread).

#include "CaptureTestDirs.hpp"
#include "pvti/pvti.hpp"
#include "tilescope/capture/HostTracer.hpp"
#include "tilescope/capture/TraceOptions.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <thread>
#include <vector>

using namespace tilescope;
using capture::HostTracer;
using capture::TraceOptions;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kForever = std::numeric_limits<std::int64_t>::max();

fs::path freshDir(const std::string& name) {
    return capture::test::freshDir("tilescope-tracer-stress", name);
}

/// Events (begin, end and instant records) one producer makes: blocks of an "outer" event holding
/// `kInner` "inner" events, each holding one "tick" instant; 2 + 3 * kInner records per block.
constexpr std::int64_t kInner = 7;
constexpr std::int64_t kRecordsPerBlock = 2 + 3 * kInner;

std::int64_t produce(pvti::TraceChannel& channel, std::int64_t blocks) {
    for (std::int64_t b = 0; b < blocks; ++b) {
        pvti::Tracepoint outer(&channel, "outer");
        for (std::int64_t i = 0; i < kInner; ++i) {
            pvti::Tracepoint inner(&channel, "inner");
            pvti::Tracepoint::event(&channel, "tick");
        }
    }
    return blocks * kRecordsPerBlock;
}

struct ThreadCheck {
    std::int64_t records = 0; // 2 per complete event, 1 per instant
    bool nested = true;
};

/// Reads one thread's events back: records they stand for, and whether every inner event lies
/// inside an outer one and every tick inside an inner one.
ThreadCheck checkThread(const report::HostTraceReader& r, std::int64_t thread) {
    ThreadCheck out;
    std::vector<std::vector<report::HostEvent>> depths;
    for (std::int32_t d = 0; d <= r.maxDepth(thread); ++d)
        depths.push_back(r.events(thread, d, 0, kForever, kForever));
    for (std::size_t d = 0; d < depths.size(); ++d) {
        for (const auto& e : depths[d]) {
            out.records += e.kind == report::EventKind::Instant ? 1 : 2;
            if (e.kind == report::EventKind::Unfinished)
                out.nested = false; // every producer closed what it opened
            if (d == 0)
                continue;
            // The parent is the last event one level up starting at or before this one.
            const auto& up = depths[d - 1];
            auto it = std::upper_bound(
                up.begin(), up.end(), e.startNs,
                [](std::int64_t t, const report::HostEvent& p) { return t < p.startNs; });
            if (it == up.begin() || !(--it)->endNs || *it->endNs < e.endNs.value_or(e.startNs))
                out.nested = false;
        }
    }
    return out;
}

std::int64_t eventsPerThread() {
    if (const char* env = std::getenv("TILESCOPE_STRESS_EVENTS"))
        return std::max<std::int64_t>(kRecordsPerBlock, std::atoll(env));
    return 40'000;
}

} // namespace

TEST_CASE("8 threads tracing while threads start and exit give complete and nested events") {
    const fs::path dir = freshDir("threads");
    HostTracer& tracer = HostTracer::restart([&] {
        TraceOptions o;
        o.enable = true;
        o.directory = dir;
        return o;
    }());
    pvti::TraceChannel channel = {"stress"};

    // Each of 8 producers is two threads in turn (the first exits halfway, the second starts);
    // producers start one after another, so threads start and exit while others trace.
    const std::int64_t blocks = eventsPerThread() / kRecordsPerBlock / 2 * 2;
    std::atomic<std::int64_t> produced{0};
    std::vector<std::thread> producers;
    for (int p = 0; p < 8; ++p) {
        producers.emplace_back([&] {
            for (int half = 0; half < 2; ++half) {
                std::thread segment([&] { produced += produce(channel, blocks / 2); });
                segment.join();
            }
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    for (auto& t : producers)
        t.join();
    const fs::path file = tracer.file();
    tracer.close();
    const auto stats = tracer.stats();

    report::HostTraceReader r(file.string());
    const auto threads = r.threads();
    CHECK(threads.size() == 16);
    std::map<std::int64_t, std::int64_t> dropped;
    for (const auto& d : r.droppedEvents())
        dropped[d.threadId] = d.events;
    std::int64_t records = 0;
    for (const auto& t : threads) {
        const ThreadCheck c = checkThread(r, t.id);
        INFO("thread " << t.tid);
        CHECK(c.nested);
        // Each thread made half a producer's blocks: all in the file unless counted as dropped.
        CHECK(c.records + dropped[t.id] == blocks / 2 * kRecordsPerBlock);
        records += c.records + dropped[t.id];
    }
    CHECK(records == produced.load());
    CHECK(stats.unmatchedEnds == 0);
    CHECK(static_cast<std::int64_t>(stats.eventsDropped) == [&] {
        std::int64_t n = 0;
        for (const auto& [id, count] : dropped)
            n += count;
        return n;
    }());
    CHECK(stats.eventsRecorded + stats.eventsDropped == static_cast<std::uint64_t>(produced));
}

TEST_CASE("past the bound on buffered events, events are dropped, counted and read back") {
    const fs::path dir = freshDir("bound");
    TraceOptions o;
    o.enable = true;
    o.directory = dir;
    o.bufferLimitBytes = 256 << 10; // 4 chunks
    HostTracer& tracer = HostTracer::restart(o);
    pvti::TraceChannel channel = {"bound"};

    // Bursts far beyond the bound (4 chunks), faster than the writer drains: until the writer
    // has seen drops (at its next pass), which takes one burst unless the machine is very busy.
    std::int64_t produced = 0;
    for (int burst = 0; burst < 100 && tracer.stats().eventsDropped == 0; ++burst) {
        produced += produce(channel, 20'000);
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
    }
    const fs::path file = tracer.file();
    tracer.close();
    const auto stats = tracer.stats();
    CHECK(stats.eventsDropped > 0);
    CHECK(stats.eventsRecorded + stats.eventsDropped == static_cast<std::uint64_t>(produced));
    CHECK(stats.unmatchedEnds == 0);

    report::HostTraceReader r(file.string());
    REQUIRE(r.threads().size() == 1);
    const auto drops = r.droppedEvents();
    REQUIRE(drops.size() == 1);
    CHECK(drops[0].threadId == r.threads()[0].id);
    CHECK(drops[0].events == static_cast<std::int64_t>(stats.eventsDropped));
    const ThreadCheck c = checkThread(r, r.threads()[0].id);
    CHECK(c.nested);
    CHECK(c.records + drops[0].events == produced);
}

TEST_CASE("files without drop counts read back as no drops") {
    const fs::path dir = freshDir("nodrops");
    TraceOptions o;
    o.enable = true;
    o.directory = dir;
    HostTracer& tracer = HostTracer::restart(o);
    pvti::TraceChannel channel = {"quiet"};
    produce(channel, 10);
    const fs::path file = tracer.file();
    tracer.close();
    CHECK(report::HostTraceReader(file.string()).droppedEvents().empty());
}

TEST_CASE("PVTI_OPTIONS bufferLimitMB sets the bound and rejects what is not a size") {
    CHECK(TraceOptions::parse(R"({"bufferLimitMB":64})").bufferLimitBytes == 64 << 20);
    CHECK(TraceOptions::parse(R"({"bufferLimitMB":"0.5"})").bufferLimitBytes == 512 << 10);
    CHECK(TraceOptions::parse(R"({"enable":"true"})").bufferLimitBytes == 256 << 20);
    for (const char* bad : {R"({"bufferLimitMB":0})", R"({"bufferLimitMB":"big"})",
                            R"({"bufferLimitMB":-3})", R"({"bufferLimitMB":[1]})"}) {
        INFO(bad);
        CHECK_THROWS_WITH(TraceOptions::parse(bad), Catch::Contains("'bufferLimitMB'"));
    }
}
