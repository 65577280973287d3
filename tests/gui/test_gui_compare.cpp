// Compare mode's models on the TwoReports pair (exact figures known, see ComparePair.hpp): the
// summary tables, memory per tile and worst tiles, programs and operations matched with added and
// removed rows, liveness and executed steps aligned, the loader's errors. Offscreen: no canvas.
#include "ComparePair.hpp"
#include "TestReports.hpp"
#include "compare/CompareDialog.hpp"
#include "compare/CompareLoader.hpp"
#include "compare/ComparePane.hpp"
#include "compare/CompareSeries.hpp"
#include "compare/CompareSession.hpp"
#include "compare/CompareSummaryModel.hpp"
#include "compare/CompareView.hpp"
#include "compare/CompareWindow.hpp"
#include "compare/OperationCompareModel.hpp"
#include "compare/ProgramCompareModel.hpp"
#include "compare/StepCompareModel.hpp"
#include "compare/TileMemoryCompareModel.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <QColor>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <catch2/catch.hpp>

using namespace tilescope::gui;

namespace {

std::shared_ptr<CompareSession> openPair() {
    const auto& p = test::comparePair();
    auto s = CompareSession::open(p.source.string(), p.target.string(), nullptr, nullptr);
    REQUIRE(s);
    return s;
}

/// The row whose column `column` displays `text`; -1 if none.
int rowWith(const RecordTableModel& m, int column, const QString& text) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.data(m.index(r, column)).toString().trimmed() == text)
            return r;
    return -1;
}

template <class Model> void waitLoaded(Model& m) {
    if (m.isLoaded())
        return;
    QSignalSpy loaded(&m, &Model::loaded);
    QSignalSpy failed(&m, &Model::failed);
    REQUIRE(test::waitFor(loaded));
    REQUIRE(failed.isEmpty());
}

} // namespace

TEST_CASE("compare summary: source, target, difference and percent for every figure") {
    CompareSummaryModel model(openPair());
    RecordTableModel& memory = model.memory();
    const int total = rowWith(memory, 0, "Total including gaps");
    REQUIRE(total >= 0);
    CHECK(memory.value(total, 1).toULongLong() == 1040);
    CHECK(memory.value(total, 2).toULongLong() == 1190);
    CHECK(memory.value(total, 3).toLongLong() == 150);
    CHECK(memory.value(total, 4).toDouble() == Approx(100.0 * 150 / 1040));
    const int fullest = rowWith(memory, 0, "Fullest tile");
    REQUIRE(fullest >= 0);
    CHECK(memory.value(fullest, 3).toLongLong() == 100);
    // Growth is the regression: red text in the Diff column.
    CHECK(memory.data(memory.index(total, 3), Qt::ForegroundRole).value<QColor>().red() > 200);

    RecordTableModel& counts = model.counts();
    const int runs = rowWith(counts, 0, "Runs");
    REQUIRE(runs >= 0);
    CHECK(counts.value(runs, 3).toLongLong() == 0);
    const int over = rowWith(counts, 0, "Tiles over capacity");
    REQUIRE(over >= 0);
    CHECK(counts.value(over, 2).toULongLong() == 0);

    RecordTableModel& categories = model.categories();
    REQUIRE(categories.rowCount() == 2);
    int alwaysLive = -1;
    for (int r = 0; r < categories.rowCount(); ++r)
        if (categories.value(r, 2).toULongLong() == 1000)
            alwaysLive = r;
    REQUIRE(alwaysLive >= 0);
    CHECK(categories.value(alwaysLive, 3).toULongLong() == 1150);
    CHECK(categories.value(alwaysLive, 4).toLongLong() == 150);
    CHECK(categories.value(alwaysLive, 6).toULongLong() == 400); // fullest tile, source
    CHECK(categories.value(alwaysLive, 7).toULongLong() == 500);

    REQUIRE(model.regions().rowCount() == 1);
    CHECK(model.regions().value(0, 3).toLongLong() == 150);

    RecordTableModel& run = model.runs();
    REQUIRE(run.rowCount() == 1);
    CHECK(run.value(0, 2).toULongLong() == 600);
    CHECK(run.value(0, 3).toULongLong() == 920);
    CHECK(run.value(0, 4).toLongLong() == 320);
    CHECK(run.value(0, 6).toULongLong() == 4); // steps
    CHECK(run.value(0, 7).toULongLong() == 5);
    CHECK(model.targetDifferences().rowCount() == 0);
    CHECK(model.sourceHeadline().contains("source.pop"));
    CHECK(model.targetHeadline().contains("target.pop"));
}

