// The Memory view's tab models (Vertices on a tile selection, report-wide Exchanges and
// Variables), the tile map's layout and hit-testing, and the Insights view's largest exchanges,
// on the hand-written operations report whose figures are known.
#include "OperationsReport.hpp"
#include "TestReports.hpp"
#include "insights/InsightsModel.hpp"
#include "insights/TileAdvice.hpp"
#include "memory/TileComputeSetsModel.hpp"
#include "memory/TileExchangesModel.hpp"
#include "memory/TileMapWidget.hpp"
#include "memory/TileMemoryModel.hpp"
#include "memory/TileVariablesModel.hpp"
#include "memory/TileVerticesModel.hpp"
#include "memory/VariablesGraphWidget.hpp"
#include "tables/ReportTableModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QMouseEvent>
#include <QTest>
#include <catch2/catch.hpp>
#include <map>

using namespace tilescope;
using namespace tilescope::gui;
using F = gui::test::OperationsFigures;

namespace {

void select(TileVerticesModel& model, const TileSelection& tiles) {
    QSignalSpy loaded(&model, &TileVerticesModel::loaded);
    model.setSelection(tiles);
    REQUIRE(gui::test::waitFor(loaded));
}

void load(ReportTableModel& model) {
    QSignalSpy loaded(&model, &ReportTableModel::loadedChanged);
    model.load();
    REQUIRE(gui::test::waitFor(loaded));
}

} // namespace

TEST_CASE("TileVerticesModel counts vertex instances on the selected tiles") {
    auto session = gui::test::openSession(gui::test::operationsReport());
    TileVerticesModel model(session);
    using C = TileVerticesModel::ColumnIndex;

    select(model, {}); // all tiles: the stored counts
    REQUIRE(model.rowCount() == 2);
    REQUIRE(model.value(0, C::Type).toString() == "Matmul"); // most state first
    REQUIRE(model.value(0, C::ComputeSet).toString() == "matmul/cs");
    REQUIRE(model.value(0, C::Count).toULongLong() == 12);
    REQUIRE(model.value(0, C::State).toULongLong() == 12 * F::kMatmulState);
    REQUIRE(model.value(0, C::CodePerTile).toULongLong() == F::kMatmulVertexCode);
    REQUIRE(model.value(1, C::Count).toULongLong() == 8);
    REQUIRE(model.value(1, C::State).toULongLong() == 8 * F::kAddState);

    select(model, TileSelection::range(0, 1));
    REQUIRE(model.rowCount() == 2);
    REQUIRE(model.value(0, C::Count).toULongLong() == 6);
    REQUIRE(model.value(0, C::Tiles).toULongLong() == 2);
    REQUIRE(model.value(1, C::Type).toString() == "Add");
    REQUIRE(model.value(1, C::Count).toULongLong() == 2);

    select(model, *TileSelection::parse("3, 6-7", 8));
    REQUIRE(model.rowCount() == 2);
    REQUIRE(model.value(0, C::Count).toULongLong() == 3);
    REQUIRE(model.value(0, C::Tiles).toULongLong() == 1);
    REQUIRE(model.value(1, C::Count).toULongLong() == 3);

    select(model, TileSelection::range(6, 7)); // no Matmul there: its row is left out
    REQUIRE(model.rowCount() == 1);
    REQUIRE(model.value(0, C::Type).toString() == "Add");
    REQUIRE(model.value(0, C::State).toULongLong() == 2 * F::kAddState);
}

