// The pvti face over the host tracer, checked through the trace file it writes (HostTraceReader):
// nesting, instants, series, unmatched ends, channel filtering, options errors, and that a traced
// process killed with SIGKILL leaves a file holding what was flushed.

#include "CaptureTestDirs.hpp"
#include "pvti/pvti.hpp"
#include "tilescope/capture/HostTracer.hpp"
#include "tilescope/capture/TraceOptions.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tilescope;
using capture::HostTracer;
using capture::OptionsError;
using capture::TraceOptions;
namespace fs = std::filesystem;

namespace {

fs::path freshDir(const std::string& name) {
    return capture::test::freshDir("tilescope-tracer-tests", name);
}

using capture::test::enabledIn;

std::map<std::string, int> namesByDepth(const report::HostTraceReader& r, std::int64_t thread,
                                        std::int32_t depth) {
    std::map<std::string, int> out;
    for (const auto& e :
         r.events(thread, depth, 0, std::numeric_limits<std::int64_t>::max(), 1000000))
        ++out[r.name(e.nameId)];
    return out;
}

} // namespace

TEST_CASE("PVTI_OPTIONS parsing names the option and what was expected") {
    CHECK(TraceOptions::parse(R"({"enable":"true"})").enable);
    CHECK_FALSE(TraceOptions::parse(R"({"enable":"false"})").enable);
    const auto o = TraceOptions::parse(R"({"enable":"true","directory":"d","channels":["a","b"]})");
    CHECK(o.directory == "d");
    CHECK(o.channelEnabled("a"));
    CHECK_FALSE(o.channelEnabled("c"));
    CHECK(TraceOptions::parse(R"({"enable":"true","channels":"x,y"})").channelEnabled("y"));

    auto message = [](const char* json) {
        try {
            TraceOptions::parse(json);
        } catch (const OptionsError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message("{\"enable\":"), Catch::Contains("PVTI_OPTIONS") && Catch::Contains("JSON"));
    CHECK_THAT(message("[1,2]"), Catch::Contains("expected a JSON object"));
    CHECK_THAT(message(R"({"enable":"yes"})"),
               Catch::Contains("'enable'") && Catch::Contains("\"true\" or \"false\""));
    CHECK_THAT(message(R"({"directory":3})"), Catch::Contains("'directory'"));
    CHECK_THAT(message(R"({"channels":[1]})"), Catch::Contains("'channels'"));
    CHECK_THAT(message(R"({"enabled":"true"})"), Catch::Contains("unknown option 'enabled'"));
}

TEST_CASE("tracepoints become nested events, instants and series in the trace file") {
    const fs::path dir = freshDir("nesting");
    HostTracer& tracer = HostTracer::restart(enabledIn(dir));
    pvti::TraceChannel channel = {"test"};
    {
        pvti::Tracepoint outer(&channel, "outer");
        for (int i = 0; i < 3; ++i) {
            pvti::Tracepoint inner(&channel, std::string("inner"));
            pvti::Tracepoint::event(&channel, "tick");
        }
        pvti::Tracepoint::begin(&channel, "manual");
        pvti::Tracepoint::end(&channel, "manual");
        pvti::Tracepoint::end(&channel, "never-begun");
    }
    std::thread worker([&] { pvti::Tracepoint t(&channel, "on-worker"); });
    worker.join();
    pvti::Graph graph("Queue", "items");
    auto series = graph.addSeries("depth");
    series.add(1.0);
    series.add(5.0);
    pvti::Tracepoint::begin(&channel, "left-open");
    const fs::path file = tracer.file();
    tracer.close();

    const auto stats = tracer.stats();
    CHECK(stats.unmatchedEnds == 1);
    CHECK(stats.samplesWritten == 2);

    report::HostTraceReader r(file.string());
    CHECK(r.file().complete());
    const auto threads = r.threads();
    REQUIRE(threads.size() == 2);
    const auto main = threads[0].id;
    CHECK(namesByDepth(r, main, 0) == std::map<std::string, int>{{"outer", 1}, {"left-open", 1}});
    CHECK(namesByDepth(r, main, 1) == std::map<std::string, int>{{"inner", 3}, {"manual", 1}});
    CHECK(namesByDepth(r, main, 2) == std::map<std::string, int>{{"tick", 3}});
    CHECK(namesByDepth(r, threads[1].id, 0) == std::map<std::string, int>{{"on-worker", 1}});

    // Children lie inside their parent.
    const auto outer = r.events(main, 0, 0, std::numeric_limits<std::int64_t>::max(), 10);
    const auto inner = r.events(main, 1, 0, std::numeric_limits<std::int64_t>::max(), 10);
    REQUIRE_FALSE(outer.empty());
    for (const auto& e : inner) {
        CHECK(e.startNs >= outer[0].startNs);
        CHECK(e.endNs.value() <= outer[0].endNs.value());
    }
    bool sawUnfinished = false;
    for (const auto& e : outer)
        sawUnfinished |= e.kind == report::EventKind::Unfinished && r.name(e.nameId) == "left-open";
    CHECK(sawUnfinished);
    REQUIRE(r.series().size() == 1);
    const auto samples =
        r.samples(r.series()[0].id, 0, std::numeric_limits<std::int64_t>::max(), 10);
    REQUIRE(samples.size() == 2);
    CHECK(samples[1].second == 5.0);
    CHECK(r.graphs()[0].unit == "items");
}

TEST_CASE("channels outside PVTI_OPTIONS channels are not traced") {
    const fs::path dir = freshDir("channels");
    TraceOptions o = enabledIn(dir);
    o.channels = std::vector<std::string>{"kept"};
    HostTracer& tracer = HostTracer::restart(o);
    pvti::TraceChannel kept = {"kept"};
    pvti::TraceChannel dropped = {"dropped"};
    { pvti::Tracepoint a(&kept, "a"); }
    { pvti::Tracepoint b(&dropped, "b"); }
    const fs::path file = tracer.file();
    tracer.close();
    report::HostTraceReader r(file.string());
    CHECK(r.counts().events == 1);
    REQUIRE(r.channels().size() == 1);
    CHECK(r.channels()[0].name == "kept");
}

TEST_CASE("tracing off writes no file and records nothing") {
    HostTracer& tracer = HostTracer::restart(TraceOptions{});
    pvti::TraceChannel channel = {"off"};
    { pvti::Tracepoint t(&channel, "nothing"); }
    CHECK(tracer.file().empty());
    CHECK(tracer.stats().eventsRecorded == 0);
}

TEST_CASE("a traced process killed with SIGKILL leaves a file with what was flushed") {
    const fs::path dir = freshDir("killed");
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        HostTracer& tracer = HostTracer::restart(enabledIn(dir));
        pvti::TraceChannel channel = {"child"};
        for (int i = 0; i < 1000; ++i)
            pvti::Tracepoint t(&channel, "flushed");
        tracer.flush();
        (void)!write(ready[1], "x", 1);
        for (;;) { // keep tracing until killed
            pvti::Tracepoint t(&channel, "after");
        }
    }
    char c;
    REQUIRE(read(ready[0], &c, 1) == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(WIFSIGNALED(status));
    REQUIRE(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) >= 1);
    fs::path file;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".pvti")
            file = e.path();
    REQUIRE_FALSE(file.empty());
    report::HostTraceReader r(file.string());
    CHECK_FALSE(r.file().complete());
    CHECK(r.counts().events >= 1000);
    std::int64_t flushed = 0;
    for (const auto& e :
         r.events(r.threads()[0].id, 0, 0, std::numeric_limits<std::int64_t>::max(), 2000))
        flushed += r.name(e.nameId) == "flushed";
    CHECK(flushed == 1000);
}