TEST_CASE("compare memory: per-tile series, difference and worst tiles first") {
    TileMemoryCompareModel model(openPair());
    waitLoaded(model);
    const auto series = model.series();
    REQUIRE(series);
    CHECK(series->source == std::vector<double>{110, 210, 310, 410});
    CHECK(series->target == std::vector<double>{110, 270, 300, 510});
    ComparisonTableModel& worst = model.worstTiles();
    REQUIRE(worst.rowCount() == 4);
    CHECK(worst.value(0, 0).toLongLong() == 3);
    CHECK(worst.value(0, 4).toLongLong() == 100);
    CHECK(worst.value(1, 0).toLongLong() == 1);
    CHECK(worst.value(1, 4).toLongLong() == 60);
    CHECK(worst.value(3, 0).toLongLong() == 2);
    CHECK(worst.value(3, 4).toLongLong() == -10);
    CHECK(worst.data(worst.index(3, 4), Qt::ForegroundRole).value<QColor>().green() > 150);
}

TEST_CASE("compare memory in physical order: both reports' series along the shared floor plan") {
    // Two generated reports of the same target record the same simulated floor plan.
    const auto dir = test::scratchDir("compare-physical");
    tilescope::report::SyntheticSpec spec;
    spec.ipus = 2;
    spec.tilesPerIpu = 64;
    spec.steps = 60;
    const auto a = tilescope::report::generateSyntheticReport(dir / "a", spec).profile;
    spec.seed = 2;
    spec.steps = 90;
    const auto b = tilescope::report::generateSyntheticReport(dir / "b", spec).profile;
    auto session = CompareSession::open(a.string(), b.string(), nullptr, nullptr);
    REQUIRE(session);
    TileMemoryCompareModel model(session);
    waitLoaded(model);
    REQUIRE(model.hasPhysicalOrder());
    const auto order =
        tilescope::report::ProfileReader(a.string()).tilePlacement().physicalOrder(64);
    const auto software = model.series(TileOrder::Software);
    const auto physical = model.series(TileOrder::Physical);
    REQUIRE(physical->size() == 128);
    for (std::size_t p = 0; p < 128; ++p) {
        REQUIRE(model.tileAt(TileOrder::Physical, p) == order[p]);
        REQUIRE(physical->source[p] == software->source[order[p]]);
        REQUIRE(physical->target[p] == software->target[order[p]]);
    }
    REQUIRE(model.tileAt(TileOrder::Software, 17) == 17);
}

TEST_CASE("compare memory offers no physical order when a report records no placement") {
    TileMemoryCompareModel model(openPair()); // written by ProfileWriter without a placement
    waitLoaded(model);
    REQUIRE_FALSE(model.hasPhysicalOrder());
    REQUIRE(model.series(TileOrder::Physical) == nullptr);
    REQUIRE(model.placementProblem().contains("source report records no tile placement"));
}

TEST_CASE("compare series: one min/max envelope per pixel column") {
    CompareSeries s;
    s.source = {1, 5, 2, 8, 0, 0};
    s.target = {2, 5, 9, 1, 4, 0};
    s.presence = {3, 3, 3, 3, 2, 1};
    const auto two = s.columns(0, 6, 2);
    REQUIRE(two.columns.size() == 2);
    CHECK(two.columns[0].first == 0);
    CHECK(two.columns[0].end == 3);
    CHECK(two.columns[0].sourceMin == 1);
    CHECK(two.columns[0].sourceMax == 5);
    CHECK(two.columns[0].targetMax == 9);
    CHECK(two.columns[0].diffMin == 0);
    CHECK(two.columns[0].diffMax == 7);
    // Point 4 is target-only and point 5 source-only: the 0 of point 5's missing target does not
    // lower the target's minimum (1, from point 3).
    CHECK(two.columns[1].sourceMin == 0);
    CHECK(two.columns[1].sourceMax == 8);
    CHECK(two.columns[1].targetMin == 1);
    CHECK(two.columns[1].targetMax == 4);
    CHECK(two.columns[1].diffMin == -7);
    CHECK(two.maxValue == 9);
    CHECK(two.maxAbsDiff == 7);
    const auto zoomed = s.columns(1, 3, 500);
    REQUIRE(zoomed.columns.size() == 2); // one column per point when zoomed in
    CHECK(zoomed.columns[1].targetMin == 9);
}