TEST_CASE("Exchanges and Variables tables list the largest first, up to their limit") {
    auto session = gui::test::openSession(gui::test::operationsReport());
    auto loadAll = [&](TileExchangesModel& model) {
        QSignalSpy loaded(&model, &TileExchangesModel::loaded);
        model.setSelection({});
        REQUIRE(gui::test::waitFor(loaded));
    };
    using X = TileExchangesModel;
    TileExchangesModel exchanges(session, 100);
    loadAll(exchanges);
    REQUIRE(exchanges.rowCount() == 2);
    REQUIRE_FALSE(exchanges.limitReached());
    REQUIRE(exchanges.value(0, X::Program).toString() == "matmul/exchange");
    REQUIRE(exchanges.value(0, X::Kind).toString() == "DoExchange");
    REQUIRE(exchanges.value(0, X::Bytes).toULongLong() == F::kExchangeBytes);
    REQUIRE(exchanges.value(0, X::Cycles).toULongLong() == F::kMatmulCycles - 1000);
    REQUIRE(exchanges.value(0, X::Step).toLongLong() == 1);
    REQUIRE(exchanges.value(1, X::Program).toString() == "toHost");
    REQUIRE(exchanges.value(1, X::Bytes).toULongLong() == F::kStreamBytes);
    // This report records no per-tile cycles: which tiles take part is not known.
    CHECK_FALSE(exchanges.value(0, X::Tiles).isValid());
    QSignalSpy loaded(&exchanges, &TileExchangesModel::loaded);
    exchanges.setSelection(TileSelection::single(3));
    REQUIRE(gui::test::waitFor(loaded));
    CHECK(exchanges.rowCount() == 0);

    TileExchangesModel one(session, 1);
    loadAll(one);
    REQUIRE(one.rowCount() == 1);
    REQUIRE(one.limitReached());

    std::unique_ptr<ReportTableModel> variables(newVariablesModel(session, 100, nullptr));
    load(*variables);
    REQUIRE(variables->rowCount() == 3);
    REQUIRE(variables->value(0, 0).toString() == "weights");
    REQUIRE(variables->value(0, 3).toULongLong() == F::kWeightsBytes);
    REQUIRE(variables->value(0, 5).toString() == "yes");
    REQUIRE(variables->value(2, 0).toString() == "out");
    REQUIRE(variables->value(2, 6).toLongLong() == 2);
    REQUIRE(variables->value(2, 7).toLongLong() == 3);
}

TEST_CASE("Insights lists the largest exchanges") {
    for (const auto& path : {gui::test::operationsReport(), gui::test::smallReport()}) {
        auto session = gui::test::openSession(path);
        InsightsModel model(session);
        QSignalSpy loaded(&model, &InsightsModel::loadedChanged);
        model.load();
        REQUIRE(gui::test::waitFor(loaded));
        report::ProfileReader reader(path.string());
        const auto expected = reader.largestExchangeSteps(InsightsModel::kLargestExchanges);
        REQUIRE_FALSE(expected.empty());
        auto& table = model.largestExchanges();
        REQUIRE(table.rowCount() == int(expected.size()));
        for (int r = 0; r < table.rowCount(); ++r) {
            REQUIRE(table.value(r, 2).toULongLong() == expected[std::size_t(r)].step.exchangeBytes);
            REQUIRE(table.value(r, 4).toLongLong() == expected[std::size_t(r)].step.id);
            if (r > 0)
                REQUIRE(table.value(r - 1, 2).toULongLong() >= table.value(r, 2).toULongLong());
        }
    }
}

TEST_CASE("Tile map block layouts") {
    // Without a placement: near-square blocks in software order.
    const auto mk2 = TileMapWidget::layoutFor(16, 1472);
    REQUIRE(mk2.columnsPerIpu == 39);
    REQUIRE(mk2.rowsPerIpu == 38);
    REQUIRE(mk2.ipuColumns == 4);
    REQUIRE(mk2.ipuRows == 4);
    REQUIRE(mk2.columnsPerIpu * mk2.rowsPerIpu >= 1472);
    const auto one = TileMapWidget::layoutFor(1, 8);
    REQUIRE(one.columnsPerIpu == 3);
    REQUIRE(one.rowsPerIpu == 3);
    // With one: the die grid, blocks arranged so the map is near square (Mk2 dies are tall).
    const auto dies = TileMapWidget::dieLayout(16, 23, 64);
    REQUIRE(dies.columnsPerIpu == 23);
    REQUIRE(dies.rowsPerIpu == 64);
    REQUIRE(dies.ipuColumns == 7);
    REQUIRE(dies.ipuRows == 3);
    REQUIRE(TileMapWidget::dieLayout(1, 23, 64).ipuColumns == 1);
    REQUIRE(TileMapWidget::colourFor(0, 100) != TileMapWidget::colourFor(100, 100));
    REQUIRE(TileMapWidget::colourFor(101, 100) == QColor(0xc6, 0x28, 0x28));
}

namespace {

/// Centre of a map cell in widget coordinates.
QPointF cellCentre(const TileMapWidget& map, QPoint cell) {
    const QRectF r = map.mapRect();
    const double s = r.width() / map.layout().widthCells();
    return {r.left() + (cell.x() + 0.5) * s, r.top() + (cell.y() + 0.5) * s};
}

} // namespace

