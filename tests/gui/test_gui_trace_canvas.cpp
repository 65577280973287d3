// The Execution Trace's flame and BSP modes and the Liveness view's per-IPU curves and two-step
// comparison, drawn in real windows under Xvfb: what the frame shows and what clicks select.
#include "TestReports.hpp"
#include "canvas/SeriesColours.hpp"
#include "core/ReportSession.hpp"
#include "execution/ExecutionCanvas.hpp"
#include "execution/ExecutionModel.hpp"
#include "execution/ExecutionView.hpp"
#include "liveness/LivenessCanvas.hpp"
#include "liveness/LivenessModel.hpp"
#include "liveness/LivenessStepDiffModel.hpp"
#include "liveness/LivenessView.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

template <class View> void showReady(View& view) {
    view.resize(1000, 700);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    QSignalSpy ready(&view, &ReportView::ready);
    REQUIRE((view.isReady() || ready.wait(20000)));
}

/// Pixels of `frame` within `tolerance` of `c` on every channel.
int countNear(const QImage& frame, QColor c, int tolerance) {
    int n = 0;
    for (int y = 0; y < frame.height(); ++y)
        for (int x = 0; x < frame.width(); ++x) {
            const QColor p = frame.pixelColor(x, y);
            n += std::abs(p.red() - c.red()) <= tolerance &&
                         std::abs(p.green() - c.green()) <= tolerance &&
                         std::abs(p.blue() - c.blue()) <= tolerance
                     ? 1
                     : 0;
        }
    return n;
}

/// `c` drawn at `alpha` over `base`.
QColor over(QColor c, double alpha, QColor base) {
    return QColor(int(c.red() * alpha + base.red() * (1 - alpha) + 0.5),
                  int(c.green() * alpha + base.green() * (1 - alpha) + 0.5),
                  int(c.blue() * alpha + base.blue() * (1 - alpha) + 0.5));
}

bool waitUntil(const std::function<bool()>& done, int ms = 20000) {
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms)
            return false;
        QTest::qWait(10);
    }
    return true;
}

} // namespace

TEST_CASE("Execution Trace flame mode draws the program tree's rows, root on top") {
    auto session = gui::test::openSession(gui::test::smallReport());
    report::ProfileReader reader(gui::test::smallReport().string());
    ExecutionView view(session);
    showReady(view);
    view.modeBox().setCurrentIndex(ExecutionModel::Flame);
    ExecutionCanvas& canvas = view.canvas();
    canvas.update();
    // The view opens on the flame: wait for the window of the whole run with every program's
    // path known (a frame painted before the run's extent was known asks for a shorter one, and
    // the first windows leave out the programs whose paths are still being read).
    const std::uint64_t runCycles = reader.runs().front().totalCycles;
    REQUIRE(waitUntil([&] {
        canvas.grabFramebuffer();
        return view.model().window().mode == ExecutionModel::Flame &&
               !view.model().window().flame.rows.empty() &&
               view.model().window().flame.missing.empty() && // every program's path resolved
               view.model().window().endCycle >= runCycles;
    }));
    const QImage frame = canvas.grabFramebuffer();
    const auto& root = view.model().window().flame.rows.front();
    REQUIRE(!root.empty());
    // The root's bar fills the top row across the run, in its program's colour.
    const QRectF plot = canvas.plotRect();
    const QColor expected = over(seriesColour(1 + root.front().programId % 15), 0.85,
                                 canvas.palette().color(QPalette::Base));
    const QColor at = frame.pixelColor(int(plot.left() + plot.width() * 0.9), int(plot.top() + 4));
    INFO("pixel " << at.name().toStdString() << " expected " << expected.name().toStdString());
    REQUIRE(std::abs(at.red() - expected.red()) <= 6);
    REQUIRE(std::abs(at.green() - expected.green()) <= 6);
    REQUIRE(std::abs(at.blue() - expected.blue()) <= 6);
    // The summary names the run's figures.
    REQUIRE(view.summaryText().contains(QStringLiteral("parallel efficiency")));
}

