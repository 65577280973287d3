// The Memory view's tabs in a real window under Xvfb (the view holds the OpenGL canvas): tabs
// load when first shown, the tile map's clicks select tiles for the Vertices tab, and a selection
// made in the Operations view shows when the Memory view is shown again.
#include "OperationsReport.hpp"
#include "TestReports.hpp"
#include "core/ReportSession.hpp"
#include "memory/MemoryView.hpp"
#include "memory/TileComputeSetsModel.hpp"
#include "memory/TileExchangesModel.hpp"
#include "memory/TileMapWidget.hpp"
#include "memory/TileVariablesModel.hpp"
#include "memory/TileVerticesModel.hpp"
#include "memory/VariablesGraphWidget.hpp"
#include "operations/OperationsView.hpp"
#include "tables/ReportTableModel.hpp"

#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;

TEST_CASE("Memory view tabs load on demand and follow the tile map's selection") {
    auto session = gui::test::openSession(gui::test::operationsReport());
    MemoryView view(session);
    view.resize(1000, 700);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy ready(&view, &ReportView::ready);
    REQUIRE((view.isReady() || ready.wait(20000)));

    REQUIRE(view.exchanges().rowCount() == 0); // nothing read until the tab is shown
    QSignalSpy exchanges(&view.exchanges(), &TileExchangesModel::loaded);
    view.tabs().setCurrentIndex(3);
    REQUIRE(gui::test::waitFor(exchanges));
    REQUIRE(view.exchanges().rowCount() == 2);

    QSignalSpy variables(&view.variables(), &TileVariablesModel::loaded);
    QSignalSpy graphed(&view, &MemoryView::variablesGraphed);
    view.tabs().setCurrentIndex(4);
    REQUIRE(gui::test::waitFor(variables));
    REQUIRE(view.variables().rowCount() == 3);
    // The graph starts on the largest variables.
    REQUIRE(gui::test::waitFor(graphed));
    CHECK(view.variablesGraph().series().names.size() == 3);

    // Click tile 6 on the map: the selection is the session's, and Vertices follows it.
    view.tabs().setCurrentIndex(6);
    TileMapWidget& map = view.tileMap();
    QTest::qWait(50);
    const QRectF r = map.mapRect();
    const double s = r.width() / map.layout().widthCells();
    const QPoint cell = map.cellOf(6);
    QTest::mouseClick(
        &map, Qt::LeftButton, {},
        QPointF(r.left() + (cell.x() + 0.5) * s, r.top() + (cell.y() + 0.5) * s).toPoint());
    REQUIRE(session->state().selectedTiles == TileSelection::single(6));
    REQUIRE(map.selection() == TileSelection::single(6));

    QSignalSpy vertices(&view.vertices(), &TileVerticesModel::loaded);
    view.tabs().setCurrentIndex(1);
    REQUIRE(gui::test::waitFor(vertices));
    REQUIRE(view.vertices().selection() == TileSelection::single(6));
    REQUIRE(view.vertices().rowCount() == 1); // only the Add vertices sit on tile 6
    REQUIRE(view.vertices().value(0, TileVerticesModel::Count).toULongLong() == 1);
    // Compute sets and variables follow the selection too.
    QSignalSpy computeSets(&view.computeSets(), &TileComputeSetsModel::loaded);
    view.tabs().setCurrentIndex(2);
    REQUIRE(gui::test::waitFor(computeSets));
    REQUIRE(view.computeSets().rowCount() == 1);
    exchanges.clear();
    view.tabs().setCurrentIndex(3);
    REQUIRE(gui::test::waitFor(exchanges));
    CHECK(view.exchanges().selection() == TileSelection::single(6));
    CHECK(view.exchanges().rowCount() == 0); // this report keeps no per-tile exchange cycles
    variables.clear();
    view.tabs().setCurrentIndex(4);
    REQUIRE(gui::test::waitFor(variables));
    REQUIRE(view.variables().rowCount() == 2); // weights and out hold bytes on tile 6
    // Rows picked in the table are what the graph shows, remembered in the view state.
    auto* table = view.tabs().widget(4)->findChild<QTableView*>();
    REQUIRE(table);
    graphed.clear();
    table->selectRow(1);
    REQUIRE(gui::test::waitFor(graphed));
    CHECK(view.variablesGraph().series().names.size() == 1);
    CHECK(session->state().graphedVariables.size() == 1);

    // A variable picked in the Operations view selects its tiles here when shown again.
    view.tabs().setCurrentIndex(1);
    vertices.clear();
    if (view.vertices().isLoading())
        REQUIRE(gui::test::waitFor(vertices));
    view.hide();
    OperationsView ops(session);
    QSignalSpy opsReady(&ops, &ReportView::ready);
    REQUIRE((ops.isReady() || opsReady.wait(20000)));
    QTableView& vars = ops.variablesTable();
    for (int row = 0; row < vars.model()->rowCount(); ++row)
        if (vars.model()->index(row, 0).data().toString() == "acts")
            vars.setCurrentIndex(vars.model()->index(row, 0));
    REQUIRE(session->state().selectedTiles == TileSelection::range(0, 3));
    vertices.clear();
    view.show();
    REQUIRE(map.selection() == TileSelection::range(0, 3));
    REQUIRE(gui::test::waitFor(vertices));
    REQUIRE(view.vertices().value(0, TileVerticesModel::Count).toULongLong() == 12);
}
