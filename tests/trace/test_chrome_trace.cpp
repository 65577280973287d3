// Chrome trace-event JSON import and export: every supported phase survives a round trip, and
// malformed input is refused with its byte offset, leaving no output behind.

#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <unistd.h>

using namespace tilescope::report;
namespace fs = std::filesystem;

namespace {

fs::path dir() {
    // One folder per process: ctest runs the test cases as parallel processes.
    static const fs::path d = [] {
        const fs::path p = fs::temp_directory_path() /
                           ("tilescope-chrome-trace-tests-" + std::to_string(::getpid()));
        fs::remove_all(p);
        fs::create_directories(p);
        return p;
    }();
    return d;
}

fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir() / name, std::ios::binary) << text;
    return dir() / name;
}

using EventKey = std::tuple<std::string, std::string, std::int64_t, std::optional<std::int64_t>,
                            std::int32_t, int>;

// Every event of a trace as (thread name, event name, start, end, depth, kind).
std::multiset<EventKey> eventsOf(const HostTraceReader& r) {
    std::multiset<EventKey> out;
    for (const auto& t : r.threads())
        for (std::int32_t d = 0; d <= r.maxDepth(t.id); ++d)
            for (const auto& e : r.events(t.id, d, std::numeric_limits<std::int64_t>::min(),
                                          std::numeric_limits<std::int64_t>::max(), 1 << 20))
                out.insert({t.name, r.name(e.nameId), e.startNs, e.endNs, e.depth,
                            static_cast<int>(e.kind)});
    return out;
}

const char* kEveryPhase = R"({"displayTimeUnit":"ns","otherData":{"version":"x"},"traceEvents":[
{"ph":"M","name":"process_name","pid":7,"args":{"name":"trainer"}},
{"ph":"M","name":"thread_name","pid":7,"tid":1,"args":{"name":"main"}},
{"ph":"B","name":"step","cat":"app","pid":7,"tid":1,"ts":10},
{"ph":"X","name":"load","cat":"io","pid":7,"tid":1,"ts":11.5,"dur":2.25},
{"ph":"i","name":"mark","s":"t","pid":7,"tid":1,"ts":12},
{"ph":"E","pid":7,"tid":1,"ts":20.001},
{"ph":"C","name":"memory","pid":7,"ts":15,"args":{"rss":1024,"heap":512.5}},
{"ph":"I","name":"global","pid":7,"tid":2,"ts":1700000000000000.123},
{"ph":"B","name":"never-ends","pid":7,"tid":2,"ts":1700000000000001},
{"ph":"s","name":"flow","id":1,"pid":7,"tid":1,"ts":13}
]})";

} // namespace

TEST_CASE("import reads every phase with exact timestamps and nesting") {
    const fs::path out = dir() / "phases.pvti";
    const auto stats = importChromeTrace(write("phases.json", kEveryPhase), out);
    CHECK(stats.events == 5);
    CHECK(stats.samples == 2);
    HostTraceReader r(out.string());
    CHECK(r.processes().at(0).name == "trainer");
    const auto events = eventsOf(r);
    CHECK(events.count({"main", "step", 10'000, 20'001, 0, 0}) == 1);
    CHECK(events.count({"main", "load", 11'500, 13'750, 1, 0}) == 1);
    CHECK(events.count({"main", "mark", 12'000, 12'000, 2, 1}) == 1); // inside step and load
    CHECK(events.count({"thread 2", "global", 1700000000000000123, 1700000000000000123, 0, 1}) ==
          1);
    CHECK(events.count({"thread 2", "never-ends", 1700000000000001000, std::nullopt, 0, 2}) == 1);
    REQUIRE(r.series().size() == 2);
    std::map<std::string, double> last;
    for (const auto& s : r.series())
        for (const auto& [t, v] : r.samples(s.id, 0, std::numeric_limits<std::int64_t>::max(), 10))
            last[s.name] = v;
    CHECK(last["heap"] == 512.5);
    CHECK(r.graphs().at(0).name == "memory");
}

