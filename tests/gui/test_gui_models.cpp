// Memory and Summary models against the reader on a generated report, plus the small value types
// the canvases rely on (tile selections, the viewport, axis ticks).
#include "TestReports.hpp"
#include "canvas/AxisTicks.hpp"
#include "canvas/HorizontalViewport.hpp"
#include "core/Format.hpp"
#include "memory/TileDetailsModel.hpp"
#include "memory/TileMemoryModel.hpp"
#include "summary/CollapsibleSection.hpp"
#include "summary/SummaryModel.hpp"
#include "summary/SummaryView.hpp"
#include "tables/TableExport.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ProfileSummary.hpp"

#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>

using namespace tilescope;
using namespace tilescope::gui;
using gui::test::openSession;
using gui::test::smallReport;

namespace {

std::unique_ptr<TileMemoryModel> loadedMemoryModel(std::shared_ptr<ReportSession> session) {
    auto model = std::make_unique<TileMemoryModel>(std::move(session));
    QSignalSpy loaded(model.get(), &TileMemoryModel::loadedChanged);
    model->load();
    REQUIRE(gui::test::waitFor(loaded));
    REQUIRE(model->isLoaded());
    return model;
}

} // namespace

TEST_CASE("TileMemoryModel per-tile totals equal the reader's, with and without gaps") {
    auto session = openSession(smallReport());
    auto model = loadedMemoryModel(session);
    report::ProfileReader reader(smallReport().string());
    REQUIRE(model->tileCount() == 128);
    REQUIRE(model->tilesPerIpu() == 64);
    REQUIRE(model->bytesPerTile() == reader.target().bytesPerTile);

    for (bool gaps : {true, false}) {
        model->setIncludeGaps(gaps);
        const report::PerTile expected = reader.tileMemoryTotal(gaps);
        REQUIRE(expected.size() == 128);
        for (std::uint32_t t = 0; t < 128; ++t)
            REQUIRE(model->tileTotal(t) == expected[t]);
        REQUIRE(model->maxTileTotal() == *std::max_element(expected.begin(), expected.end()));
    }
    // Gaps exist in this report, so the two settings must differ somewhere.
    model->setIncludeGaps(true);
    const auto withGaps = model->maxTileTotal();
    model->setIncludeGaps(false);
    REQUIRE(model->maxTileTotal() < withGaps);
}

TEST_CASE("TileMemoryModel in physical order charts the tiles as they sit on the die") {
    auto session = openSession(smallReport());
    auto model = loadedMemoryModel(session);
    report::ProfileReader reader(smallReport().string());
    const report::PerTile totals = reader.tileMemoryTotal(true);
    const report::TilePlacement place = reader.tilePlacement();
    REQUIRE(model->hasPhysicalOrder());
    REQUIRE(model->placement().x == place.x);
    model->setBreakdown(TileMemoryModel::Breakdown::Category);
    const auto software = model->columns(0, 128, 128);

    QSignalSpy changed(model.get(), &TileMemoryModel::seriesChanged);
    model->setTileOrder(TileMemoryModel::TileOrder::Physical);
    REQUIRE(changed.count() == 1);
    const std::vector<std::uint32_t> order = place.physicalOrder(64);
    for (std::uint32_t p = 0; p < 128; ++p) {
        REQUIRE(model->tileAt(p) == order[p]);
        REQUIRE(model->positionOf(order[p]) == p);
    }
    // One column per position: position p shows tile order[p], every series included.
    const auto physical = model->columns(0, 128, 128);
    REQUIRE(physical.columns.size() == 128);
    const std::size_t n = std::size_t(physical.seriesCount);
    for (std::uint32_t p = 0; p < 128; ++p) {
        REQUIRE(physical.columns[p].maxTotal == double(totals[order[p]]));
        for (std::size_t s = 0; s < n; ++s)
            REQUIRE(physical.seriesMean[p * n + s] == software.seriesMean[order[p] * n + s]);
    }
    // Zoomed out, a column's figures are those of the tiles at its positions.
    const auto cols = model->columns(0, 128, 7);
    for (const auto& col : cols.columns) {
        std::uint64_t lo = UINT64_MAX, hi = 0;
        double sum = 0;
        for (std::uint32_t p = col.first; p < col.end; ++p) {
            lo = std::min(lo, totals[order[p]]);
            hi = std::max(hi, totals[order[p]]);
            sum += double(totals[order[p]]);
        }
        REQUIRE(col.minTotal == double(lo));
        REQUIRE(col.maxTotal == double(hi));
        REQUIRE(col.meanTotal == Approx(sum / double(col.end - col.first)));
    }
    // Positions to tiles and back for selections and zooming.
    const TileSelection firstColumnTop = model->tilesAt(0, 4);
    REQUIRE(firstColumnTop.count() == 4);
    for (std::uint32_t p = 0; p < 4; ++p)
        REQUIRE(firstColumnTop.contains(order[p]));
    REQUIRE(model->anySelected(TileSelection::single(order[5]), 3, 6));
    REQUIRE_FALSE(model->anySelected(TileSelection::single(order[5]), 6, 128));
    const auto span = model->positionSpan(TileSelection::range(0, 3));
    const std::uint32_t at[] = {model->positionOf(0), model->positionOf(1), model->positionOf(2),
                                model->positionOf(3)};
    REQUIRE(span.first == *std::min_element(std::begin(at), std::end(at)));
    REQUIRE(span.second == *std::max_element(std::begin(at), std::end(at)) + 1);
    // IPU boundaries stay where they were: the first 64 positions are IPU 0's tiles.
    for (std::uint32_t p = 0; p < 128; ++p)
        REQUIRE(model->tileAt(p) / 64 == p / 64);

    model->setTileOrder(TileMemoryModel::TileOrder::Software);
    REQUIRE(model->tileAt(77) == 77);
    REQUIRE(model->columns(0, 128, 128).columns[5].maxTotal == double(totals[5]));
}