TEST_CASE("Tile map puts each tile in its cell of the die and maps points back to tiles") {
    // The small report records the simulated floor plan: 2 IPUs x 64 tiles, each die one
    // column of 64 rows, the two dies side by side with an empty column between them.
    auto session = gui::test::openSession(gui::test::smallReport());
    TileMemoryModel memory(session);
    QSignalSpy loaded(&memory, &TileMemoryModel::loadedChanged);
    memory.load();
    REQUIRE(gui::test::waitFor(loaded));
    const report::TilePlacement place =
        report::ProfileReader(gui::test::smallReport().string()).tilePlacement();
    REQUIRE(place.columns == 1);
    REQUIRE(place.rows == 64);
    TileMapWidget map(memory);
    map.resize(int(map.layout().widthCells()) * 10, int(map.layout().heightCells()) * 10);
    REQUIRE(map.layout().widthCells() == 3);
    REQUIRE(map.layout().heightCells() == 64);
    for (std::uint32_t tile : {0u, 1u, 2u, 61u, 63u})
        REQUIRE(map.cellOf(tile) == QPoint(int(place.x[tile]), int(place.y[tile])));
    REQUIRE(map.cellOf(64 + 2) == QPoint(2 + int(place.x[2]), int(place.y[2])));
    // Tiles 0 and 1 sit just above the spine, 2 and 3 just below it.
    REQUIRE(map.cellOf(0) == QPoint(0, 31));
    REQUIRE(map.cellOf(2) == QPoint(0, 32));
    for (std::uint32_t tile : {0u, 9u, 63u, 64u, 100u, 127u})
        REQUIRE(map.tileAt(cellCentre(map, map.cellOf(tile))) == tile);
    REQUIRE_FALSE(map.tileAt(cellCentre(map, QPoint(1, 3)))); // the gap between the IPUs

    // Clicks select (shift extends); the widget shows what it is given.
    std::vector<TileSelection> selected;
    QObject::connect(&map, &TileMapWidget::selectionChanged,
                     [&](const TileSelection& tiles) { selected.push_back(tiles); });
    QTest::mouseClick(&map, Qt::LeftButton, {}, cellCentre(map, map.cellOf(100)).toPoint());
    REQUIRE(selected.size() == 1);
    REQUIRE(selected.back() == TileSelection::single(100));
    map.setSelection(TileSelection::single(100));
    QTest::mouseClick(&map, Qt::LeftButton, Qt::ShiftModifier,
                      cellCentre(map, map.cellOf(103)).toPoint());
    REQUIRE(selected.size() == 2);
    REQUIRE(selected.back() == TileSelection::range(100, 103));
    // A selected tile is painted in the highlight colour, others by their memory.
    const QImage shot = map.grab().toImage();
    const QPointF c100 = cellCentre(map, map.cellOf(100)), c5 = cellCentre(map, map.cellOf(5));
    REQUIRE(QColor(shot.pixel(c100.toPoint())) == QColor(0xff, 0xd4, 0x00));
    REQUIRE(QColor(shot.pixel(c5.toPoint())) ==
            TileMapWidget::colourFor(memory.tileTotal(5), memory.bytesPerTile()));
    // QTest keeps the last modifiers as the application's: release Shift for the tests after.
    QTest::mouseClick(&map, Qt::LeftButton, {}, cellCentre(map, map.cellOf(5)).toPoint());
    REQUIRE(selected.back() == TileSelection::single(5));
}

TEST_CASE("Without a tile placement the tile map fills blocks in software order") {
    // A file of the v3 writer: 2 IPUs x 16 tiles, no placement, so 4 x 4 blocks.
    const auto dir = gui::test::scratchDir("tile-map-v3");
    const auto copy = dir / "profile.pop";
    std::filesystem::copy_file(
        std::filesystem::path(TILESCOPE_TEST_DATA) / "format-v3" / "profile.pop", copy);
    auto session = gui::test::openSession(copy);
    TileMemoryModel memory(session);
    QSignalSpy loaded(&memory, &TileMemoryModel::loadedChanged);
    memory.load();
    REQUIRE(gui::test::waitFor(loaded));
    REQUIRE_FALSE(memory.hasPhysicalOrder());
    REQUIRE(memory.placementProblem().contains("no tile placement"));
    TileMapWidget map(memory);
    map.resize(int(map.layout().widthCells()) * 10, int(map.layout().heightCells()) * 10);
    REQUIRE(map.layout().widthCells() == 9);
    REQUIRE(map.layout().heightCells() == 4);
    REQUIRE(map.cellOf(5) == QPoint(1, 1));
    REQUIRE(map.cellOf(16 + 2) == QPoint(5 + 2, 0));
    for (std::uint32_t tile : {0u, 5u, 15u, 16u, 31u})
        REQUIRE(map.tileAt(cellCentre(map, map.cellOf(tile))) == tile);
    REQUIRE_FALSE(map.tileAt(cellCentre(map, QPoint(4, 0))));
}

