// OperationsModel and OperationsView on a hand-written report with known figures, and the reader
// queries behind them.
#include "OperationsReport.hpp"
#include "TestReports.hpp"
#include "core/ReportSession.hpp"
#include "operations/OperationsModel.hpp"
#include "operations/OperationsView.hpp"
#include "tables/TableControls.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;
using F = gui::test::OperationsFigures;

namespace {

std::unique_ptr<OperationsModel> loadedOperations(std::shared_ptr<ReportSession> session) {
    auto model = std::make_unique<OperationsModel>(std::move(session));
    QSignalSpy loaded(model.get(), &OperationsModel::loadedChanged);
    model->load();
    REQUIRE(gui::test::waitFor(loaded));
    return model;
}

int rowNamed(const RecordTableModel& m, const QString& name) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.value(r, 0).toString() == name)
            return r;
    return -1;
}

} // namespace

TEST_CASE("ProfileReader sums each operation's steps, code and variables") {
    report::ProfileReader reader(gui::test::operationsReport().string());
    const auto ops = reader.operationTotals(0, 100);
    REQUIRE(ops.size() == 2);
    REQUIRE(ops[0].operation.name == "matmul");
    REQUIRE(ops[0].operation.layer == "Dense");
    REQUIRE(ops[0].operation.flops == F::kMatmulFlops);
    REQUIRE(ops[0].steps == 2);
    REQUIRE(ops[0].estimatedCycles == F::kMatmulCycles);
    REQUIRE(ops[0].codeBytes == F::kMatmulCode);
    REQUIRE(ops[0].variableBytes == F::kWeightsBytes + F::kActsBytes);
    REQUIRE(ops[1].operation.name == "add");
    REQUIRE_FALSE(ops[1].operation.flops);
    REQUIRE(ops[1].estimatedCycles == F::kAddCycles);
    REQUIRE(ops[1].variableBytes == F::kOutBytes);
    // Paging by id.
    REQUIRE(reader.operationTotals(ops[0].operation.id, 100).size() == 1);

    const auto steps = reader.operationSteps(ops[0].operation.id);
    REQUIRE(steps.size() == 2);
    REQUIRE(steps[0].program == "matmul/cs");
    REQUIRE(steps[1].step.kind == "DoExchange");
    REQUIRE(steps[1].step.exchangeBytes == F::kExchangeBytes);
    const auto vars = reader.operationVariables(ops[0].operation.id, true);
    REQUIRE(vars.size() == 2);
    REQUIRE(vars[0].name == "weights"); // largest first
    REQUIRE(vars[1].perTile == report::PerTile{256, 256, 256, 256, 0, 0, 0, 0});

    const auto exchanges = reader.largestExchangeSteps(10);
    REQUIRE(exchanges.size() == 2);
    REQUIRE(exchanges[0].step.exchangeBytes == F::kExchangeBytes);
    REQUIRE(exchanges[1].program == "toHost");
    REQUIRE(reader.largestExchangeSteps(1).size() == 1);
    const auto largest = reader.largestVariables(2);
    REQUIRE(largest.size() == 2);
    REQUIRE(largest[0].bytes == F::kWeightsBytes);
    REQUIRE(largest[1].bytes == F::kActsBytes);
}