TEST_CASE("timestamps convert to nanoseconds exactly, in every number form") {
    // One event per thread, so that each may start anywhere; names say the expected start.
    const char* trace = R"([
{"ph":"i","name":"-1500","tid":1,"ts":-1.5},
{"ph":"i","name":"-250","tid":2,"ts":-0.25},
{"ph":"i","name":"0","tid":3,"ts":0.0009},
{"ph":"i","name":"2999","tid":4,"ts":2.99999},
{"ph":"i","name":"7000","tid":5,"ts":7},
{"ph":"i","name":"1500000","tid":6,"ts":1.5e3},
{"ph":"i","name":"-20","tid":7,"ts":-2E-2},
{"ph":"X","name":"9223372036854774000","tid":8,"ts":9223372036854774,"dur":0}
])";
    const fs::path out = dir() / "numbers.pvti";
    importChromeTrace(write("numbers.json", trace), out);
    const HostTraceReader r(out.string());
    int checked = 0;
    for (const auto& key : eventsOf(r)) {
        INFO(std::get<1>(key));
        CHECK(std::to_string(std::get<2>(key)) == std::get<1>(key));
        ++checked;
    }
    CHECK(checked == 8);
}

TEST_CASE("export then import gives back the same trace") {
    const fs::path original = dir() / "original.pvti";
    {
        HostTraceWriter w(original);
        const auto p = w.addProcess(99, "proc", 0);
        const auto t1 = w.addThread(p, 1, "alpha");
        const auto t2 = w.addThread(p, 2, "beta");
        const auto ch = w.addChannel("chan");
        const auto a = w.intern("a"), b = w.intern("b \"quoted\""), c = w.intern("c");
        w.addEvent(t1, ch, a, 1'000'000'000'000'000'001, 1'000'000'000'000'009'999, 0);
        w.addEvent(t1, ch, b, 1'000'000'000'000'000'500, 1'000'000'000'000'001'000, 1);
        w.addInstant(t1, ch, c, 1'000'000'000'000'000'700, 2);
        w.addEvent(t2, ch, b, 5, 5, 0);
        w.addUnfinished(t2, ch, a, 7, 0);
        const auto g = w.addGraph(p, "Queue", "items");
        const auto s = w.addSeries(g, "depth");
        w.addSample(s, 3, 1.5);
        w.addSample(s, 4, -2.0);
        w.close();
    }
    const fs::path json = dir() / "exported.json";
    const auto exported = exportChromeTrace(original, json);
    CHECK(exported.events == 5);
    const fs::path back = dir() / "back.pvti";
    importChromeTrace(json, back);
    HostTraceReader a(original.string()), b(back.string());
    CHECK(eventsOf(a) == eventsOf(b));
    CHECK(b.processes().at(0).name == "proc");
    CHECK(b.graphs().at(0).unit == "items");
    const auto samples = b.samples(b.series().at(0).id, 0, 100, 10);
    REQUIRE(samples.size() == 2);
    CHECK(samples[1].second == -2.0);
}

TEST_CASE("the array form may end without its closing bracket") {
    const fs::path out = dir() / "unterminated.pvti";
    importChromeTrace(
        write("unterminated.json", R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1},
{"ph":"X","name":"b","pid":1,"tid":1,"ts":3,"dur":1},
)"),
        out);
    CHECK(HostTraceReader(out.string()).counts().events == 2);
}

TEST_CASE("malformed input is refused with its byte offset and leaves nothing behind") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {R"([{"ph":"X","name":"a","ts":1,"dur":1} {"ph":"X"}])", "malformed JSON at byte"},
        {R"([{"ph":"X","name":"a","ts":1,"dur":1}, [1]])", "must be a JSON object"},
        {R"([{"ph":"X","name":"a","ts":"soon","dur":1}])", "\"ts\" must be a number"},
        {R"([{"ph":7,"name":"a","ts":1}])", "\"ph\" must be a string"},
        {R"([{"name":"a","ts":1}])", "has no \"ph\""},
        {R"([{"ph":"X","name":"a","ts":1,"dur":-1}])", "negative"},
        {R"([{"ph":"B","name":"a","ts":1e300}])", "out of range"},
        {R"([{"ph":"X","name":"a","ts":99999999999999999999999,"dur":1}])", "out of range"},
        {R"([{"ph":"C","name":"m","ts":1,"args":{"v":"x"}}])", "must be a number"},
        {R"({"version":1})", "no trace events"},
        {"", "empty"},
    };
    int i = 0;
    for (const auto& [text, problem] : cases) {
        const fs::path in = write("bad" + std::to_string(i) + ".json", text);
        const fs::path out = dir() / ("bad" + std::to_string(i++) + ".pvti");
        INFO(text);
        try {
            importChromeTrace(in, out);
            FAIL("accepted malformed input");
        } catch (const ReportError& e) {
            CHECK_THAT(e.what(), Catch::Contains(in.string()) && Catch::Contains(problem));
            if (problem != "empty" && problem != "malformed JSON at byte" &&
                problem != "must be a JSON object")
                CHECK_THAT(e.what(), Catch::Contains("at byte"));
        }
        CHECK_FALSE(fs::exists(out));
        CHECK_FALSE(fs::exists(out.string() + ".partial"));
    }
}