TEST_CASE("TileMemoryModel aggregates tiles into pixel columns (min, max, mean)") {
    auto session = openSession(smallReport());
    auto model = loadedMemoryModel(session);
    report::ProfileReader reader(smallReport().string());
    const report::PerTile totals = reader.tileMemoryTotal(true);

    SECTION("zoomed out: 128 tiles into 10 columns") {
        const auto cols = model->columns(0, 128, 10);
        REQUIRE(cols.columns.size() == 10);
        REQUIRE(cols.columns.front().first == 0);
        REQUIRE(cols.columns.back().end == 128);
        double overallMax = 0;
        for (std::size_t c = 0; c < cols.columns.size(); ++c) {
            const auto& col = cols.columns[c];
            if (c > 0)
                REQUIRE(col.first == cols.columns[c - 1].end); // no tile lost
            const auto b = totals.begin() + col.first, e = totals.begin() + col.end;
            REQUIRE(col.minTotal == double(*std::min_element(b, e)));
            REQUIRE(col.maxTotal == double(*std::max_element(b, e)));
            const double mean =
                double(std::accumulate(b, e, std::uint64_t(0))) / double(col.end - col.first);
            REQUIRE(col.meanTotal == Approx(mean));
            overallMax = std::max(overallMax, col.maxTotal);
        }
        REQUIRE(cols.maxTotal == overallMax);
    }
    SECTION("zoomed in: one column per tile") {
        const auto cols = model->columns(60, 70, 800);
        REQUIRE(cols.columns.size() == 10);
        for (std::uint32_t i = 0; i < 10; ++i) {
            REQUIRE(cols.columns[i].first == 60 + i);
            REQUIRE(cols.columns[i].minTotal == double(totals[60 + i]));
            REQUIRE(cols.columns[i].maxTotal == double(totals[60 + i]));
        }
    }
    SECTION("stacked series add up to the column mean in every breakdown") {
        for (auto b : {TileMemoryModel::Breakdown::Category, TileMemoryModel::Breakdown::Region,
                       TileMemoryModel::Breakdown::Liveness}) {
            model->setBreakdown(b);
            const auto cols = model->columns(0, 128, 16);
            REQUIRE(cols.seriesCount == int(model->seriesNames().size()));
            REQUIRE(cols.seriesCount > 1);
            for (std::size_t c = 0; c < cols.columns.size(); ++c) {
                double sum = 0;
                for (int s = 0; s < cols.seriesCount; ++s)
                    sum += cols.seriesMean[c * std::size_t(cols.seriesCount) + std::size_t(s)];
                REQUIRE(sum == Approx(cols.columns[c].meanTotal));
            }
        }
    }
    SECTION("out-of-range windows are empty, not out of bounds") {
        REQUIRE(model->columns(128, 200, 10).columns.empty());
        REQUIRE(model->columns(120, 500, 100).columns.size() == 8);
    }
}

