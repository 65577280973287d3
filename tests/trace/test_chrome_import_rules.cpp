// The Chrome trace import takes trace-event files as real producers write them (tests/data/chrome:
// clang -ftime-trace output, gzip, a cut-off file, and small hand-written cases): events in any
// order, overlapping slices, unmatched E, unclosed B, the object form's extra keys, trailing
// commas, numbers as strings. Every check goes through the reader: events, depths, and the repair
// counts kept in the file's metadata; event args kept as tracepoint metadata.

#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/Schema.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unistd.h>

using namespace tilescope::report;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(TILESCOPE_TEST_DATA) / "chrome";

fs::path dir() {
    static const fs::path d = [] {
        const fs::path p = fs::temp_directory_path() /
                           ("tilescope-chrome-rules-tests-" + std::to_string(::getpid()));
        fs::remove_all(p);
        fs::create_directories(p);
        return p;
    }();
    return d;
}

struct Event {
    std::string thread, name;
    std::int64_t start;
    std::optional<std::int64_t> end;
    std::int32_t depth;
    int kind;
    bool operator<(const Event& o) const {
        return std::tie(thread, name, start, end, depth, kind) <
               std::tie(o.thread, o.name, o.start, o.end, o.depth, o.kind);
    }
};

std::vector<Event> eventsOf(const HostTraceReader& r) {
    std::vector<Event> out;
    for (const auto& t : r.threads())
        for (std::int32_t d = 0; d <= r.maxDepth(t.id); ++d)
            for (const auto& e : r.events(t.id, d, std::numeric_limits<std::int64_t>::min(),
                                          std::numeric_limits<std::int64_t>::max(), 1 << 20))
                out.push_back({t.name, r.name(e.nameId), e.startNs, e.endNs, e.depth,
                               static_cast<int>(e.kind)});
    return out;
}

/// The single event called `name` (there must be exactly one).
Event named(const std::vector<Event>& events, const std::string& name) {
    std::optional<Event> found;
    for (const auto& e : events)
        if (e.name == name) {
            REQUIRE_FALSE(found);
            found = e;
        }
    REQUIRE(found);
    return *found;
}

std::int64_t meta(const HostTraceReader& r, const std::string& key) {
    return std::stoll(r.file().metadataValue(key, "-1"));
}

struct Imported {
    ChromeTraceStats stats;
    fs::path out;
};

Imported import(const std::string& file) {
    const fs::path out = dir() / (file + ".pvti");
    return {importChromeTrace(kCorpus / file, out), out};
}

/// No two events of one (thread, depth) row overlap; each event below the top row lies within an
/// event of the row above it when `strict` (nesting that is strict, as clang writes it).
void checkRows(const std::vector<Event>& events, bool strictNesting) {
    std::map<std::pair<std::string, std::int32_t>,
             std::vector<std::pair<std::int64_t, std::int64_t>>>
        rows;
    for (const auto& e : events)
        if (e.kind == 0)
            rows[{e.thread, e.depth}].push_back({e.start, *e.end});
    for (auto& [key, spans] : rows) {
        std::sort(spans.begin(), spans.end());
        for (std::size_t i = 1; i < spans.size(); ++i)
            CHECK(spans[i - 1].second <= spans[i].first);
        if (!strictNesting || key.second == 0)
            continue;
        const auto& parents = rows[{key.first, key.second - 1}];
        for (const auto& [s, e] : spans) {
            const bool inside = std::any_of(parents.begin(), parents.end(), [&](const auto& p) {
                return p.first <= s && e <= p.second;
            });
            CHECK(inside);
        }
    }
}

} // namespace

TEST_CASE("clang -ftime-trace output (children before parents) nests by time") {
    const auto [stats, out] = import("clang-ftime-trace-scanner.json");
    const HostTraceReader r(out.string());
    CHECK(stats.events == 1189);
    CHECK(r.counts().events == 1189);
    CHECK(r.threads().size() == 86); // clang writes each "Total" statistic on its own thread
    CHECK(stats.repairs.reordered == 496);
    CHECK(stats.repairs.overlapping == 0);
    CHECK(stats.repairs.unmatchedEnds == 0);
    CHECK(meta(r, "import_reordered") == 496);
    CHECK(meta(r, "import_events") == 1189);
    const auto events = eventsOf(r);
    checkRows(events, true);
    std::int32_t deepest = 0;
    for (const auto& e : events)
        deepest = std::max(deepest, e.depth);
    CHECK(deepest >= 3); // #include chains nest Source slices
    CHECK(named(events, "ExecuteCompiler").depth == 0);
    CHECK(r.processes().at(0).name == "clang");
}

