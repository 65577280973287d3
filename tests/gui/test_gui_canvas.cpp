// The canvases in a real window under Xvfb: keyboard, wheel and mouse interaction, selection
// feeding the tables below them, and frames that render and are timed.
#include "OperationsReport.hpp"
#include "TestReports.hpp"
#include "canvas/SeriesColours.hpp"
#include "core/ReportSession.hpp"
#include "execution/ExecutionCanvas.hpp"
#include "execution/ExecutionModel.hpp"
#include "execution/ExecutionView.hpp"
#include "liveness/LiveVariablesModel.hpp"
#include "liveness/LivenessCanvas.hpp"
#include "liveness/LivenessModel.hpp"
#include "liveness/LivenessView.hpp"
#include "memory/MemoryView.hpp"
#include "memory/TileMemoryCanvas.hpp"
#include "memory/TileMemoryModel.hpp"
#include "memory/TileOrderBox.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QComboBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>
#include <QWheelEvent>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

template <class View> void showAndWait(View& view) {
    view.resize(1000, 700);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy ready(&view, &ReportView::ready);
    REQUIRE((view.isReady() || ready.wait(20000)));
}

/// Pixel position of x-domain value `x` at mid-height of a canvas's plot (as last drawn).
QPoint plotPoint(ChartCanvas& canvas, double x) {
    const QRectF plot = canvas.plotRect();
    REQUIRE(plot.width() > 0);
    const auto& v = canvas.viewport();
    return QPoint(int(plot.left() + (x - v.begin()) / v.span() * plot.width()),
                  int(plot.center().y()));
}

} // namespace

TEST_CASE("Memory canvas zooms and pans from the keyboard and wheel, and selects tiles") {
    auto session = gui::test::openSession(gui::test::smallReport());
    MemoryView view(session);
    showAndWait(view);
    TileMemoryCanvas& canvas = view.canvas();
    REQUIRE(canvas.viewport().extent() == 128);
    canvas.setFocus();

    QTest::keyClick(&canvas, Qt::Key_W);
    REQUIRE(canvas.viewport().span() == Approx(128 * 0.8));
    const double begin = canvas.viewport().begin();
    QTest::keyClick(&canvas, Qt::Key_D);
    REQUIRE(canvas.viewport().begin() > begin);
    QTest::keyClick(&canvas, Qt::Key_Left);
    QTest::keyClick(&canvas, Qt::Key_Left);
    REQUIRE(canvas.viewport().begin() < begin);
    QTest::keyClick(&canvas, Qt::Key_Home);
    REQUIRE(canvas.viewport().isFullyZoomedOut());

    const QPoint centre = plotPoint(canvas, 64);
    QWheelEvent wheel(centre, canvas.mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(&canvas, &wheel);
    REQUIRE(canvas.viewport().span() == Approx(128 * 0.64));
    // The tile under the cursor stays under the cursor.
    REQUIRE(canvas.viewport().toDomain(centre.x() - canvas.plotRect().left(),
                                       canvas.plotRect().width()) == Approx(64).margin(0.5));
    REQUIRE(session->state().tileWindow.has_value());

    // Frames render and are timed (this is what the benchmark reports).
    const auto frames = canvas.framesRendered();
    const QImage frame = canvas.grabFramebuffer(); // renders a frame now
    REQUIRE(canvas.framesRendered() == frames + 1);
    REQUIRE(canvas.lastFramePrepMs() > 0);
    REQUIRE(frame.width() >= canvas.width());

    // Click a tile, shift-click another: the selection and the Details table follow.
    QTest::keyClick(&canvas, Qt::Key_Home); // no repaint in between: the click must still hit
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier, plotPoint(canvas, 10.5));
    REQUIRE(session->state().selectedTiles.toString() == "10");
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::ShiftModifier, plotPoint(canvas, 20.5));
    REQUIRE(session->state().selectedTiles.toString() == "10-20");
    report::ProfileReader reader(gui::test::smallReport().string());
    const auto totals = reader.tileMemoryTotal(true);
    std::uint64_t expected = 0;
    for (int t = 10; t <= 20; ++t)
        expected += totals[std::size_t(t)];
    const QAbstractItemModel* details = view.findChild<QTableView*>()->model();
    const int last = details->rowCount() - 1;
    REQUIRE(details->index(last, details->columnCount() - 1).data(Qt::UserRole).toULongLong() ==
            expected);
}