TEST_CASE("TileMemoryModel breakdowns match the report's categories and regions") {
    auto session = openSession(smallReport());
    auto model = loadedMemoryModel(session);
    const report::ProfileSummary& summary = session->summary();

    model->setBreakdown(TileMemoryModel::Breakdown::Category);
    // Every non-empty category of the summary is one series (gaps included).
    REQUIRE(model->seriesNames().size() == qsizetype(summary.categories.size()));
    for (const auto& c : summary.categories) {
        const QString label = QString::fromStdString(c.label);
        const int s = int(model->seriesNames().indexOf(label));
        REQUIRE(s >= 0);
        std::uint64_t bytes = 0;
        for (std::uint32_t t = 0; t < model->tileCount(); ++t)
            bytes += model->seriesValue(s, t);
        REQUIRE(bytes == c.bytes);
    }

    model->setBreakdown(TileMemoryModel::Breakdown::Liveness);
    REQUIRE(model->seriesNames() == QStringList({"Always-live", "Not-always-live (peak)", "Gaps"}));
    std::uint64_t alwaysLive = 0;
    for (std::uint32_t t = 0; t < model->tileCount(); ++t)
        alwaysLive += model->seriesValue(0, t);
    REQUIRE(alwaysLive == summary.alwaysLiveBytes);
    model->setIncludeGaps(false);
    REQUIRE(model->seriesNames().size() == 2);

    model->setBreakdown(TileMemoryModel::Breakdown::Region);
    model->setIncludeGaps(true);
    REQUIRE(model->seriesNames().size() == qsizetype(summary.regions.size()));
    for (std::size_t r = 0; r < summary.regions.size(); ++r) {
        std::uint64_t bytes = 0;
        for (std::uint32_t t = 0; t < model->tileCount(); ++t)
            bytes += model->seriesValue(int(r), t);
        REQUIRE(bytes == summary.regions[r].bytesIncludingGaps);
    }
}

TEST_CASE("TileDetailsModel sums categories over the selected tiles") {
    auto session = openSession(smallReport());
    auto model = loadedMemoryModel(session);
    report::ProfileReader reader(smallReport().string());
    const report::PerTile totals = reader.tileMemoryTotal(true);
    TileDetailsModel details(*model);

    auto totalRow = [&] {
        REQUIRE(details.rowCount() > 1);
        const int last = details.rowCount() - 1;
        REQUIRE(details.value(last, 0).toString() == "Total");
        return details.value(last, details.columnCount() - 1).toULongLong();
    };
    details.setSelection({});
    REQUIRE(details.tilesCovered() == 128);
    REQUIRE(totalRow() == session->summary().totalBytesIncludingGaps);

    const auto selection = TileSelection::parse("3-5, 70", 128);
    REQUIRE(selection);
    details.setSelection(*selection);
    REQUIRE(details.tilesCovered() == 4);
    REQUIRE(totalRow() == totals[3] + totals[4] + totals[5] + totals[70]);
    // One column per region between the group and the total.
    REQUIRE(details.columnCount() == 2 + int(session->target().regions.size()) + 1);
}

TEST_CASE("SummaryModel shows the figures of summarize()") {
    auto session = openSession(smallReport());
    const report::ProfileSummary& s = session->summary();
    SummaryModel model(session);

    REQUIRE(model.categories().rowCount() == int(s.categories.size()) + 2);
    for (std::size_t i = 0; i < s.categories.size(); ++i) {
        REQUIRE(model.categories().value(int(i), 0).toString().toStdString() ==
                s.categories[i].label);
        REQUIRE(model.categories().value(int(i), 1).toULongLong() == s.categories[i].bytes);
    }
    REQUIRE(model.regions().rowCount() == int(s.regions.size()) + 1);
    REQUIRE(model.regions().value(int(s.regions.size()), 2).toULongLong() ==
            s.totalBytesIncludingGaps);
    REQUIRE(model.liveness().value(0, 1).toULongLong() == s.alwaysLiveBytes);
    REQUIRE(model.liveness().value(1, 1).toULongLong() == s.peakNotAlwaysLiveBytes);
    REQUIRE(model.runs().rowCount() == int(s.runs.size()));
    REQUIRE(model.runs().value(0, 3).toULongLong() == s.runs.front().cycles);
    REQUIRE(model.engineOptions().rowCount() == int(session->engineOptions().size()));
    REQUIRE(model.outOfMemoryMessage().isEmpty());
    // Display text is formatted, the sort role keeps the number.
    const QModelIndex bytes = model.categories().index(0, 1);
    REQUIRE(bytes.data(Qt::DisplayRole).toString().endsWith("iB"));
    REQUIRE(bytes.data(Qt::UserRole).toULongLong() == s.categories[0].bytes);
}