TEST_CASE("the joint export adds each run and executed step of a profile on the host axis") {
    SyntheticSpec spec;
    spec.ipus = 1;
    spec.tilesPerIpu = 16;
    spec.steps = 300;
    spec.runs = 2;
    spec.hostEvents = 500;
    spec.hostThreads = 2;
    const auto synth = generateSyntheticReport(dir() / "joint", spec);
    const auto json = dir() / "joint.json";
    const auto stats = exportChromeTrace(synth.hostTrace, json, {synth.profile});

    const ProfileReader profile(synth.profile.string());
    const auto runs = profile.runs();
    REQUIRE(runs.size() == 2);
    const double nsPerCycle = 1e9 / profile.target().clockHz;
    std::uint64_t deviceEvents = 0;
    for (const auto& run : runs)
        deviceEvents += 1 + run.numSteps;
    const HostTraceReader host(synth.hostTrace.string());
    CHECK(stats.events == host.counts().events + deviceEvents);

    // Read back: the device process, its two threads, and a step's place and length.
    std::ifstream in(json);
    const auto doc = nlohmann::json::parse(in);
    std::int64_t devicePid = -1;
    std::set<std::string> threadNames;
    for (const auto& e : doc["traceEvents"])
        if (e["ph"] == "M" && e["name"] == "process_name" &&
            e["args"]["name"] == "device: profile.pop")
            devicePid = e["pid"];
    REQUIRE(devicePid > 0);
    const auto firstRun = runs.front();
    const auto spans = profile.runStepSpans(firstRun, 0, firstRun.totalCycles, 1);
    REQUIRE(spans.size() == 1);
    const double expectedTs =
        double(firstRun.hostStartNs + std::llround(double(spans[0].startCycle) * nsPerCycle)) /
        1000.0;
    std::uint64_t steps = 0, runEvents = 0;
    bool sawFirstStep = false;
    for (const auto& e : doc["traceEvents"]) {
        if (!e.contains("pid") || e["pid"] != devicePid)
            continue;
        if (e["ph"] == "M" && e["name"] == "thread_name")
            threadNames.insert(e["args"]["name"].get<std::string>());
        if (e["ph"] != "X")
            continue;
        if (e["cat"] == "run") {
            ++runEvents;
            continue;
        }
        ++steps;
        if (!sawFirstStep) {
            sawFirstStep = true;
            CHECK(e["cat"] == spans[0].phase);
            CHECK(e["args"]["cycles"] == spans[0].cycles);
            CHECK(std::abs(e["ts"].get<double>() - expectedTs) < 0.002);
        }
    }
    CHECK(threadNames == std::set<std::string>{"engine runs", "steps"});
    CHECK(runEvents == runs.size());
    CHECK(steps == deviceEvents - runs.size());

    // The joint file imports like any trace: host events plus the device's.
    const auto back = dir() / "joint.pvti";
    importChromeTrace(json, back);
    CHECK(std::uint64_t(HostTraceReader(back.string()).counts().events) == stats.events);

    SECTION("a missing profile leaves no output") {
        const auto out = dir() / "joint-missing.json";
        CHECK_THROWS_AS(exportChromeTrace(synth.hostTrace, out, {dir() / "nothing.pop"}),
                        ReportError);
        CHECK_FALSE(fs::exists(out));
        CHECK_FALSE(fs::exists(out.string() + ".partial"));
    }
}