TEST_CASE("a label buffer reused for another text is traced with each text") {
    // Labels are cached by address only when the text is read-only (a literal); a writable buffer
    // is looked up by content every time, so reusing it cannot mislabel events.
    const fs::path dir = freshDir("reused-label");
    HostTracer& tracer = HostTracer::restart(enabledIn(dir));
    pvti::TraceChannel channel = {"labels"};
    char buffer[16];
    for (const char* text : {"first", "second", "first"}) {
        std::snprintf(buffer, sizeof buffer, "%s", text);
        pvti::Tracepoint t(&channel, static_cast<const char*>(buffer));
        pvti::Tracepoint literal(&channel, "literal");
    }
    { pvti::Tracepoint sized(&channel, "literal-prefix", 7); } // "literal", the same id as above
    const fs::path file = tracer.file();
    tracer.close();
    report::HostTraceReader r(file.string());
    const auto main = r.threads().at(0).id;
    CHECK(namesByDepth(r, main, 0) ==
          std::map<std::string, int>{{"first", 2}, {"second", 1}, {"literal", 1}});
    CHECK(namesByDepth(r, main, 1) == std::map<std::string, int>{{"literal", 3}});
}

TEST_CASE("labels and channels resolve again in a restarted session") {
    pvti::TraceChannel channel = {"restart"};
    for (int session = 0; session < 2; ++session) {
        const fs::path dir = freshDir(session ? "restart-2" : "restart-1");
        HostTracer& tracer = HostTracer::restart(enabledIn(dir));
        // A label new to the second session comes first, so a stale id would name it wrongly.
        if (session == 1) {
            pvti::Tracepoint other(&channel, "only-in-second");
        }
        { pvti::Tracepoint t(&channel, "same-call-site"); }
        const fs::path file = tracer.file();
        tracer.close();
        report::HostTraceReader r(file.string());
        auto expected = std::map<std::string, int>{{"same-call-site", 1}};
        if (session == 1)
            expected["only-in-second"] = 1;
        CHECK(namesByDepth(r, r.threads().at(0).id, 0) == expected);
    }
}