TEST_CASE("Vertex instances on tile ranges equal the same tiles of the whole per-tile series") {
    report::ProfileReader reader(gui::test::smallReport().string());
    // Two ranges, the second across the boundary between the two IPUs (64 tiles each).
    const std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges = {{3, 10}, {60, 8}};
    std::vector<report::VertexInstancesOnTiles> expected;
    for (const auto& inst : reader.vertexInstances(std::nullopt, true)) {
        std::uint64_t count = 0, holding = 0;
        for (const auto& [first, n] : ranges)
            for (std::uint32_t t = first; t < first + n && t < inst.perTile.size(); ++t) {
                count += inst.perTile[t];
                holding += inst.perTile[t] > 0;
            }
        if (count > 0)
            expected.push_back({inst.computeSetId, {}, inst.vertexTypeId, count, holding});
    }
    const auto got = reader.vertexInstancesOnTiles(ranges);
    REQUIRE(!expected.empty());
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        REQUIRE(got[i].computeSetId == expected[i].computeSetId);
        REQUIRE(got[i].vertexTypeId == expected[i].vertexTypeId);
        REQUIRE(got[i].count == expected[i].count);
        REQUIRE(got[i].holdingTiles == expected[i].holdingTiles);
        REQUIRE(!got[i].computeSet.empty());
    }
    REQUIRE(reader.vertexInstancesOnTiles({}).empty());
}

TEST_CASE("TileComputeSetsModel sums each compute set's vertices and steps on the selection") {
    auto session = gui::test::openSession(gui::test::operationsReport());
    TileComputeSetsModel model(session);
    using C = TileComputeSetsModel::ColumnIndex;
    auto select = [&](const TileSelection& tiles) {
        QSignalSpy loaded(&model, &TileComputeSetsModel::loaded);
        model.setSelection(tiles);
        REQUIRE(gui::test::waitFor(loaded));
    };
    auto row = [&](const QString& name) {
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.value(r, C::Name).toString() == name)
                return r;
        return -1;
    };
    // All tiles: Matmul 3 per tile on tiles 0-3, Add 1 per tile on all 8.
    select({});
    REQUIRE(model.rowCount() == 2);
    const int mm = row("matmul/cs"), add = row("add/cs");
    REQUIRE(mm >= 0);
    REQUIRE(add >= 0);
    CHECK(model.value(mm, C::Vertices).toULongLong() == 12);
    CHECK(model.value(mm, C::State).toULongLong() == 12 * F::kMatmulState);
    CHECK(model.value(mm, C::VertexTypes).toULongLong() == 1);
    CHECK(model.value(mm, C::Steps).toULongLong() == 1);
    CHECK(model.value(mm, C::Cycles).toULongLong() == 1000);
    CHECK(model.value(add, C::Vertices).toULongLong() == 8);
    CHECK(model.value(add, C::Cycles).toULongLong() == F::kAddCycles);
    CHECK_FALSE(model.value(add, C::Tiles).isValid()); // not counted without a selection
    CHECK(mm == 0);                                    // largest state first
    // Tile 6 holds only Add vertices; tiles 2-5 both.
    select(TileSelection::single(6));
    REQUIRE(model.rowCount() == 1);
    CHECK(model.value(0, C::Name).toString() == "add/cs");
    CHECK(model.value(0, C::Vertices).toULongLong() == 1);
    CHECK(model.value(0, C::Tiles).toULongLong() == 1);
    select(TileSelection::range(2, 5));
    REQUIRE(model.rowCount() == 2);
    CHECK(model.value(row("matmul/cs"), C::Vertices).toULongLong() == 6);
    CHECK(model.value(row("matmul/cs"), C::Tiles).toULongLong() == 2);
    CHECK(model.value(row("add/cs"), C::Tiles).toULongLong() == 4);
}