TEST_CASE("a gzip-compressed trace imports like the plain one") {
    const auto [stats, out] = import("clang-ftime-trace-memory-categories.json.gz");
    const HostTraceReader r(out.string());
    CHECK(stats.events == 472);
    CHECK(r.counts().events == 472);
    CHECK(stats.repairs.reordered == 163);
    checkRows(eventsOf(r), true);
}

TEST_CASE("a trace cut off inside an event keeps every whole event before the cut") {
    const auto [stats, out] = import("clang-ftime-trace-cut-off.json");
    const HostTraceReader r(out.string());
    CHECK(stats.events == 187);
    CHECK(r.counts().events == 187);
    CHECK(stats.repairs.cutOff == 1);
    CHECK(stats.repairs.partialEvents == 1);
    CHECK(stats.repairs.reordered == 75);
    CHECK(meta(r, "import_cut_off") == 1);
    CHECK(meta(r, "import_partial_events_dropped") == 1);
    checkRows(eventsOf(r), false); // parents of the last events were never written
}

TEST_CASE("X, i, B/E and counters in any order are sorted per thread before nesting") {
    const auto [stats, out] = import("out-of-order.json");
    const HostTraceReader r(out.string());
    const auto events = eventsOf(r);
    CHECK(events.size() == 6);
    CHECK(named(events, "parent").depth == 0);
    CHECK(named(events, "child").depth == 1);
    CHECK(named(events, "child").thread == "main");
    CHECK(named(events, "mark").depth == 2);
    CHECK(named(events, "same-start-long").depth == 0);
    CHECK(named(events, "same-start-short").depth == 1);
    const Event b = named(events, "b");
    CHECK(b.start == 3000);
    CHECK(b.end == 9000);
    CHECK(stats.repairs.reordered == 4); // parent, same-start-long, the B, a counter sample
    CHECK(stats.repairs.unmatchedEnds == 0);
    CHECK(stats.repairs.unfinished == 0);
    REQUIRE(r.series().size() == 1);
    const auto samples = r.samples(r.series()[0].id, 0, 1'000'000, 10);
    REQUIRE(samples.size() == 2);
    CHECK(samples[0] == std::pair<std::int64_t, double>{4000, 1.0});
    CHECK(samples[1] == std::pair<std::int64_t, double>{5000, 2.0});
    CHECK(r.file().metadataValue("import_summary") == describeImport(stats));
    CHECK_THAT(describeImport(stats),
               Catch::StartsWith("imported 6 events and 2 counter samples; reordered 4; dropped 0 "
                                 "unmatched E; closed 0 unfinished B"));
}

TEST_CASE("overlapping slices get their own rows, E without B is dropped, B without E stays") {
    const auto [stats, out] = import("overlap-and-unmatched.json");
    const HostTraceReader r(out.string());
    const auto events = eventsOf(r);
    CHECK(events.size() == 8);
    CHECK(stats.events == 8);
    CHECK(named(events, "a").depth == 0);
    CHECK(named(events, "b").depth == 1); // overlaps a, not inside it
    CHECK(named(events, "c").depth == 2);
    CHECK(named(events, "open").end == 6000);
    const Event never = named(events, "never");
    CHECK(never.kind == 2); // unfinished
    CHECK_FALSE(never.end);
    CHECK(named(events, "inner").depth == 1);
    CHECK(named(events, "outer").end == 5000); // closed while "long" (inside it) still ran
    CHECK(named(events, "outer").depth == 0);
    CHECK(named(events, "long").depth == 1);
    checkRows(events, false);
    CHECK(stats.repairs.overlapping == 2);
    CHECK(stats.repairs.unmatchedEnds == 1);
    CHECK(stats.repairs.unfinished == 1);
    CHECK(stats.repairs.reordered == 0);
    CHECK(meta(r, "import_unmatched_end_dropped") == 1);
    CHECK(meta(r, "import_unfinished_begin_closed") == 1);
    CHECK(meta(r, "import_overlapping_slices") == 2);
    const auto details = chromeImportDetails(r.file());
    using Line = std::pair<std::string, std::string>;
    CHECK(details.front() == Line{"Imported from", "overlap-and-unmatched.json"});
    CHECK(std::count(details.begin(), details.end(), Line{"Unmatched E dropped", "1"}) == 1);
    CHECK(std::count(details.begin(), details.end(), Line{"Overlapping slices on own rows", "2"}) ==
          1);
}

