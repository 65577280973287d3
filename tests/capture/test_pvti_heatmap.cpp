// pvti::HeatmapDouble / pvti::HeatmapUInt64 round-trip through the trace file: each value lands in
// the bucket its edges define (outer buckets for values outside the edges), the heatmap keeps its
// name, unit and edges, binning counts per time bin and bucket, the Chrome export writes them as
// counters with a series per bucket, and a format-v2 file still opens.

#include "CaptureTestDirs.hpp"
#include "pvti/pvti.hpp"
#include "tilescope/capture/HostTracer.hpp"
#include "tilescope/capture/TraceOptions.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

using namespace tilescope;
using capture::HostTracer;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kForever = std::numeric_limits<std::int64_t>::max();

fs::path freshDir(const std::string& name) {
    return capture::test::freshDir("tilescope-heatmap-tests", name);
}

using capture::test::enabledIn;

std::vector<std::int32_t> bucketsOf(const std::vector<report::HeatmapSample>& samples) {
    std::vector<std::int32_t> out;
    for (const auto& s : samples)
        out.push_back(s.bucket);
    return out;
}

} // namespace

TEST_CASE("heatmap values land in the buckets their edges define, outer buckets outside them") {
    HostTracer& tracer = HostTracer::restart(enabledIn(freshDir("round-trip")));
    pvti::HeatmapDouble latency("Latency", {1.0, 10.0, 100.0}, "ms");
    CHECK(latency.bucketOf(-5.0) == 0);
    CHECK(latency.bucketOf(1.0) == 1); // an edge opens its bucket
    latency.add(0.5);
    latency.add(-5.0);
    latency.add(1.0);
    latency.add(9.99);
    latency.add(10.0);
    latency.add(std::nan("")); // not counted
    latency.add(std::vector<double>{50.0, 100.0, 1e9});
    const std::uint64_t big = std::uint64_t{1} << 60; // beyond a double's 53-bit mantissa
    pvti::HeatmapUInt64 bytes("Message size", {big, big + 1});
    bytes.add(5);
    bytes.add(big);
    bytes.add(big + 1);
    bytes.add(std::numeric_limits<std::uint64_t>::max());
    const fs::path file = tracer.file();
    tracer.close();
    CHECK(tracer.stats().heatmapSamplesWritten == 12);

    report::HostTraceReader r(file.string());
    CHECK(r.file().formatVersion() == report::Schema::kHostTraceVersion);
    const auto heatmaps = r.heatmaps();
    REQUIRE(heatmaps.size() == 2);
    CHECK(heatmaps[0].name == "Latency");
    CHECK(heatmaps[0].unit == "ms");
    CHECK_FALSE(heatmaps[0].integerValues);
    CHECK(heatmaps[0].edges == std::vector<double>{1.0, 10.0, 100.0});
    CHECK(heatmaps[0].buckets() == 4);
    CHECK(heatmaps[1].name == "Message size");
    CHECK(heatmaps[1].unit.empty());
    CHECK(heatmaps[1].integerValues);

    const auto lat = r.heatmapSamples(heatmaps[0].id, 0, kForever, 100);
    CHECK(bucketsOf(lat) == std::vector<std::int32_t>{0, 0, 1, 1, 2, 2, 3, 3});
    CHECK(lat[1].value == -5.0);
    CHECK(lat[7].value == 1e9);
    // The trace's time span covers heatmap samples (this trace has no events).
    const auto span = r.timeSpan();
    REQUIRE(span);
    CHECK(span->first == lat.front().tNs);
    CHECK(span->second >= lat.back().tNs);
    // Integer buckets are decided on the exact values, not their nearest doubles.
    CHECK(bucketsOf(r.heatmapSamples(heatmaps[1].id, 0, kForever, 100)) ==
          std::vector<std::int32_t>{0, 1, 2, 2});

    // Binning over the samples' time span: per-bucket totals match, bins cover the span.
    const std::int64_t from = lat.front().tNs, to = lat.back().tNs + 1;
    const auto bins = r.heatmapBins(heatmaps[0].id, from, to, 4);
    REQUIRE(bins.buckets == 4);
    REQUIRE(bins.bins >= 1);
    REQUIRE(bins.bins <= 4);
    CHECK(static_cast<std::int64_t>(bins.bins) * bins.binNs >= to - from);
    std::vector<std::uint64_t> perBucket(4, 0);
    for (std::size_t b = 0; b < bins.bins; ++b)
        for (std::size_t k = 0; k < 4; ++k)
            perBucket[k] += bins.at(b, k);
    CHECK(perBucket == std::vector<std::uint64_t>{2, 2, 2, 2});
    // The first bin holds the first sample; a window before every sample is all zeros.
    CHECK(bins.at(0, 0) >= 1);
    const auto before = r.heatmapBins(heatmaps[0].id, from - 1000, from, 10);
    for (auto c : before.counts)
        CHECK(c == 0);
    CHECK_THROWS_WITH(r.heatmapBins(999, 0, 1, 1), Catch::Contains("no heatmap with id 999"));
}

