// The Sweep view: its table, filter, sort, selection and scatter on a generated sweep folder
// (offscreen), and `tilescope --sweep DIR --screenshot` by the real binary on Xvfb.

#include "TestSweeps.hpp"
#include "TilescopeProcess.hpp"
#include "sweep/SweepScatter.hpp"
#include "sweep/SweepTableModel.hpp"
#include "sweep/SweepView.hpp"
#include "sweep/SweepWindow.hpp"
#include "tilescope/sweep/SweepPlan.hpp"
#include "tilescope/sweep/SweepSummary.hpp"
#include "tilescope/sweep/VariantStatus.hpp"

#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>
#include <filesystem>

using namespace tilescope;
using namespace tilescope::gui;
namespace fs = std::filesystem;

TEST_CASE("the Sweep view lists, sorts, filters and selects variants and draws their scatter") {
    QTemporaryDir tmp;
    const fs::path dir =
        test::makeSyntheticSweep(fs::path(tmp.path().toStdString()) / "sweep", 8, false);
    SweepWindow window;
    QSignalSpy opened(&window, &SweepWindow::sweepOpened);
    window.resize(1100, 700);
    window.show();
    window.openSweep(QString::fromStdString(dir.string()));
    REQUIRE(opened.wait(60000));
    SweepView* view = window.view();
    SweepTableModel* model = view->model();
    REQUIRE(model->rowCount() == 8);
    CHECK(model->variant(7)->state == "failed");
    CHECK_FALSE(model->variant(6)->fits);
    CHECK(model->variant(0)->fits);
    const auto& front = model->paretoFront();
    CHECK(std::count(front.begin(), front.end(), true) >= 1);
    CHECK_FALSE(front[6]);
    CHECK_FALSE(front[7]);

    // Sorting by cycles (numbers, not text) puts the fastest first.
    const int cyclesColumn = [&] {
        for (int c = 0; c < model->columnCount(); ++c)
            if (model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString() == "Cycles")
                return c;
        return -1;
    }();
    REQUIRE(cyclesColumn > 0);
    view->proxy()->sort(cyclesColumn, Qt::AscendingOrder);
    double previous = -2;
    for (int r = 0; r < view->proxy()->rowCount(); ++r) {
        const double v = view->proxy()->index(r, cyclesColumn).data(Qt::UserRole).toDouble();
        CHECK(v >= previous);
        previous = v;
    }

    // The filter matches any column.
    view->proxy()->setFilterFixedString("failed");
    CHECK(view->proxy()->rowCount() == 1);
    view->proxy()->setFilterFixedString("");
    CHECK(view->proxy()->rowCount() == 8);

    // Two variants with reports enable Compare; it asks for both reports.
    auto* compare = window.findChild<QPushButton*>();
    REQUIRE(compare);
    view->selectRows({0, 1});
    CHECK(compare->isEnabled());
    QObject::disconnect(view, &SweepView::compareRequested, nullptr, nullptr); // no window here
    QSignalSpy requested(view, &SweepView::compareRequested);
    compare->click();
    REQUIRE(requested.size() == 1);
    CHECK(requested[0][0].toString().endsWith("seed-1/profile.pop"));
    view->selectRows({0, 7}); // the failed variant has no report
    CHECK_FALSE(compare->isEnabled());

    // The scatter drew its points (seven compiled variants).
    for (int i = 0; i < 200 && !view->scatter()->paintedPoints(); ++i)
        QTest::qWait(50);
    REQUIRE(view->scatter()->paintedPoints());
    const QImage image = view->scatter()->grab().toImage();
    bool coloured = false;
    for (int y = 0; y < image.height() && !coloured; y += 2)
        for (int x = 0; x < image.width() && !coloured; x += 2) {
            const QColor c = image.pixelColor(x, y);
            coloured = c.saturation() > 100;
        }
    CHECK(coloured);
}

TEST_CASE("a finished sweep shows its summary.json first, then what its reports say") {
    QTemporaryDir tmp;
    const fs::path dir =
        test::makeSyntheticSweep(fs::path(tmp.path().toStdString()) / "sweep", 5, false);
    sweep::writeSummaryJson(sweep::summarizeSweep(dir, std::nullopt, {}));
    const auto stored = sweep::readSummaryJson(dir);
    REQUIRE(stored);
    CHECK(stored->rows.size() == 5);
    CHECK(stored->rows[0].cycles() ==
          sweep::summarizeSweep(dir, std::nullopt, {}).rows[0].cycles());
    SweepWindow window;
    QSignalSpy opened(&window, &SweepWindow::sweepOpened);
    QSignalSpy read(&window, &SweepWindow::summaryRead);
    window.openSweep(QString::fromStdString(dir.string()));
    CHECK(opened.size() == 1); // at once, from summary.json
    CHECK(window.view()->model()->rowCount() == 5);
    REQUIRE(read.wait(60000));
    CHECK(opened.size() == 1);
    CHECK(window.view()->model()->rowCount() == 5);
}

TEST_CASE("a folder that is not a sweep shows why") {
    QTemporaryDir tmp;
    SweepWindow window;
    QSignalSpy failed(&window, &SweepWindow::openFailed);
    window.openSweep(tmp.path());
    REQUIRE(failed.wait(20000));
    CHECK(failed[0][0].toString().contains("sweep.json"));
}

TEST_CASE("tilescope --sweep DIR --screenshot renders the Sweep view on Xvfb") {
    QTemporaryDir tmp;
    const fs::path dir =
        test::makeSyntheticSweep(fs::path(tmp.path().toStdString()) / "sweep", 12, false);
    const QString png = tmp.filePath("sweep.png");
    const auto run = test::runTilescope({"--sweep", QString::fromStdString(dir.string()),
                                         "--screenshot", png, "--size", "1200x700"});
    INFO(run.stderrText.toStdString());
    REQUIRE(run.exitCode == 0);
    const QImage image(png);
    REQUIRE(image.size() == QSize(1200, 700));
    // A sweep folder opens as one without --sweep too.
    const QString png2 = tmp.filePath("plain.png");
    REQUIRE(
        test::runTilescope({QString::fromStdString(dir.string()), "--screenshot", png2}).exitCode ==
        0);
    const auto bad = test::runTilescope({"--sweep", tmp.path(), "--screenshot", png2});
    CHECK(bad.exitCode == 1);
    CHECK(bad.stderrText.contains("sweep.json"));
}