TEST_CASE("the object form's other keys, trailing commas and numbers as strings are taken") {
    const auto [stats, out] = import("producer-forms.json");
    const HostTraceReader r(out.string());
    const auto events = eventsOf(r);
    REQUIRE(events.size() == 2);
    const Event s = named(events, "s");
    CHECK(s.thread == "thread io");
    CHECK(s.start == 12'500);
    CHECK(s.end == 14'500);
    CHECK(named(events, "n").thread == "thread 8");
    CHECK(stats.repairs.trailingCommas == 1);
    CHECK(stats.repairs.cutOff == 0);
    CHECK(meta(r, "import_trailing_commas") == 1);
}

TEST_CASE("the array form without its closing bracket is a counted cut-off") {
    const auto [stats, out] = import("no-closing-bracket.json");
    CHECK(HostTraceReader(out.string()).counts().events == 2);
    CHECK(stats.repairs.cutOff == 1);
    CHECK(stats.repairs.partialEvents == 0);
}

TEST_CASE("strict import refuses the first repair by line, column and thread, and nothing else") {
    ChromeTraceImportOptions strict;
    strict.strict = true;
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"out-of-order.json", "line 3, column 1, thread pid 1 tid 1: event at 1000 ns comes "
                              "after one at 2000 ns"},
        {"overlap-and-unmatched.json", "line 3, column 1, thread pid 0 tid 1: an \"X\" event "
                                       "overlaps"},
        {"producer-forms.json", "line 3, column 55: a comma before the closing ']'"},
        {"no-closing-bracket.json", "line 3, column 1: the file is cut off here"},
        {"clang-ftime-trace-cut-off.json", "line 1, column 132, thread pid 26936 tid 26936"},
    };
    for (const auto& [file, message] : cases) {
        INFO(file);
        const fs::path out = dir() / (file + ".strict.pvti");
        try {
            importChromeTrace(kCorpus / file, out, strict);
            FAIL("accepted a file that needed repairs");
        } catch (const ReportError& e) {
            CHECK_THAT(e.what(), Catch::Contains("refused (--strict)") &&
                                     Catch::Contains(message) && Catch::Contains(file));
        }
        CHECK_FALSE(fs::exists(out));
        CHECK_FALSE(fs::exists(out.string() + ".partial"));
    }
    const fs::path out = dir() / "in-order.strict.pvti";
    const auto stats = importChromeTrace(kCorpus / "in-order.json", out, strict);
    CHECK(stats.repairs.total() == 0);
    const HostTraceReader r(out.string());
    const auto events = eventsOf(r);
    CHECK(named(events, "inner").depth == 1);
    CHECK(named(events, "outer").end == 4000);
    CHECK(meta(r, "import_reordered") == 0);
}

TEST_CASE("files that are not trace events are refused and leave nothing behind") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"not-json.json", "no trace events"},
        {"other-shape.json", "no trace events"},
        {"event-without-ph.json", "has no \"ph\""},
    };
    for (const auto& [file, problem] : cases) {
        INFO(file);
        const fs::path out = dir() / (file + ".pvti");
        try {
            importChromeTrace(kCorpus / file, out);
            FAIL("accepted a file that is not a trace");
        } catch (const ReportError& e) {
            CHECK_THAT(e.what(), Catch::Contains(file) && Catch::Contains(problem));
        }
        CHECK_FALSE(fs::exists(out));
        CHECK_FALSE(fs::exists(out.string() + ".partial"));
        CHECK_FALSE(fs::exists(out.string() + ".partial-json"));
    }
}