TEST_CASE("TileVariablesModel follows the selection, the graph reads bytes per tile") {
    auto session = gui::test::openSession(gui::test::operationsReport());
    TileVariablesModel model(session, 100);
    auto select = [&](const TileSelection& tiles) {
        QSignalSpy loaded(&model, &TileVariablesModel::loaded);
        model.setSelection(tiles);
        REQUIRE(gui::test::waitFor(loaded));
    };
    const int on = model.selectedBytesColumn();
    select({});
    REQUIRE(model.rowCount() == 3); // weights, acts, out: largest first
    CHECK(model.value(0, 0).toString() == "weights");
    CHECK(model.value(0, on).toULongLong() == F::kWeightsBytes);
    // Tile 6 holds weights (512 B) and out (128 B), not acts.
    select(TileSelection::single(6));
    REQUIRE(model.rowCount() == 2);
    CHECK(model.value(0, 0).toString() == "weights");
    CHECK(model.value(0, on).toULongLong() == 512);
    CHECK(model.value(1, 0).toString() == "out");
    CHECK(model.value(1, on).toULongLong() == 128);
    CHECK(model.value(1, 3).toULongLong() == F::kOutBytes); // the whole variable's bytes too
    CHECK_FALSE(model.limitReached());
    const std::int64_t outId = model.variableIdAt(1);

    report::ProfileReader reader(gui::test::operationsReport().string());
    const auto series = VariableTileSeries::fetch(reader, {outId, model.variableIdAt(0), 999999});
    REQUIRE(series.names == QStringList{"out", "weights"}); // an unknown id is left out
    CHECK(series.tiles == 8);
    CHECK(series.bytes[0] == report::PerTile{0, 0, 0, 0, 0, 0, 128, 128});
    CHECK(series.bytes[1] == report::PerTile(8, 512));
    // Pixel columns keep each column's largest tile: never averaged away.
    CHECK(VariablesGraphWidget::columnPeaks(series.bytes[0], 2) ==
          std::vector<std::uint64_t>{0, 128});
    CHECK(VariablesGraphWidget::columnPeaks(series.bytes[0], 16).size() == 16);
    CHECK(VariablesGraphWidget::columnPeaks(series.bytes[0], 16)[13] == 128);
}

TEST_CASE("Insights: what fills the fullest tile and what to change, with estimated savings") {
    report::ProfileReader reader(gui::test::operationsReport().string());
    const report::PerTile totals = reader.tileMemoryTotal(true);
    const TileAdvice a = TileAdvice::fullestTile(reader);
    REQUIRE(a.tile == 0); // tiles 0-3 hold the vertex code, the first of them
    CHECK(a.bytes == totals[0]);
    CHECK(a.capacity == reader.target().bytesPerTile);
    std::map<QString, std::uint64_t> variables;
    std::uint64_t categories = 0;
    std::map<QString, std::uint64_t> vertices;
    for (const auto& p : a.parts)
        if (p.kind == "variable")
            variables[p.name] = p.bytes;
        else if (p.kind == "vertices")
            vertices[p.name] = p.bytes;
        else if (p.kind == "category")
            categories += p.bytes;
        else
            CHECK(p.kind == "exchange");
    CHECK(categories == totals[0]); // the categories add up to the tile
    // The vertices of tile 0 as the Vertices tab counts them, with their state.
    std::map<QString, std::uint64_t> expected;
    std::map<std::int64_t, report::VertexTypeRecord> types;
    for (const auto& t : reader.vertexTypes())
        types[t.id] = t;
    for (const auto& v : reader.vertexInstancesOnTiles({{0, 1}}))
        expected[QString::fromStdString(types[v.vertexTypeId].name) + " in " +
                 QString::fromStdString(v.computeSet)] = v.count * types[v.vertexTypeId].stateBytes;
    CHECK(!expected.empty());
    CHECK(vertices == expected);
    CHECK(variables == std::map<QString, std::uint64_t>{{"weights", 512}, {"acts", 256}});

    // Tile 0: weights (always live) and acts (live steps 0-1, created by the matmul), floats.
    std::map<QString, std::uint64_t> saving;
    for (const auto& r : a.recommendations)
        saving[r.action] = r.savingBytes;
    CHECK(saving.at("Use HALF for the float tensors") == (512 + 256) / 2);
    CHECK(saving.at("Recompute acts where it is used") == 256);
    // The matmul's 256 B of temporaries are far under 0.3 of the tile's 64 KiB: lowering the
    // option would not change its plan, so it is not recommended.
    CHECK(saving.count("Lower availableMemoryProportion of model/matmul to 0.3") == 0);
    CHECK(saving.at("Halve the batch size") == 256 / 2);
    CHECK(a.recommendations.front().action == "Use HALF for the float tensors"); // largest first
    for (const auto& r : a.recommendations)
        CHECK_FALSE(r.why.isEmpty());

    // Tile 6 holds 128 B of "out" (256 B over 8 tiles: 32 B each if spread evenly).
    const TileAdvice six = TileAdvice::forTile(reader, 6);
    bool spread = false;
    for (const auto& r : six.recommendations)
        if (r.action == "Spread the mapping of out") {
            spread = true;
            CHECK(r.savingBytes == 128 - 32);
            CHECK(r.scope == "tile");
        }
    CHECK(spread);
    CHECK(TileAdvice::forTile(reader, 99).tile == -1); // no such tile: no advice
}