TEST_CASE("OperationsModel lists operations with their costs and loads the selected one") {
    auto session = gui::test::openSession(gui::test::operationsReport());
    auto model = loadedOperations(session);
    REQUIRE(model->hasFlops());
    auto& ops = model->operations();
    REQUIRE(ops.rowCount() == 2);
    const int mm = rowNamed(ops, "matmul");
    REQUIRE(mm >= 0);
    REQUIRE(ops.value(mm, OperationsModel::DebugPath).toString() == "model/matmul");
    REQUIRE(ops.value(mm, OperationsModel::Steps).toULongLong() == 2);
    REQUIRE(ops.value(mm, OperationsModel::Cycles).toULongLong() == F::kMatmulCycles);
    REQUIRE(ops.value(mm, OperationsModel::Code).toULongLong() == F::kMatmulCode);
    REQUIRE(ops.value(mm, OperationsModel::Memory).toULongLong() ==
            F::kWeightsBytes + F::kActsBytes);
    REQUIRE(ops.value(mm, OperationsModel::Flops).toULongLong() == F::kMatmulFlops);
    const int add = rowNamed(ops, "add");
    REQUIRE_FALSE(ops.value(add, OperationsModel::Flops).isValid());
    REQUIRE(ops.data(ops.index(add, OperationsModel::Flops)).toString().isEmpty());

    QSignalSpy done(model.get(), &OperationsModel::operationLoaded);
    model->selectOperation(model->operationIdAt(mm));
    REQUIRE(gui::test::waitFor(done));
    auto& steps = model->steps();
    REQUIRE(steps.rowCount() == 2);
    REQUIRE(steps.value(0, OperationsModel::StepCycles).toULongLong() == 1000);
    REQUIRE(steps.value(1, OperationsModel::StepCycles).toULongLong() == F::kMatmulCycles - 1000);
    REQUIRE(steps.value(1, OperationsModel::StepExchanged).toULongLong() == F::kExchangeBytes);
    REQUIRE(steps.value(1, OperationsModel::StepPhase).toString() == "exchange");
    REQUIRE(model->stepIdAt(1) == 1);
    auto& vars = model->variables();
    REQUIRE(vars.rowCount() == 2);
    REQUIRE(vars.value(1, 0).toString() == "acts");
    REQUIRE(vars.value(1, 3).toULongLong() == F::kActsBytes);
    REQUIRE(vars.value(1, 4).toString() == "Not-Always-Live Variables (peak)");
    REQUIRE(vars.value(1, 6).toLongLong() == 0);
    REQUIRE(vars.value(1, 7).toLongLong() == 1);
    REQUIRE_FALSE(vars.value(0, 6).isValid()); // always-live: no live range
    REQUIRE(model->variableTilesAt(1) == TileSelection::range(0, 3));
    REQUIRE(model->variableTilesAt(0) == TileSelection::range(0, 7));

    // A newer selection supersedes: the add operation's single step.
    done.clear();
    model->selectOperation(model->operationIdAt(add));
    REQUIRE(gui::test::waitFor(done));
    REQUIRE(steps.rowCount() == 1);
    REQUIRE(steps.value(0, OperationsModel::StepCycles).toULongLong() == F::kAddCycles);
    REQUIRE(model->variableTilesAt(0) == TileSelection::range(6, 7));
}

TEST_CASE("OperationsView filters, hides FLOPs when absent and cross-selects steps and tiles") {
    auto session = gui::test::openSession(gui::test::operationsReport());
    OperationsView view(session);
    QSignalSpy ready(&view, &ReportView::ready);
    REQUIRE(gui::test::waitFor(ready));
    REQUIRE(view.isReady());
    REQUIRE(view.model().steps().rowCount() > 0); // the first operation is shown at once
    QTableView& ops = view.operationsTable();
    // Figures include nested operations by default: the inclusive columns stand in for the own.
    REQUIRE_FALSE(ops.isColumnHidden(OperationsModel::InclusiveFlops));
    REQUIRE(ops.isColumnHidden(OperationsModel::Flops));
    REQUIRE(ops.isColumnHidden(OperationsModel::Cycles));
    REQUIRE_FALSE(ops.isColumnHidden(OperationsModel::InclusiveCycles));
    view.setInclusive(false); // own figures only: the other way round
    REQUIRE_FALSE(ops.isColumnHidden(OperationsModel::Flops));
    REQUIRE(ops.isColumnHidden(OperationsModel::InclusiveCycles));
    REQUIRE_FALSE(view.model().isInclusive());
    view.setInclusive(true);

    auto* filter = view.findChild<QLineEdit*>();
    REQUIRE(filter);
    filter->setText("DENSE"); // matches matmul's layer, case-insensitively
    REQUIRE(ops.model()->rowCount() == 1);
    REQUIRE(ops.model()->index(0, 0).data().toString() == "matmul");
    filter->clear();
    REQUIRE(ops.model()->rowCount() == 2);

    // Sorting by cycles (raw numbers, descending) puts matmul first.
    ops.sortByColumn(OperationsModel::Cycles, Qt::DescendingOrder);
    REQUIRE(ops.model()->index(0, 0).data().toString() == "matmul");

    QSignalSpy loaded(&view.model(), &OperationsModel::operationLoaded);
    ops.setCurrentIndex(ops.model()->index(0, 0));
    if (view.model().isLoadingOperation())
        REQUIRE(gui::test::waitFor(loaded));
    QTableView& steps = view.stepsTable();
    steps.setCurrentIndex(steps.model()->index(1, 0));
    REQUIRE(session->state().selectedStep == 1);
    REQUIRE(session->state().selectedOperation == view.model().operationIdAt(0));
    QTableView& vars = view.variablesTable();
    vars.sortByColumn(-1, Qt::AscendingOrder);
    vars.setCurrentIndex(vars.model()->index(1, 0)); // acts
    REQUIRE(session->state().selectedTiles == TileSelection::range(0, 3));
}

TEST_CASE("OperationsView on a report without operations says so") {
    auto session = gui::test::openSession(gui::test::smallReport());
    OperationsView view(session);
    QSignalSpy ready(&view, &ReportView::ready);
    REQUIRE(gui::test::waitFor(ready));
    REQUIRE(view.model().operations().rowCount() == 0);
    REQUIRE(view.operationsTable().isColumnHidden(OperationsModel::Flops));
}
