// libpvti tracepoint metadata (pvti::Metadata, createJsonMetadata): attached to begins, ends and
// instants, stored in the trace file's event_metadata (host-trace format v5) under the event it
// belongs to, exported to Chrome JSON as `args`; malformed JSON refused by name.

#include "CaptureTestDirs.hpp"
#include "pvti/pvti.hpp"
#include "tilescope/capture/HostTracer.hpp"
#include "tilescope/capture/TraceOptions.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/Schema.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

using namespace tilescope;
using capture::HostTracer;
using capture::TraceOptions;
namespace fs = std::filesystem;

namespace {

fs::path freshDir(const std::string& name) {
    return capture::test::freshDir("tilescope-metadata-tests", name);
}

using capture::test::enabledIn;

constexpr std::int64_t kAll = std::numeric_limits<std::int64_t>::max();

// Every event of the trace by name (the last one of a name wins), with its metadata.
struct Found {
    report::HostEvent event;
    std::vector<report::EventMetadataEntry> metadata;
};

std::map<std::string, Found> eventsByName(const report::HostTraceReader& r) {
    std::map<std::string, Found> out;
    for (const auto& t : r.threads())
        for (std::int32_t d = 0; d <= r.maxDepth(t.id); ++d)
            for (const auto& e : r.events(t.id, d, 0, kAll, 100000))
                out[r.name(e.nameId)] = {e, r.eventMetadata(e.id)};
    return out;
}

std::string message(const std::string& json) {
    try {
        pvti::createJsonMetadata(json);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("createJsonMetadata checks its JSON and names what is wrong") {
    const pvti::Metadata m = pvti::createJsonMetadata(R"({"batch": 4, "name": "x"})");
    CHECK(m.type == "json");
    CHECK(std::string(m.data.begin(), m.data.end()) == R"({"batch": 4, "name": "x"})");
    CHECK_THAT(message("{\"batch\": 4"), Catch::Contains("pvti::createJsonMetadata") &&
                                             Catch::Contains("not valid JSON") &&
                                             Catch::Contains("column"));
    CHECK_THAT(message(""), Catch::Contains("not valid JSON"));
    CHECK_THAT(message("{} trailing"), Catch::Contains("not valid JSON"));
    CHECK(message("[1, 2.5, \"three\"]") == "no error");
}

TEST_CASE("metadata of begins, ends and instants is stored with its event") {
    const fs::path dir = freshDir("stored");
    HostTracer& tracer = HostTracer::restart(enabledIn(dir));
    pvti::TraceChannel channel = {"meta"};
    const pvti::Metadata binary("bytes", {0x00, 0xff, 0x10});
    {
        const auto begin = pvti::createJsonMetadata(R"({"step": 7, "shape": [2, 3]})");
        pvti::Tracepoint scoped(&channel, "scoped", &begin);
        pvti::Tracepoint plain(&channel, std::string("plain"));
        const auto instant = pvti::createJsonMetadata(R"("a string")");
        pvti::Tracepoint::event(&channel, "instant", &instant);
    }
    const auto atBegin = pvti::createJsonMetadata(R"({"phase": "begin"})");
    const auto atEnd = pvti::createJsonMetadata(R"({"phase": "end", "items": 12})");
    pvti::Tracepoint::begin(&channel, std::string("manual"), &atBegin);
    pvti::Tracepoint::end(&channel, std::string("manual"), &atEnd);
    pvti::Tracepoint::event(&channel, "binary", &binary);
    std::thread worker([&] {
        const auto m = pvti::createJsonMetadata(R"({"thread": "worker"})");
        pvti::Tracepoint t(&channel, "on-worker", &m);
    });
    worker.join();
    // Metadata whose channel is off records nothing (and costs nothing).
    pvti::TraceChannel off = {"off", false};
    pvti::Tracepoint::event(&off, "ignored", &binary);
    const auto leftOpen = pvti::createJsonMetadata(R"({"open": true})");
    pvti::Tracepoint::begin(&channel, "left-open", &leftOpen);
    const fs::path file = tracer.file();
    tracer.close();

    report::HostTraceReader r(file.string());
    CHECK(r.file().formatVersion() == report::Schema::kHostTraceVersion);
    CHECK(report::Schema::kHostTraceVersion == 5);
    const auto found = eventsByName(r);
    CHECK(found.count("ignored") == 0);
    CHECK(r.eventsWithMetadata() == 6);
    CHECK(found.at("plain").metadata.empty());

    const auto& scoped = found.at("scoped").metadata;
    REQUIRE(scoped.size() == 1);
    CHECK(scoped[0].point == report::MetadataPoint::Begin);
    CHECK(scoped[0].metadata.type == "json");
    CHECK(nlohmann::json::parse(scoped[0].metadata.data) ==
          nlohmann::json::parse(R"({"step": 7, "shape": [2, 3]})"));

    const auto& instant = found.at("instant");
    CHECK(instant.event.kind == report::EventKind::Instant);
    REQUIRE(instant.metadata.size() == 1);
    CHECK(instant.metadata[0].metadata.data == R"("a string")");

    const auto& manual = found.at("manual").metadata;
    REQUIRE(manual.size() == 2);
    CHECK(manual[0].point == report::MetadataPoint::Begin);
    CHECK(manual[0].metadata.data == R"({"phase": "begin"})");
    CHECK(manual[1].point == report::MetadataPoint::End);
    CHECK(manual[1].metadata.data == R"({"phase": "end", "items": 12})");

    const auto& bin = found.at("binary").metadata;
    REQUIRE(bin.size() == 1);
    CHECK(bin[0].metadata.type == "bytes");
    CHECK(bin[0].metadata.data == std::string("\x00\xff\x10", 3));
    CHECK(report::metadataText(bin[0].metadata) == "3 bytes: 00ff10");

    REQUIRE(found.at("on-worker").metadata.size() == 1);
    const auto& open = found.at("left-open");
    CHECK(open.event.kind == report::EventKind::Unfinished);
    REQUIRE(open.metadata.size() == 1);
    CHECK(report::metadataText(open.metadata[0].metadata) == "{\n  \"open\": true\n}");
    CHECK(report::metadataText(open.metadata[0].metadata, -1) == "{\"open\":true}");

    // Chrome export: the metadata as the events' args (an end's object merged after its begin's).
    const fs::path json = dir / "trace.json";
    report::exportChromeTrace(file, json);
    std::ifstream in(json);
    const auto doc = nlohmann::json::parse(in);
    std::map<std::string, nlohmann::json> args;
    for (const auto& e : doc.at("traceEvents"))
        if (e.contains("args") && e.value("ph", "") != "M")
            args[e.at("name").get<std::string>()] = e.at("args");
    CHECK(args.at("scoped") == nlohmann::json::parse(R"({"step": 7, "shape": [2, 3]})"));
    CHECK(args.at("manual") == nlohmann::json::parse(R"({"phase": "end", "items": 12})"));
    CHECK(args.at("instant") == nlohmann::json::parse(R"({"metadata": "a string"})"));
    CHECK(args.at("binary") == nlohmann::json::parse(R"({"bytes": "3 bytes: 00ff10"})"));
    CHECK(args.count("plain") == 0);
}

TEST_CASE("an event recorded with metadata costs one extra record, not a dropped event") {
    const fs::path dir = freshDir("many");
    HostTracer& tracer = HostTracer::restart(enabledIn(dir));
    pvti::TraceChannel channel = {"meta"};
    // Enough events to fill several chunks, so metadata records cross chunk boundaries.
    constexpr int kEvents = 20000;
    for (int i = 0; i < kEvents; ++i) {
        const auto m = pvti::createJsonMetadata("{\"i\":" + std::to_string(i) + "}");
        pvti::Tracepoint t(&channel, "tagged", i % 2 == 0 ? &m : nullptr);
    }
    const fs::path file = tracer.file();
    tracer.close();
    CHECK(tracer.stats().eventsDropped == 0);
    CHECK(tracer.stats().eventsRecorded == 2 * kEvents);
    report::HostTraceReader r(file.string());
    CHECK(r.eventsWithMetadata() == kEvents / 2);
    // Each tagged event carries its own number, in order.
    const auto thread = r.threads().at(0).id;
    const auto events = r.events(thread, 0, 0, kAll, kEvents + 1);
    REQUIRE(events.size() == kEvents);
    int checked = 0;
    for (int i = 0; i < kEvents; i += 997) {
        const auto m = r.eventMetadata(events[i].id);
        if (i % 2 == 0) {
            REQUIRE(m.size() == 1);
            CHECK(nlohmann::json::parse(m[0].metadata.data).at("i") == i);
            ++checked;
        } else {
            CHECK(m.empty());
        }
    }
    CHECK(checked > 5);
}
