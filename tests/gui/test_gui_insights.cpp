// InsightsModel against the reader: fullest tiles, histogram, vertex types, always-live variables.
#include "TestReports.hpp"
#include "insights/InsightsModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>

using namespace tilescope;
using namespace tilescope::gui;
using gui::test::openSession;

namespace {

std::unique_ptr<InsightsModel> loadedInsights(std::shared_ptr<ReportSession> session) {
    auto model = std::make_unique<InsightsModel>(std::move(session));
    QSignalSpy loaded(model.get(), &InsightsModel::loadedChanged);
    model->load();
    REQUIRE(gui::test::waitFor(loaded));
    return model;
}

} // namespace

TEST_CASE("InsightsModel finds the fullest tiles and bins every tile") {
    const auto path = gui::test::smallReport();
    auto session = openSession(path);
    auto model = loadedInsights(session);
    report::ProfileReader reader(path.string());
    const report::PerTile totals = reader.tileMemoryTotal(true);

    REQUIRE(model->fits());
    REQUIRE(model->usedFraction() == Approx(double(session->summary().totalBytesIncludingGaps) /
                                            double(session->summary().totalCapacityBytes)));

    auto& top = model->topTiles();
    REQUIRE(top.rowCount() == InsightsModel::kTopTiles);
    std::vector<std::uint64_t> sorted(totals.begin(), totals.end());
    std::sort(sorted.rbegin(), sorted.rend());
    for (int r = 0; r < top.rowCount(); ++r) {
        const auto tile = std::size_t(top.value(r, 0).toLongLong());
        REQUIRE(top.value(r, 3).toULongLong() == totals[tile]);
        REQUIRE(totals[tile] == sorted[std::size_t(r)]);
        REQUIRE(top.value(r, 1).toUInt() == tile / 64);
    }
    REQUIRE(std::size_t(top.value(0, 0).toLongLong()) == std::size_t(session->summary().maxTile));

    const auto& h = model->histogram();
    REQUIRE(h.tiles.size() == std::size_t(InsightsModel::kHistogramBins));
    REQUIRE(std::accumulate(h.tiles.begin(), h.tiles.end(), 0u) == 128u);
    // Each tile is in the bin its bytes fall in.
    const std::uint64_t t0 = totals[std::size_t(session->summary().maxTile)];
    REQUIRE(h.tiles[std::size_t(double(t0) / h.binBytes)] > 0);
}

TEST_CASE("InsightsModel ranks vertex types by state and lists the largest always-live variables") {
    const auto path = gui::test::smallReport();
    auto session = openSession(path);
    auto model = loadedInsights(session);
    report::ProfileReader reader(path.string());

    auto& types = model->vertexTypes();
    REQUIRE(types.rowCount() == int(reader.vertexTypes().size()));
    std::uint64_t instances = 0;
    for (int r = 0; r < types.rowCount(); ++r) {
        instances += types.value(r, 1).toULongLong();
        REQUIRE(types.value(r, 2).toULongLong() ==
                types.value(r, 1).toULongLong() * types.value(r, 3).toULongLong());
        if (r > 0)
            REQUIRE(types.value(r - 1, 2).toULongLong() >= types.value(r, 2).toULongLong());
    }
    REQUIRE(instances == std::uint64_t(reader.counts().vertices));

    const auto expected = reader.largestAlwaysLiveVariables(InsightsModel::kLargestVariables);
    auto& vars = model->alwaysLiveVariables();
    REQUIRE(vars.rowCount() == int(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        REQUIRE(vars.value(int(i), 0).toString().toStdString() == expected[i].name);
        REQUIRE(vars.value(int(i), 1).toULongLong() == expected[i].bytes);
    }
}

TEST_CASE("InsightsModel says when a report does not fit") {
    auto session = openSession(gui::test::oomReport());
    auto model = loadedInsights(session);
    REQUIRE_FALSE(model->fits());
    // Tiles over the limit land in bins at or past the memory per tile.
    const auto& h = model->histogram();
    std::uint32_t over = 0;
    for (std::size_t i = 0; i < h.tiles.size(); ++i)
        if (double(i + 1) * h.binBytes > double(h.bytesPerTile))
            over += h.tiles[i];
    REQUIRE(over >= std::uint32_t(session->summary().tilesOverCapacity));
}