namespace {

/// Height in pixels of the bar drawn in `colour` at x-domain value `x` of a canvas's frame.
int barHeight(ChartCanvas& canvas, const QImage& frame, double x, QRgb colour) {
    const int px = plotPoint(canvas, x).x();
    int n = 0;
    for (int y = 0; y < frame.height(); ++y)
        n += frame.pixel(px, y) == colour ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("Memory canvas in physical order draws and selects the tiles as they sit on the die") {
    auto session = gui::test::openSession(gui::test::smallReport());
    MemoryView view(session);
    showAndWait(view);
    TileMemoryCanvas& canvas = view.canvas();
    report::ProfileReader reader(gui::test::smallReport().string());
    const auto order = reader.tilePlacement().physicalOrder(64);
    const QRgb total = seriesColour(-1).rgb();
    // Keep the mouse off the plot: a hovered column's tooltip would cover bars.
    QTest::mouseMove(&canvas, QPoint(1, 1));
    const QImage software = canvas.grabFramebuffer();

    auto* items = qobject_cast<QStandardItemModel*>(view.tileOrder().model());
    REQUIRE(items);
    REQUIRE(items->item(1)->isEnabled());
    view.tileOrder().setCurrentIndex(1);
    REQUIRE(session->state().tileOrder == 1);
    REQUIRE(view.model().tileOrder() == TileMemoryModel::TileOrder::Physical);
    const QImage physical = canvas.grabFramebuffer();
    // Position p now shows tile order[p]: its bar is as tall as that tile's bar was.
    int differing = 0;
    for (std::uint32_t p = 0; p < 128; ++p) {
        INFO("position " << p << ", tile " << order[p]);
        const int now = barHeight(canvas, physical, p + 0.5, total); // 0 for unused tiles
        REQUIRE(std::abs(now - barHeight(canvas, software, order[p] + 0.5, total)) <= 1);
        differing += std::abs(now - barHeight(canvas, software, p + 0.5, total)) > 1;
    }
    REQUIRE(differing > 10); // the order really changed what is drawn where

    // Clicks select the tiles at those positions; shift extends along the chart's order.
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier, plotPoint(canvas, 10.5));
    REQUIRE(session->state().selectedTiles == TileSelection::single(order[10]));
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::ShiftModifier, plotPoint(canvas, 13.5));
    REQUIRE(session->state().selectedTiles ==
            TileSelection::of({order[10], order[11], order[12], order[13]}));
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier, plotPoint(canvas, 70.5));
    REQUIRE(session->state().selectedTiles == TileSelection::single(order[70]));

    // A second view of the report opens in the order the user chose.
    MemoryView again(session);
    showAndWait(again);
    REQUIRE(again.model().tileOrder() == TileMemoryModel::TileOrder::Physical);
    REQUIRE(again.tileOrder().currentIndex() == 1);
}

TEST_CASE("Memory view offers no physical order for a report without a tile placement") {
    auto session = gui::test::openSession(gui::test::operationsReport());
    session->state().tileOrder = 1; // as if chosen on another report's view state
    MemoryView view(session);
    showAndWait(view);
    auto* items = qobject_cast<QStandardItemModel*>(view.tileOrder().model());
    REQUIRE(items);
    REQUIRE_FALSE(items->item(1)->isEnabled());
    REQUIRE(items->item(1)->toolTip().contains("no tile placement"));
    REQUIRE(view.tileOrder().currentIndex() == 0);
    REQUIRE(view.model().tileOrder() == TileMemoryModel::TileOrder::Software);
    REQUIRE(session->state().tileOrder == 0);
}