TEST_CASE("compare programs: matched by path, added and removed rows kept and marked") {
    ProgramCompareModel model(openPair());
    waitLoaded(model);
    CHECK(model.rowCount() == 4); // main, a (matched), b (removed), c (added)
    CHECK(model.summaryText().startsWith("2 programs matched"));
    const int b = rowWith(model, ProgramCompareModel::Path, "b");
    const int c = rowWith(model, ProgramCompareModel::Path, "c");
    const int a = rowWith(model, ProgramCompareModel::Path, "a");
    REQUIRE(a >= 0);
    REQUIRE(b >= 0);
    REQUIRE(c >= 0);
    CHECK(model.value(b, ProgramCompareModel::Status).toString().contains("removed"));
    CHECK(model.value(c, ProgramCompareModel::Status).toString().contains("added"));
    CHECK(model.value(a, ProgramCompareModel::Status).toString() == "matched");
    CHECK(model.value(b, ProgramCompareModel::Code).toULongLong() == 30);
    CHECK_FALSE(model.value(b, ProgramCompareModel::Code + 1).isValid());
    CHECK(model.value(c, ProgramCompareModel::Code + 2).toLongLong() == 70);
    CHECK(model.value(a, ProgramCompareModel::Executed).toULongLong() == 200);
    CHECK(model.value(a, ProgramCompareModel::Executed + 1).toULongLong() == 320);
    // Added rows are tinted green, removed ones red.
    CHECK(model.data(model.index(c, 0), Qt::BackgroundRole).value<QColor>().green() > 150);
    CHECK(model.data(model.index(b, 0), Qt::BackgroundRole).value<QColor>().red() > 200);
    CHECK_FALSE(model.data(model.index(a, 0), Qt::BackgroundRole).isValid());
}

TEST_CASE("compare operations: matched by name and debug path") {
    OperationCompareModel model(openPair());
    waitLoaded(model);
    CHECK(model.rowCount() == 3); // mm, add (removed), relu (added)
    const int add = rowWith(model, OperationCompareModel::Name, "add");
    const int relu = rowWith(model, OperationCompareModel::Name, "relu");
    REQUIRE(add >= 0);
    REQUIRE(relu >= 0);
    CHECK(model.value(add, OperationCompareModel::Status).toString().contains("removed"));
    CHECK(model.value(relu, OperationCompareModel::Status).toString().contains("added"));
    CHECK(model.value(relu, OperationCompareModel::Estimated + 2).toLongLong() == 300);
    CHECK(model.value(add, OperationCompareModel::Estimated + 2).toLongLong() == -200);
}

TEST_CASE("compare execution: steps aligned by identity, largest regressions first") {
    StepCompareModel model(openPair(), StepCompareModel::Kind::Execution);
    waitLoaded(model);
    CHECK(
        model.summaryText().startsWith("2 steps matched by program identity, 3 added, 2 removed"));
    REQUIRE(model.rowCount() == 7);
    CHECK(model.value(0, StepCompareModel::Rank).toULongLong() == 1);
    CHECK(model.value(0, StepCompareModel::Step).toString() == "main/c | csC | OnTileExecute");
    CHECK(model.value(0, StepCompareModel::Status).toString().contains("added"));
    CHECK(model.value(0, StepCompareModel::Value + 2).toLongLong() == 300);
    std::int64_t previous = INT64_MAX, total = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        const std::int64_t d = model.value(r, StepCompareModel::Value + 2).toLongLong();
        CHECK(d <= previous);
        previous = d;
        total += d;
    }
    CHECK(total == 920 - 600);
    const auto series = model.series();
    REQUIRE(series);
    REQUIRE(series->size() == 7);
    double sourceSum = 0, targetSum = 0;
    for (std::size_t i = 0; i < series->size(); ++i) {
        sourceSum += series->inSource(i) ? series->source[i] : 0;
        targetSum += series->inTarget(i) ? series->target[i] : 0;
    }
    CHECK(sourceSum == 600);
    CHECK(targetSum == 920);
    CHECK(model.pointLabel(0).contains(" | "));
}