TEST_CASE("Execution Trace BSP mode shows each tile's work and selects the clicked step") {
    auto session = gui::test::openSession(gui::test::smallReport());
    report::ProfileReader reader(gui::test::smallReport().string());
    const report::RunRecord run = reader.runs().front();
    const auto steps = reader.steps(0, reader.counts().steps);
    const auto all = reader.runSteps(run, 0, std::int64_t(run.numSteps), true);
    // A compute step and the first tile working in it: zoom onto it, that tile on the top row.
    std::size_t pick = 0;
    int tile = -1;
    for (std::size_t i = 20; i < all.size() && tile < 0; ++i)
        if (steps[std::size_t(all[i].stepId)].phase == "compute")
            for (std::size_t t = 0; t < all[i].perTile.size() && tile < 0; ++t)
                if (all[i].perTile[t] > 0) {
                    pick = i;
                    tile = int(t);
                }
    REQUIRE(tile >= 0);
    ExecutionView view(session);
    showReady(view);
    view.modeBox().setCurrentIndex(ExecutionModel::Bsp);
    auto spins = view.findChildren<QSpinBox*>();
    REQUIRE(spins.size() == 2);
    spins[0]->setValue(tile);
    spins[1]->setValue(8);
    REQUIRE(view.model().tileCount() == 8);
    ExecutionCanvas& canvas = view.canvas();
    const auto& s = all[pick];
    canvas.showWindow(double(s.startCycle), double(s.startCycle + s.cycles));
    REQUIRE(waitUntil([&] {
        canvas.grabFramebuffer();
        const auto& w = view.model().window();
        return w.mode == ExecutionModel::Bsp && !w.bsp.steps.empty() &&
               w.firstCycle == s.startCycle;
    }));
    const QImage frame = canvas.grabFramebuffer();
    const QRectF plot = canvas.plotRect();
    const double rowH = plot.height() / 8;
    // The tile works from the step's start for its own cycles: compute colour there.
    const double busyFraction = double(s.perTile[std::size_t(tile)]) / double(s.cycles);
    const QColor atWork = frame.pixelColor(int(plot.left() + plot.width() * busyFraction * 0.5),
                                           int(plot.top() + rowH / 2));
    const QColor compute = ExecutionCanvas::phaseColour(ExecutionModel::Compute);
    INFO("pixel " << atWork.name().toStdString());
    REQUIRE(std::abs(atWork.red() - compute.red()) <= 3);
    REQUIRE(std::abs(atWork.blue() - compute.blue()) <= 3);
    REQUIRE(countNear(frame, compute, 3) > 50);

    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier,
                      QPoint(int(plot.center().x()), int(plot.center().y())));
    REQUIRE(session->state().selectedStep == s.stepId);
}

TEST_CASE("Execution Trace per-IPU rows fill each IPU's own cycles, the step filter dims") {
    auto session = gui::test::openSession(gui::test::smallReport());
    report::ProfileReader reader(gui::test::smallReport().string());
    const report::RunRecord run = reader.runs().front();
    const auto steps = reader.steps(0, reader.counts().steps);
    const auto all = reader.runSteps(run, 0, std::int64_t(run.numSteps));
    // A step that keeps IPU 1 idle while IPU 0 works.
    std::size_t pick = all.size();
    for (std::size_t i = 0; i < all.size() && pick == all.size(); ++i)
        if (all[i].perIpu.size() == 2 && all[i].perIpu[0] == all[i].cycles &&
            all[i].perIpu[1] == 0 && all[i].cycles > 100)
            pick = i;
    REQUIRE(pick < all.size());
    const auto& s = all[pick];
    const int phase = ExecutionModel::phaseFromName(steps[std::size_t(s.stepId)].phase);
    ExecutionView view(session);
    showReady(view);
    view.modeBox().setCurrentIndex(ExecutionModel::PerIpu);
    ExecutionCanvas& canvas = view.canvas();
    canvas.showWindow(double(s.startCycle), double(s.startCycle + s.cycles));
    REQUIRE(waitUntil([&] {
        canvas.grabFramebuffer();
        const auto& w = view.model().window();
        return w.mode == ExecutionModel::PerIpu && !w.ipu.steps.empty() &&
               w.firstCycle == s.startCycle;
    }));
    const QRectF plot = canvas.plotRect();
    const QPoint ipu0(int(plot.center().x()), int(plot.top() + plot.height() / 4));
    const QPoint ipu1(int(plot.center().x()), int(plot.top() + plot.height() * 3 / 4));
    auto near = [](QColor a, QColor b) {
        return std::abs(a.red() - b.red()) <= 3 && std::abs(a.green() - b.green()) <= 3 &&
               std::abs(a.blue() - b.blue()) <= 3;
    };
    const QColor colour = ExecutionCanvas::phaseColour(phase);
    QImage frame = canvas.grabFramebuffer();
    INFO("IPU 0 " << frame.pixelColor(ipu0).name().toStdString() << ", IPU 1 "
                  << frame.pixelColor(ipu1).name().toStdString());
    REQUIRE(near(frame.pixelColor(ipu0), colour));       // busy for the whole step
    REQUIRE_FALSE(near(frame.pixelColor(ipu1), colour)); // idle: waiting colour only

    // A filter the step does not match dims it; the figures line appears.
    QSignalSpy filtered(&view.model(), &ExecutionModel::filterChanged);
    view.filterEdit().setText(QStringLiteral("no program is called this"));
    REQUIRE(filtered.wait(20000));
    REQUIRE(view.model().stepFilter() != nullptr);
    REQUIRE(view.filterText().contains(QStringLiteral("0 executed steps")));
    frame = canvas.grabFramebuffer();
    REQUIRE_FALSE(near(frame.pixelColor(ipu0), colour));
    // Matching it by its phase alone brings the colour back.
    filtered.clear();
    view.filterEdit().clear();
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        view.phaseBox(p).setChecked(p == phase);
    REQUIRE(waitUntil(
        [&] { return view.model().stepFilter() && view.model().stepFilter()->matches(s.stepId); }));
    frame = canvas.grabFramebuffer();
    REQUIRE(near(frame.pixelColor(ipu0), colour));
}