TEST_CASE("heatmap values on a channel that is not traced are not recorded") {
    capture::TraceOptions o = enabledIn(freshDir("channel"));
    o.channels = std::vector<std::string>{"traced"};
    HostTracer& tracer = HostTracer::restart(o);
    pvti::TraceChannel traced = {"traced"}, other = {"other"};
    pvti::HeatmapDouble on("On", {0.0}, "", &traced), offMap("Off", {0.0}, "", &other);
    on.add(1.0);
    offMap.add(1.0);
    offMap.add(std::vector<double>{1.0, 2.0});
    const fs::path file = tracer.file();
    tracer.close();
    report::HostTraceReader r(file.string());
    const auto heatmaps = r.heatmaps();
    REQUIRE(heatmaps.size() == 2);
    CHECK(r.heatmapSamples(heatmaps[0].id, 0, kForever, 10).size() == 1);
    CHECK(r.heatmapSamples(heatmaps[1].id, 0, kForever, 10).empty());
}

TEST_CASE("heatmap edges must be given, ascending and numbers") {
    auto message = [](auto make) {
        try {
            make();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message([] { pvti::HeatmapDouble h("H", {}); }),
               Catch::Contains("'H'") && Catch::Contains("at least one bucket edge"));
    CHECK_THAT(message([] {
                   pvti::HeatmapUInt64 h("U", {5, 5});
               }),
               Catch::Contains("strictly ascending") && Catch::Contains("edge 1 is 5"));
    CHECK_THAT(message([] {
                   pvti::HeatmapDouble h("N", {1.0, std::nan("")});
               }),
               Catch::Contains("edge 1 is NaN"));
}

TEST_CASE("a format-v2 host trace opens with no heatmaps") {
    const fs::path copy = freshDir("v2") / "host.pvti";
    fs::copy_file(fs::path(TILESCOPE_TEST_DATA) / "hosttrace-v2" / "host.pvti", copy);
    report::HostTraceReader r(copy.string());
    CHECK(r.file().formatVersion() == 2);
    CHECK(r.counts().events > 0);
    CHECK(r.heatmaps().empty());
    CHECK(r.heatmapSamples(1, 0, kForever, 10).empty());
}

TEST_CASE("the Chrome export writes a heatmap as a counter with one series per bucket") {
    HostTracer& tracer = HostTracer::restart(enabledIn(freshDir("chrome")));
    pvti::HeatmapUInt64 sizes("Sizes", {10, 100}, "bytes");
    sizes.add(std::vector<std::uint64_t>{1, 2, 3, 50, 500});
    sizes.add(60);
    const fs::path file = tracer.file();
    tracer.close();
    const fs::path json = file.parent_path() / "trace.json";
    const auto stats = report::exportChromeTrace(file, json);
    CHECK(stats.heatmapBins >= 2);

    std::ifstream in(json);
    const auto doc = nlohmann::json::parse(in);
    std::map<std::string, std::uint64_t> totals;
    std::string unit;
    nlohmann::json last;
    std::uint64_t counters = 0;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "tilescope_counter_unit" && e["args"]["name"] == "Sizes")
            unit = e["args"]["unit"];
        if (e["ph"] != "C" || e["name"] != "Sizes")
            continue;
        ++counters;
        CHECK(e["args"].size() == 3);
        for (const auto& [bucket, count] : e["args"].items())
            totals[bucket] += count.get<std::uint64_t>();
        last = e;
    }
    CHECK(counters == stats.heatmapBins);
    CHECK(unit == "bytes");
    CHECK(totals ==
          std::map<std::string, std::uint64_t>{{"< 10", 3}, {"[10, 100)", 2}, {">= 100", 1}});
    // The counter returns to zero after the last bin.
    for (const auto& [bucket, count] : last["args"].items())
        CHECK(count.get<std::uint64_t>() == 0);
}