TEST_CASE("compare liveness: program steps aligned by identity") {
    StepCompareModel model(openPair(), StepCompareModel::Kind::Liveness);
    waitLoaded(model);
    CHECK(
        model.summaryText().startsWith("1 steps matched by program identity, 1 added, 1 removed"));
    REQUIRE(model.series());
    CHECK(model.series()->size() == 3);
    CHECK(model.rowCount() == 3);
    // Bytes live at a step are a level: the summary gives the peak and the mean per step, never
    // a sum over steps; step names leave out the parts a step has none of.
    const QString summary = model.summaryText();
    CHECK(summary.contains("at the peak step"));
    CHECK(summary.contains("mean per step"));
    CHECK_FALSE(summary.contains("Total"));
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString step = model.value(r, StepCompareModel::Step).toString();
        CHECK_FALSE(step.contains("|  |"));
        CHECK_FALSE(step.startsWith(" |"));
        CHECK_FALSE(step.endsWith("| "));
    }
}

TEST_CASE("compare loader: opens both reports off the UI thread, names a bad file") {
    CompareLoader loader;
    QSignalSpy loaded(&loader, &CompareLoader::loaded);
    QSignalSpy failed(&loader, &CompareLoader::failed);
    const auto& p = test::comparePair();
    loader.start(QString::fromStdString(p.source.string()),
                 QString::fromStdString(p.target.string()));
    REQUIRE(test::waitFor(loaded));
    CHECK(failed.isEmpty());

    const auto missing = test::scratchDir("compare-missing") / "nope.pop";
    loader.start(QString::fromStdString(p.source.string()),
                 QString::fromStdString(missing.string()));
    REQUIRE(test::waitFor(failed));
    CHECK(failed.front().front().toString().contains("nope.pop"));
}

TEST_CASE("compare window: opens both reports and shows the compare Summary first") {
    CHECK(ComparePane::viewNames() ==
          QStringList{"summary", "memory", "liveness", "programs", "operations", "execution"});
    CompareWindow window;
    window.setInteractive(false);
    QSignalSpy opened(&window, &CompareWindow::comparisonOpened);
    QSignalSpy failed(&window, &CompareWindow::openFailed);
    const auto& p = test::comparePair();
    window.openComparison(QString::fromStdString(p.source.string()),
                          QString::fromStdString(p.target.string()));
    CHECK(window.isLoading());
    REQUIRE(test::waitFor(opened));
    CHECK(failed.isEmpty());
    REQUIRE(window.pane());
    CompareView* summary = window.pane()->currentView();
    REQUIRE(summary);
    CHECK(summary->isReady());
    CHECK(window.pane()->showView("no-such-view") == nullptr);
    CHECK(window.windowTitle().contains("source.pop"));

    window.openComparison(QString::fromStdString(p.source.string()),
                          QStringLiteral("/nonexistent"));
    REQUIRE(test::waitFor(failed));
    CHECK(failed.front().front().toString().contains("/nonexistent"));
}

TEST_CASE("compare dialog: Compare is enabled once both reports are named") {
    CompareDialog dialog;
    auto edits = dialog.findChildren<QLineEdit*>();
    REQUIRE(edits.size() == 2);
    QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    CHECK_FALSE(ok->isEnabled());
    edits[0]->setText(" a.pop ");
    CHECK_FALSE(ok->isEnabled());
    edits[1]->setText("ssh://host/b.pop");
    CHECK(ok->isEnabled());
    CHECK(dialog.source() == "a.pop");
    CHECK(dialog.target() == "ssh://host/b.pop");
}
