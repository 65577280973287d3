// The system analyser's timeline under Xvfb on an imported trace with async tracks and a flow
// (tests/data/chrome/async-and-flows.json): clicking the slice where the flow starts selects it
// and draws the arrow to the flow's next point; clicking empty space clears it.
#include "system/HostTraceSession.hpp"
#include "system/SystemAnalyserView.hpp"
#include "system/TimelineCanvas.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/ChromeTrace.hpp"

#include <QElapsedTimer>
#include <QTest>
#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <unistd.h>

using namespace tilescope;
using namespace tilescope::gui;
namespace fs = std::filesystem;

namespace {

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

int rowOf(const TimelineModel& m, TimelineModel::RowKind kind, const QString& label,
          int parent = -2) {
    for (int i = 0; i < int(m.rows().size()); ++i) {
        const auto& r = m.rows()[std::size_t(i)];
        if (r.kind == kind && r.label.startsWith(label) && (parent == -2 || r.parent == parent))
            return i;
    }
    return -1;
}

/// Dark pixels (the arrow is drawn in the text colour) within 2 pixels of (x, y).
int darkNear(const QImage& frame, double x, double y) {
    int n = 0;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            const QColor c = frame.pixelColor(int(x) + dx, int(y) + dy);
            n += c.lightness() < 90 ? 1 : 0;
        }
    return n;
}

} // namespace

TEST_CASE("clicking the slice a flow starts in draws the flow's arrow") {
    const fs::path dir =
        fs::temp_directory_path() / ("tilescope-gui-flow-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path trace = dir / "flows.pvti";
    report::importChromeTrace(fs::path(TILESCOPE_TEST_DATA) / "chrome" / "async-and-flows.json",
                              trace);
    SystemAnalyserView view({HostTraceSession::open(trace.string())});
    view.resize(1200, 800);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    TimelineCanvas& canvas = view.canvas();
    TimelineModel& model = view.timelineModel();
    REQUIRE(waitUntil([&] {
        canvas.grabFramebuffer();
        return view.isReady();
    }));

    using Kind = TimelineModel::RowKind;
    const int send = rowOf(model, Kind::Track, "depth 0", rowOf(model, Kind::Thread, "thread 1"));
    const int thread3 = rowOf(model, Kind::Thread, "thread 3");
    REQUIRE(send >= 0);
    REQUIRE(thread3 >= 0);
    REQUIRE(rowOf(model, Kind::Async, "request") >= 0);
    const auto sendRect = canvas.rowRect(send);
    const auto thread3Rect = canvas.rowRect(thread3);
    REQUIRE(sendRect);
    REQUIRE(thread3Rect);

    // "send" runs [5, 7] us; the flow leaves it at 6 us for thread 3 at 30 us.
    const QPointF from(canvas.xOf(6'000), sendRect->center().y());
    const QPointF to(canvas.xOf(30'000), thread3Rect->center().y());
    const QPointF middle = (from + to) / 2;
    CHECK(darkNear(canvas.grabFramebuffer(), middle.x(), middle.y()) == 0);

    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier, from.toPoint());
    REQUIRE(canvas.selectedEvent());
    CHECK(canvas.selectedEvent()->row == send);
    CHECK(canvas.selectedEvent()->startNs == 5'000);
    CHECK(canvas.selectedEvent()->endNs == 7'000);
    CHECK(darkNear(canvas.grabFramebuffer(), middle.x(), middle.y()) > 0);

    // A click where there is no event clears the selection and the arrow.
    QTest::mouseClick(&canvas, Qt::LeftButton, Qt::NoModifier,
                      QPoint(int(canvas.xOf(40'000)), int(sendRect->center().y())));
    CHECK_FALSE(canvas.selectedEvent());
    CHECK(darkNear(canvas.grabFramebuffer(), middle.x(), middle.y()) == 0);
    fs::remove_all(dir);
}
