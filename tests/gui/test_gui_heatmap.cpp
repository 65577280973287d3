// The system analyser's heatmap rows on a host trace written here with known heatmap samples:
// the row (label, unit, bucket labels), the binning the worker computes for a window (counts per
// time bin and bucket, checked cell by cell), and the cell colours' ramp.
#include "TestReports.hpp"
#include "system/HeatmapTrack.hpp"
#include "system/HostTraceSession.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <QSignalSpy>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

constexpr std::int64_t B = 1'700'000'000'000'000'000;

/// Heatmap "Latency" [ms], edges 10 and 20 (buckets < 10, [10, 20), >= 20), over [B, B + 3000]:
/// bin [0, 1000): 5, 5, 15; bin [1000, 2000): 25 x 3; bin [2000, 3000): 12, 19, 20.
std::vector<std::shared_ptr<HostTraceSession>> latencyTrace() {
    const auto path = test::scratchDir("heatmap-model") / "heatmap.pvti";
    report::HostTraceWriter w(path);
    const auto p = w.addProcess(7, "app", B);
    const auto t = w.addThread(p, 1, "main");
    const auto ch = w.addChannel("user");
    w.addEvent(t, ch, w.intern("run"), B, B + 3000, 0);
    const auto h = w.addHeatmap(p, "Latency", "ms", false, {"10", "20"});
    const std::vector<std::pair<std::int64_t, double>> samples = {
        {100, 5},   {200, 5},   {900, 15},  {1000, 25}, {1500, 25},
        {1999, 25}, {2000, 12}, {2500, 19}, {2999, 20}};
    for (const auto& [at, v] : samples)
        w.addHeatmapSample(h, B + at, v, v < 10 ? 0 : v < 20 ? 1 : 2);
    w.close();
    return {HostTraceSession::open(path.string())};
}

int heatmapRow(const TimelineModel& m) {
    for (int i = 0; i < int(m.rows().size()); ++i)
        if (m.rows()[std::size_t(i)].kind == TimelineModel::RowKind::Heatmap)
            return i;
    return -1;
}

void checkCells(const HeatmapCells& c) {
    REQUIRE(c.bins == 3);
    REQUIRE(c.buckets == 3);
    CHECK(c.binNs == 1000);
    CHECK(c.fromNs == B);
    const std::vector<std::uint64_t> expected = {2, 1, 0, 0, 0, 3, 0, 2, 1};
    CHECK(c.counts == expected);
    CHECK(c.maxCount == 3);
    CHECK(c.binAt(B + 1500) == 1);
    CHECK(c.binAt(B + 3000) == -1);
    CHECK(c.binAt(B - 1) == -1);
}

} // namespace

TEST_CASE("a heatmap becomes a row under its process with its buckets' labels") {
    TimelineModel m(latencyTrace());
    const int row = heatmapRow(m);
    REQUIRE(row >= 0);
    const auto& r = m.rows()[std::size_t(row)];
    CHECK(r.label == "Latency");
    CHECK(r.unit == "ms");
    CHECK(r.buckets == std::vector<QString>{"< 10", "[10, 20)", ">= 20"});
    CHECK(m.rows()[std::size_t(r.parent)].kind == TimelineModel::RowKind::Process);
}

TEST_CASE("the worker bins a heatmap into counts per time bin and bucket") {
    const auto files = latencyTrace();
    TimelineModel m(files);
    const int row = heatmapRow(m);
    REQUIRE(row >= 0);
    // 9 pixels at 3 pixels per bin: three bins of 1000 ns.
    const auto w = TimelineModel::fetchWindow(files, m.rows(), B, B + 3000, 9, {row});
    REQUIRE(w.heatmaps.count(row) == 1);
    checkCells(w.heatmaps.at(row));

    // The same through the model's worker thread.
    QSignalSpy spy(&m, &TimelineModel::windowChanged);
    m.requestWindow(B, B + 3000, 9, {row});
    REQUIRE(test::waitFor(spy));
    REQUIRE(m.window().heatmaps.count(row) == 1);
    checkCells(m.window().heatmaps.at(row));

    // Zoomed into the middle bin: its three values are all in the top bucket.
    const auto mid = TimelineModel::fetchWindow(files, m.rows(), B + 1000, B + 2000, 3, {row});
    const auto& c = mid.heatmaps.at(row);
    REQUIRE(c.bins == 1);
    CHECK(c.counts == std::vector<std::uint64_t>{0, 0, 3});
}

TEST_CASE("heatmap cells: empty is transparent, more values are brighter") {
    CHECK(heatmapColour(0, 10) == 0);
    const auto low = heatmapColour(1, 100), high = heatmapColour(100, 100);
    CHECK((low >> 24) == 0xff);
    CHECK((high & 0xff) > (low & 0xff)); // red rises towards yellow
}

TEST_CASE("a window of many values is summed from the overview, cell for cell as the samples") {
    const auto path = test::scratchDir("heatmap-overview") / "many.pvti";
    std::int64_t id = 0;
    {
        report::HostTraceWriter w(path);
        const auto p = w.addProcess(7, "app", B);
        id = w.addHeatmap(p, "Sizes", "bytes", true, {"100", "200"});
        for (std::int64_t i = 0; i < 120'000; ++i)
            w.addHeatmapSample(id, B + i * 10, double(50 + 100 * (i % 3)), std::int32_t(i % 3));
        w.close();
    }
    report::HostTraceReader reader(path.string());
    HeatmapOverviews overviews;
    const auto c = HeatmapCells::fetch(reader, overviews, id, B, B + 1'200'000, 300);
    REQUIRE(overviews.count(id) == 1);
    const auto& ov = overviews.at(id);
    CHECK(ov.bins > HeatmapCells::kOverviewBins / 2);
    CHECK(ov.bins <= HeatmapCells::kOverviewBins);
    REQUIRE(c.bins > 0);
    CHECK(c.bins <= 100);
    CHECK(c.binNs % ov.binNs == 0);
    std::vector<std::uint64_t> perBucket(3, 0);
    for (std::size_t b = 0; b < c.bins; ++b)
        for (std::size_t k = 0; k < 3; ++k)
            perBucket[k] += c.at(b, k);
    CHECK(perBucket == std::vector<std::uint64_t>{40'000, 40'000, 40'000});
    // The same bins from the samples themselves.
    const auto direct =
        reader.heatmapBins(id, c.fromNs, c.fromNs + std::int64_t(c.bins) * c.binNs, c.bins);
    CHECK(direct.binNs == c.binNs);
    CHECK(direct.counts == c.counts);
    // A narrow window (few values) is binned from the samples: exact edges at the window.
    const auto narrow = HeatmapCells::fetch(reader, overviews, id, B + 1000, B + 4000, 9);
    CHECK(narrow.fromNs == B + 1000);
    CHECK(narrow.binNs == 1000);
    CHECK(narrow.counts == std::vector<std::uint64_t>{33, 34, 33, 33, 33, 34, 34, 33, 33});
}