TEST_CASE("async events become tracks per (process, category, id), flows become arrows") {
    const auto [stats, out] = import("async-and-flows.json");
    const HostTraceReader r(out.string());
    CHECK(stats.events == 2); // send, recv
    CHECK(stats.asyncSlices == 6);
    CHECK(stats.flows == 2);
    CHECK(stats.repairs.unfinished == 1); // "never"
    CHECK(stats.repairs.reordered == 0);
    CHECK(meta(r, "import_async_slices") == 6);
    const auto tracks = r.asyncTracks();
    REQUIRE(tracks.size() == 3);
    std::map<std::string, AsyncTrackInfo> byName;
    for (const auto& t : tracks)
        byName[t.name] = t;
    REQUIRE(byName.count("request"));
    const auto request = byName["request"];
    CHECK(request.category == "net");
    CHECK(request.asyncId == "0x1");
    CHECK(request.maxDepth == 1);
    CHECK(r.processes().at(0).name == "server");
    CHECK(request.processId == r.processes().at(0).id);
    using Slice = std::tuple<std::string, int, std::int64_t, std::optional<std::int64_t>, int>;
    auto slicesOf = [&](const AsyncTrackInfo& t) {
        std::set<Slice> out;
        for (const auto& s : r.asyncSlices(t.id, 0, std::numeric_limits<std::int64_t>::max(), 100))
            out.insert({r.name(s.nameId), static_cast<int>(s.kind), s.startNs, s.endNs, s.depth});
        return out;
    };
    CHECK(slicesOf(request) == std::set<Slice>{{"request", 0, 10'000, 20'000, 0},
                                               {"headers", 1, 12'000, 12'000, 1},
                                               {"read", 0, 13'000, 15'000, 1}});
    CHECK(slicesOf(byName["legacy"]) ==
          std::set<Slice>{{"legacy", 0, 30'000, 35'000, 0}, {"legacy", 1, 31'000, 31'000, 1}});
    CHECK(slicesOf(byName["never"]) == std::set<Slice>{{"never", 2, 40'000, std::nullopt, 0}});
    // A window query sees only what overlaps it.
    CHECK(r.asyncSlices(request.id, 14'000, 14'500, 100).size() == 2);

    std::map<std::int64_t, std::string> threadName;
    for (const auto& t : r.threads())
        threadName[t.id] = t.name;
    const auto flows = r.flows(100);
    REQUIRE(flows.size() == 2);
    CHECK(r.name(flows[0].nameId) == "msg");
    CHECK(threadName[flows[0].fromThreadId] == "thread 1");
    CHECK(flows[0].fromNs == 6'000);
    CHECK(threadName[flows[0].toThreadId] == "thread 3");
    CHECK(flows[0].toNs == 30'000);
    CHECK(threadName[flows[1].toThreadId] == "thread 2");
    CHECK(flows[1].toNs == 51'000);
    const auto thread1 = flows[0].fromThreadId;
    CHECK(r.flowsAt(thread1, 5'000, 7'000, 10).size() == 1);
    CHECK(r.flowsAt(thread1, 7'000, 90'000, 10).empty());
}

TEST_CASE("a format-v1 host trace opens with no async tracks or flows") {
    const fs::path copy = dir() / "v1-host.pvti";
    fs::copy_file(fs::path(TILESCOPE_TEST_DATA) / "format-v1" / "host.pvti", copy,
                  fs::copy_options::overwrite_existing);
    const HostTraceReader r(copy.string());
    CHECK(r.file().formatVersion() == 1);
    CHECK(r.counts().events > 0);
    CHECK(r.asyncTracks().empty());
    CHECK(r.flows(10).empty());
    CHECK(chromeImportDetails(r.file()).empty());
    const fs::path fresh = dir() / "fresh.pvti";
    importChromeTrace(kCorpus / "in-order.json", fresh);
    CHECK(HostTraceReader(fresh.string()).file().formatVersion() == Schema::kHostTraceVersion);
    CHECK(Schema::kHostTraceVersion == 5);
}

TEST_CASE("a gzip stream cut off is a cut-off trace, corrupt gzip is refused by its name") {
    std::ifstream in(kCorpus / "clang-ftime-trace-memory-categories.json.gz", std::ios::binary);
    const std::string gz((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const fs::path cut = dir() / "cut.json.gz";
    std::ofstream(cut, std::ios::binary) << gz.substr(0, gz.size() / 2);
    const fs::path out = dir() / "cut-gz.pvti";
    const auto stats = importChromeTrace(cut, out);
    CHECK(stats.repairs.cutOff == 1);
    CHECK(stats.events > 0);
    CHECK(stats.events < 472);
    CHECK(HostTraceReader(out.string()).counts().events == std::int64_t(stats.events));

    const fs::path bad = dir() / "bad.json.gz";
    std::ofstream(bad, std::ios::binary) << gz.substr(0, 10) << std::string(200, '\x5a');
    const fs::path badOut = dir() / "bad-gz.pvti";
    try {
        importChromeTrace(bad, badOut);
        FAIL("accepted corrupt gzip");
    } catch (const ReportError& e) {
        CHECK_THAT(e.what(), Catch::StartsWith(bad.string()));
    }
    CHECK_FALSE(fs::exists(badOut));
    CHECK_FALSE(fs::exists(badOut.string() + ".partial-json"));
    CHECK_FALSE(fs::exists(badOut.string() + ".partial"));
}

TEST_CASE("an external merge of spilled runs imports exactly what memory does") {
    for (const auto& [file, held] : std::vector<std::pair<std::string, std::uint64_t>>{
             {"clang-ftime-trace-scanner.json", 50},
             {"out-of-order.json", 1},
             {"overlap-and-unmatched.json", 2},
             {"clang-ftime-trace-cut-off.json", 7}}) {
        INFO(file << " holding " << held);
        const fs::path inMemory = dir() / (file + ".memory.pvti");
        const fs::path spilled = dir() / (file + ".spilled.pvti");
        const auto a = importChromeTrace(kCorpus / file, inMemory);
        ChromeTraceImportOptions options;
        options.maxHeldEvents = held;
        const auto b = importChromeTrace(kCorpus / file, spilled, options);
        CHECK(a.events == b.events);
        CHECK(a.repairs.reordered == b.repairs.reordered);
        CHECK(a.repairs.overlapping == b.repairs.overlapping);
        CHECK(a.repairs.unmatchedEnds == b.repairs.unmatchedEnds);
        CHECK(a.repairs.unfinished == b.repairs.unfinished);
        auto sorted = [](std::vector<Event> v) {
            std::sort(v.begin(), v.end());
            return v;
        };
        const auto ea = sorted(eventsOf(HostTraceReader(inMemory.string())));
        const auto eb = sorted(eventsOf(HostTraceReader(spilled.string())));
        REQUIRE(ea.size() == eb.size());
        CHECK(std::equal(ea.begin(), ea.end(), eb.begin(),
                         [](const Event& x, const Event& y) { return !(x < y) && !(y < x); }));
    }
}

TEST_CASE("async and flow events without a time are dropped and counted, never refused") {
    // Chrome writes the ends of some async slices with "ts": null; a flow step may lack "ts".
    const fs::path in = dir() / "untimed.json";
    {
        std::ofstream f(in);
        f << R"({"traceEvents":[
{"ph":"X","name":"work","pid":1,"tid":1,"ts":1,"dur":5},
{"ph":"b","name":"load","cat":"net","id":"7","pid":1,"tid":1,"ts":2},
{"ph":"e","name":"load","cat":"net","id":"7","pid":1,"tid":1,"ts":null},
{"ph":"b","name":"ok","cat":"net","id":"8","pid":1,"tid":1,"ts":3},
{"ph":"e","name":"ok","cat":"net","id":"8","pid":1,"tid":1,"ts":4},
{"ph":"s","name":"msg","cat":"c","id":"1","pid":1,"tid":1,"ts":2},
{"ph":"t","name":"msg","cat":"c","id":"1","pid":1,"tid":1},
{"ph":"f","name":"msg","cat":"c","id":"1","pid":1,"tid":1,"ts":"not a time","bp":"e"}
]})";
    }
    const fs::path out = dir() / "untimed.pvti";
    const ChromeTraceStats stats = importChromeTrace(in, out);
    CHECK(stats.repairs.untimed == 3);
    CHECK(stats.events == 1);
    CHECK(stats.repairs.unfinished == 1);    // "load" lost its end
    CHECK(stats.repairs.danglingFlows == 1); // "msg" kept one point
    CHECK(describeImport(stats).find("dropped 3 async or flow events without a time") !=
          std::string::npos);
    const HostTraceReader r(out.string());
    CHECK(meta(r, "import_untimed_dropped") == 3);
    // Strict import refuses the same file: it needed repairs.
    ChromeTraceImportOptions strict;
    strict.strict = true;
    CHECK_THROWS_AS(importChromeTrace(in, dir() / "untimed-strict.pvti", strict), ReportError);
    // An interval event without a time is still an error: it is what the trace is made of.
    const fs::path bad = dir() / "untimed-interval.json";
    {
        std::ofstream f(bad);
        f << R"([{"ph":"X","name":"work","pid":1,"tid":1,"ts":null,"dur":5}])";
    }
    CHECK_THROWS_AS(importChromeTrace(bad, dir() / "untimed-interval.pvti"), ReportError);
}

TEST_CASE("Event args become tracepoint metadata and are exported again as args") {
    const fs::path in = dir() / "args.json";
    {
        std::ofstream f(in);
        f << R"([
{"ph":"X","name":"load","pid":1,"tid":1,"ts":1,"dur":5,"args":{"file":"a.bin","bytes":4096,"ratio":0.5,"ok":true,"none":null,"nested":{"x":1}}},
{"ph":"B","name":"step","pid":1,"tid":1,"ts":10,"args":{"batch":32}},
{"ph":"i","name":"mark","pid":1,"tid":1,"ts":12,"s":"t","args":{"why":"checkpoint"}},
{"ph":"E","pid":1,"tid":1,"ts":20,"args":{"loss":0.25}},
{"ph":"X","name":"plain","pid":1,"tid":1,"ts":30,"dur":1},
{"ph":"B","name":"open","pid":1,"tid":1,"ts":40,"args":{"still":"running"}}
])";
    }
    const fs::path out = dir() / "args.pvti";
    importChromeTrace(in, out);
    const HostTraceReader r(out.string());
    CHECK(r.eventsWithMetadata() == 4); // load, step (begin and end), mark, open
    std::map<std::string, std::vector<EventMetadataEntry>> byName;
    for (const auto& t : r.threads())
        for (std::int32_t d = 0; d <= r.maxDepth(t.id); ++d)
            for (const auto& e :
                 r.events(t.id, d, 0, std::numeric_limits<std::int64_t>::max(), 100))
                byName[r.name(e.nameId)] = r.eventMetadata(e.id);
    REQUIRE(byName.at("load").size() == 1);
    CHECK(byName.at("load")[0].metadata.type == "json");
    // Scalars as written (the compound arg is not kept).
    CHECK(byName.at("load")[0].metadata.data ==
          R"({"bytes":4096,"file":"a.bin","none":null,"ok":true,"ratio":0.5})");
    REQUIRE(byName.at("step").size() == 2);
    CHECK(byName.at("step")[0].point == MetadataPoint::Begin);
    CHECK(byName.at("step")[0].metadata.data == R"({"batch":32})");
    CHECK(byName.at("step")[1].point == MetadataPoint::End);
    CHECK(byName.at("step")[1].metadata.data == R"({"loss":0.25})");
    CHECK(byName.at("mark").at(0).metadata.data == R"({"why":"checkpoint"})");
    CHECK(byName.at("plain").empty());
    CHECK(byName.at("open").at(0).metadata.data == R"({"still":"running"})");

    // Exported, the begin's and end's args are merged as a viewer merges a B's and its E's.
    const fs::path json = dir() / "args-out.json";
    exportChromeTrace(out, json);
    std::ifstream back(json);
    const std::string text((std::istreambuf_iterator<char>(back)),
                           std::istreambuf_iterator<char>());
    CHECK(text.find(R"("args":{"batch":32,"loss":0.25})") != std::string::npos);
    CHECK(text.find(R"("args":{"why":"checkpoint"})") != std::string::npos);
    CHECK(text.find(R"("args":{"bytes":4096,"file":"a.bin","none":null,"ok":true,"ratio":0.5})") !=
          std::string::npos);
}