namespace {
/// The value of the row whose first column is `property`.
QVariant rowValue(const RecordTableModel& table, const QString& property) {
    for (int r = 0; r < table.rowCount(); ++r)
        if (table.value(r, 0).toString() == property)
            return table.value(r, 1);
    FAIL("no row " << property.toStdString());
    return {};
}
} // namespace

TEST_CASE("SummaryModel shows versions, replicas, capacity per tile, IPU and replica") {
    auto session = openSession(smallReport());
    const report::ProfileSummary& s = session->summary();
    report::ProfileReader reader(smallReport().string());
    SummaryModel model(session);
    const auto& t = s.target;
    REQUIRE(t.numIpus == 2);
    CHECK(rowValue(model.target(), "Replicas").toUInt() == t.replicas);
    CHECK(rowValue(model.target(), "IPUs per replica").toUInt() == t.numIpus);
    CHECK(rowValue(model.target(), "IPUs").toUInt() == t.numIpus * t.replicas);
    CHECK(rowValue(model.versions(), "TileScope that wrote the report").toString().toStdString() ==
          s.toolVersion);
    CHECK(rowValue(model.versions(), "Report format").toString() ==
          QStringLiteral("profile v%1").arg(reader.file().formatVersion()));
    const std::string poplar = reader.file().metadataValue("poplar_version");
    CHECK(rowValue(model.versions(), "Poplar-compatible version").toString().toStdString() ==
          (poplar.empty() ? "not recorded" : poplar));
    const auto& cap = model.capacity();
    REQUIRE(cap.rowCount() == 4);
    CHECK(cap.value(0, 1).toULongLong() == t.bytesPerTile);
    CHECK(cap.value(1, 1).toULongLong() == t.bytesPerTile * t.tilesPerIpu);
    // The report's IPUs are one replica's; every replica has as many.
    CHECK(cap.value(2, 1).toULongLong() == t.bytesPerTile * t.tilesPerIpu * t.numIpus);
    CHECK(cap.value(2, 1).toULongLong() == s.totalCapacityBytes);
    CHECK(cap.value(3, 1).toULongLong() == t.bytesPerTile * t.tilesPerIpu * t.numIpus * t.replicas);
    CHECK(cap.value(0, 2).toULongLong() == s.maxTileBytesIncludingGaps);
    CHECK(cap.value(2, 2).toULongLong() == s.totalBytesIncludingGaps);
    CHECK(cap.value(3, 2).toULongLong() == s.totalBytesIncludingGaps * t.replicas);
    CHECK(rowValue(model.instrumentation(), "Instrumentation level")
              .toString()
              .startsWith("cycle estimates per tile"));
}

TEST_CASE("Summary sections fold and open folded the next time") {
    auto session = openSession(smallReport());
    QSettings().remove(CollapsibleSection::settingsKey("versions"));
    {
        SummaryView view(session);
        REQUIRE(view.sections().size() == 9);
        CollapsibleSection* versions = nullptr;
        for (auto* s : view.sections())
            if (s->findChild<QToolButton*>()->text() == "Versions")
                versions = s;
        REQUIRE(versions);
        REQUIRE(versions->isExpanded());
        versions->setExpanded(false);
    }
    SummaryView again(session);
    int folded = 0;
    for (auto* s : again.sections())
        folded += s->isExpanded() ? 0 : 1;
    CHECK(folded == 1);
    QSettings().remove(CollapsibleSection::settingsKey("versions"));
}