TEST_CASE("Execution Trace per-IPU rows zoomed out draw each IPU's busy share per column") {
    auto session = gui::test::openSession(gui::test::perIpuReport());
    ExecutionView view(session);
    showReady(view);
    view.modeBox().setCurrentIndex(ExecutionModel::PerIpu);
    ExecutionCanvas& canvas = view.canvas();
    const report::RunRecord run = *view.model().run();
    canvas.showWindow(0, double(run.totalCycles));
    REQUIRE(waitUntil([&] {
        canvas.grabFramebuffer();
        const auto& w = view.model().window();
        return w.mode == ExecutionModel::PerIpu && w.ipu.lodLevel >= 0 && w.firstCycle == 0 &&
               w.endCycle == run.totalCycles;
    }));
    const IpuRows& rows = view.model().window().ipu;
    REQUIRE(rows.ipus == 4);
    REQUIRE(rows.recorded);
    const QRectF plot = canvas.plotRect();
    REQUIRE(rows.columns.size() == std::size_t(std::max(1, int(plot.width()))));
    // Each row's busy-coloured area is its columns' busy shares times the bar height (columns
    // are one pixel wide here), within rasterisation slack.
    const QImage frame = canvas.grabFramebuffer();
    const QColor busy = ExecutionCanvas::phaseColour(ExecutionModel::Compute);
    const double rowH = plot.height() / 4;
    std::vector<double> drawn(4, 0), expected(4, 0);
    for (std::uint32_t i = 0; i < 4; ++i) {
        const QRect band(int(plot.left()), int(plot.top() + i * rowH), int(plot.width()),
                         int(rowH));
        drawn[i] = countNear(frame.copy(band), busy, 3);
        for (std::size_t c = 0; c < rows.columns.size(); ++c)
            expected[i] += rows.busyShare(c, i) * (rowH - 2);
        INFO("IPU " << i << ": " << drawn[i] << " busy pixels, expected " << expected[i]);
        REQUIRE(expected[i] > 100);
        CHECK(drawn[i] == Approx(expected[i]).epsilon(0.05).margin(2 * plot.width()));
    }
    // The IPUs' loads differ (the generator's layers cover different tile ranges): the frame
    // ranks them as their figures do.
    const auto busiest = std::max_element(expected.begin(), expected.end()) - expected.begin();
    const auto idlest = std::min_element(expected.begin(), expected.end()) - expected.begin();
    REQUIRE(expected[std::size_t(busiest)] > expected[std::size_t(idlest)] + 4 * plot.width());
    CHECK(drawn[std::size_t(busiest)] > drawn[std::size_t(idlest)]);
}

TEST_CASE("Liveness per IPU draws one curve per IPU, shift-click compares two steps") {
    auto session = gui::test::openSession(gui::test::smallReport());
    LivenessView view(session);
    showReady(view);
    QComboBox* grouping = view.findChild<QComboBox*>();
    REQUIRE(grouping != nullptr);
    QSignalSpy groups(&view.model(), &LivenessModel::groupsChanged);
    grouping->setCurrentIndex(LivenessModel::PerIpu);
    REQUIRE(waitUntil([&] { return view.model().groupSeries() != nullptr; }));
    LivenessCanvas& canvas = view.canvas();
    const QImage frame = canvas.grabFramebuffer();
    // Both IPUs' colours appear (curves and legend swatches).
    REQUIRE(countNear(frame, seriesColour(1), 8) > 20);
    REQUIRE(countNear(frame, seriesColour(2), 8) > 20);

    canvas.setFocus();
    canvas.showWindow(0, 300);
    canvas.grabFramebuffer();
    const QRectF plot = canvas.plotRect();
    auto xOf = [&](double step) {
        return int(plot.left() +
                   (step - canvas.viewport().begin()) / canvas.viewport().span() * plot.width());
    };
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier,
                      QPoint(xOf(10.5), int(plot.center().y())));
    REQUIRE(session->state().selectedStep == 10);
    QSignalSpy compared(&view.comparison(), &LivenessStepDiffModel::compared);
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::ShiftModifier,
                      QPoint(xOf(140.5), int(plot.center().y())));
    REQUIRE(gui::test::waitFor(compared));
    REQUIRE(view.comparison().comparison().fromStep == 10);
    REQUIRE(view.comparison().comparison().toStep == 140);
    REQUIRE(view.comparison().rowCount() > 0);
    REQUIRE(session->state().selectedStep == 10); // the shift-click did not move the selection
}