TEST_CASE("Memory canvas stacks categories and highlights the selected tiles") {
    auto session = gui::test::openSession(gui::test::smallReport());
    session->state().memoryBreakdown = int(TileMemoryModel::Breakdown::Category);
    session->state().selectedTiles = TileSelection::range(30, 40);
    MemoryView view(session);
    showAndWait(view);
    const QImage frame = view.canvas().grabFramebuffer();
    // Count the category colours that cover a visible area of the chart.
    int categoriesSeen = 0;
    for (std::int64_t id = 1; id <= 15; ++id) {
        const QRgb c = seriesColour(id).rgb();
        int n = 0;
        for (int y = 0; y < frame.height(); y += 2)
            for (int x = 0; x < frame.width(); x += 2)
                n += frame.pixel(x, y) == c ? 1 : 0;
        categoriesSeen += n > 20 ? 1 : 0;
    }
    REQUIRE(categoriesSeen >= 10);
    REQUIRE(view.model().seriesNames().size() >= 10);
}

TEST_CASE("Liveness canvas: a click lists the variables live at that step") {
    auto session = gui::test::openSession(gui::test::smallReport());
    LivenessView view(session);
    showAndWait(view);
    LivenessCanvas& canvas = view.canvas();
    REQUIRE(canvas.viewport().extent() == 300);
    // Zoom in until one step is several pixels wide, then click step 150.
    canvas.showWindow(140, 160);
    QSignalSpy loaded(&view.variables(), &LiveVariablesModel::stepLoaded);
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier, plotPoint(canvas, 150.5));
    REQUIRE(gui::test::waitFor(loaded));
    REQUIRE(session->state().selectedStep == 150);
    report::ProfileReader reader(gui::test::smallReport().string());
    REQUIRE(view.variables().rowCount() == int(reader.variablesLiveAt(150).size()));

    // A drag pans instead of selecting.
    QTest::mousePress(&canvas, Qt::LeftButton, Qt::NoModifier, plotPoint(canvas, 150));
    QTest::mouseMove(&canvas, plotPoint(canvas, 150) + QPoint(200, 0));
    QTest::mouseRelease(&canvas, Qt::LeftButton, Qt::NoModifier,
                        plotPoint(canvas, 150) + QPoint(200, 0));
    REQUIRE(canvas.viewport().begin() < 140);
    REQUIRE(session->state().selectedStep == 150);
}

TEST_CASE("Execution canvas: hovering and clicking a step selects its program step") {
    auto session = gui::test::openSession(gui::test::smallReport());
    ExecutionView view(session);
    showAndWait(view);
    ExecutionCanvas& canvas = view.canvas();
    report::ProfileReader reader(gui::test::smallReport().string());
    const report::RunRecord run = reader.runs().front();
    REQUIRE(canvas.viewport().extent() == double(run.totalCycles));

    // Zoom onto step 10 of the run so that it spans many pixels, then click its middle.
    const auto spans = reader.runStepSpans(run, 0, run.totalCycles, 20);
    const auto& step = spans[10];
    canvas.showWindow(double(step.startCycle) - double(step.cycles),
                      double(step.startCycle + 2 * step.cycles));
    QSignalSpy window(&view.model(), &ExecutionModel::windowChanged);
    canvas.grabFramebuffer(); // the frame asks for the zoomed window
    while (view.model().window().firstCycle != std::uint64_t(canvas.viewport().begin()))
        REQUIRE(window.wait(20000));
    REQUIRE(view.model().window().lodLevel == -1);
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier,
                      plotPoint(canvas, double(step.startCycle) + double(step.cycles) / 2));
    REQUIRE(session->state().selectedStep == step.stepId);
}