TEST_CASE("SummaryModel raises the out-of-memory banner for a report that did not fit") {
    auto session = openSession(gui::test::oomReport());
    REQUIRE(session->summary().tilesOverCapacity > 0);
    SummaryModel model(session);
    REQUIRE(model.outOfMemoryMessage().contains(
        QString::number(session->summary().tilesOverCapacity) + " of 32 tiles"));
}

TEST_CASE("TileSelection parses lists and ranges and stays canonical") {
    QString error;
    auto s = TileSelection::parse(" 10-20, 3,15-25 ,100-", 128, &error);
    REQUIRE(s);
    REQUIRE(s->toString() == "3, 10-25, 100-127");
    REQUIRE(s->count() == 1 + 16 + 28);
    REQUIRE(s->contains(3));
    REQUIRE_FALSE(s->contains(4));
    REQUIRE(s->intersects(26, 99) == false);
    REQUIRE(s->intersects(26, 100));
    s->toggle(15);
    REQUIRE(s->toString() == "3, 10-14, 16-25, 100-127");
    s->add({4, 9});
    REQUIRE(s->toString() == "3-14, 16-25, 100-127");

    REQUIRE_FALSE(TileSelection::parse("128", 128, &error));
    REQUIRE(error.contains("128"));
    REQUIRE_FALSE(TileSelection::parse("20-10", 128, &error));
    REQUIRE_FALSE(TileSelection::parse("x", 128, &error));
    REQUIRE_FALSE(TileSelection::parse(" , ", 128, &error));
}

TEST_CASE("HorizontalViewport zooms around the anchor and stays in the domain") {
    HorizontalViewport v;
    v.setExtent(1000, 1);
    REQUIRE(v.begin() == 0);
    REQUIRE(v.end() == 1000);
    v.zoom(0.5, 250); // the anchor keeps its relative position
    REQUIRE(v.span() == Approx(500));
    REQUIRE(v.begin() == Approx(125));
    v.pan(-1.0);
    REQUIRE(v.begin() == 0); // clamped at the left edge
    REQUIRE(v.span() == Approx(500));
    v.zoom(1e-9, 10);
    REQUIRE(v.span() == Approx(1)); // never narrower than the minimum span
    v.zoom(1e9, 10);
    REQUIRE(v.isFullyZoomedOut());
    v.setWindow(900, 1200);
    REQUIRE(v.end() == 1000);
    REQUIRE(v.span() == Approx(300));
    REQUIRE(v.toDomain(v.toPixel(950, 640), 640) == Approx(950));
}

TEST_CASE("niceTicks gives round steps inside the range") {
    REQUIRE(niceTicks(0, 100, 5) == std::vector<double>{0, 20, 40, 60, 80, 100});
    REQUIRE(niceTicks(0, 650, 7) == std::vector<double>{0, 100, 200, 300, 400, 500, 600});
    const auto t = niceTicks(3, 7, 100, true);
    REQUIRE(t == std::vector<double>{3, 4, 5, 6, 7});
    REQUIRE(niceTicks(5, 5, 4).empty());
}

TEST_CASE("Table CSV export keeps the view's filter and sort and quotes fields") {
    RecordTableModel model(
        {{"Name", {}, false},
         {"Bytes", [](const QVariant& v) { return formatBytes(v.toDouble()); }, true}});
    model.setRows({{QString("plain"), QVariant::fromValue<qulonglong>(2048)},
                   {QString("with, comma"), QVariant::fromValue<qulonglong>(10)},
                   {QString("say \"hi\""), QVariant::fromValue<qulonglong>(300000)},
                   {QString("hidden"), QVariant::fromValue<qulonglong>(1)}});
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(Qt::UserRole);
    proxy.setFilterFixedString("a"); // keeps plain, "with, comma" and say "hi"
    proxy.sort(1, Qt::DescendingOrder);
    REQUIRE(tableToCsv(proxy) == "Name,Bytes\r\n\"say \"\"hi\"\"\",300000\r\nplain,2048\r\n"
                                 "\"with, comma\",10\r\n");
    REQUIRE(tableToCsv(proxy, false).contains("plain,2.00 KiB\r\n"));

    QTableView view;
    view.setModel(&proxy);
    view.selectRow(1);
    REQUIRE(selectionToTsv(view) == "Name\tBytes\nplain\t2.00 KiB\n");
}
