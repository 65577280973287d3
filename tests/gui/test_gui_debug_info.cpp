// The debug information details pane: rows and call summaries made from an operation's JSON,
// and DebugInfoPane loading the operations of an operation, program or variable.
#include "OperationsReport.hpp"
#include "TestReports.hpp"
#include "core/DebugInfoPane.hpp"
#include "core/DebugInfoText.hpp"
#include "core/ReportSession.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QSignalSpy>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

report::OperationRecord matmulRecord() {
    report::ProfileReader reader(gui::test::operationsReport().string());
    return reader.operations(0, 10).at(0);
}

} // namespace

TEST_CASE("debug information rows: tensors on one line, options nested, api left out") {
    const auto rows = debugInfoRows(matmulRecord().debugJson);
    REQUIRE(rows.size() == 7);
    CHECK(rows[0].depth == 0);
    CHECK(rows[0].key == "args");
    CHECK(rows[0].value.empty());
    CHECK(rows[1].depth == 1);
    CHECK(rows[1].key == "A");
    CHECK(rows[1].value == "half [4, 64] · model/in");
    CHECK(rows[2].key == "B");
    CHECK(rows[3].key == "options");
    CHECK(rows[4].depth == 2);
    CHECK(rows[4].key == "partialsType");
    CHECK(rows[4].value == "float");
    CHECK(rows[5].key == "output");
    CHECK(rows[5].value == "half [4, 32] · model/acts");
    CHECK(rows[6].key == "units");
    CHECK(rows[6].value == "32");

    CHECK(debugInfoRows("").empty());
    const auto bad = debugInfoRows("{not json");
    REQUIRE(bad.size() == 1);
    CHECK(bad[0].key == "unreadable debug information");
}

TEST_CASE("debug information summary reads like the call") {
    const auto op = matmulRecord();
    CHECK(debugInfoSummary(op) ==
          "matmul(A: half [4, 64], B: half [64, 32], options) → half [4, 32]");
    CHECK(debugInfoTooltip(op) == debugInfoSummary(op) + "\nmodel/matmul (Dense)");
    report::OperationRecord bare;
    bare.name = "add";
    CHECK(debugInfoSummary(bare) == "add");
}

TEST_CASE("the pane shows the operations of an operation, a program, a step and a variable") {
    auto session = gui::test::openSession(gui::test::operationsReport());
    report::ProfileReader reader(gui::test::operationsReport().string());
    const auto matmul = reader.operations(0, 10).at(0);

    DebugInfoPane pane(session);
    QSignalSpy shown(&pane, &DebugInfoPane::shown);
    pane.showOperation(matmul.id);
    REQUIRE(gui::test::waitFor(shown));
    REQUIRE(pane.operations().size() == 1);
    CHECK(pane.operations()[0].debugJson == matmul.debugJson);

    shown.clear();
    pane.showProgram(matmul.programIds.at(0));
    REQUIRE(gui::test::waitFor(shown));
    REQUIRE(pane.operations().size() == 1);
    CHECK(pane.operations()[0].name == "matmul");

    shown.clear();
    pane.showVariable(matmul.variableIds.at(1));
    REQUIRE(gui::test::waitFor(shown));
    REQUIRE(pane.operations().size() == 1);
    CHECK(pane.operations()[0].id == matmul.id);

    shown.clear();
    pane.showStep(reader.operationSteps(matmul.id).at(0).step.id);
    REQUIRE(gui::test::waitFor(shown));
    REQUIRE(pane.operations().size() == 1);
    CHECK(pane.operations()[0].id == matmul.id);

    shown.clear();
    pane.showVariable(987654);
    REQUIRE(gui::test::waitFor(shown));
    CHECK(pane.operations().empty());
}

TEST_CASE("the pane says what the report records for an operation") {
    report::OperationRecord layer;
    layer.name = "encoder";
    layer.debugPath = "model/encoder";
    layer.layer = "Transformer";
    // A current report: no call values because the operation has none, not the format.
    const std::string current = debugInfoRecorded(layer, 6);
    CHECK(current.find("name, debug path, layer") == 0);
    CHECK(current.find("created from a name only") != std::string::npos);
    CHECK(current.find("before") == std::string::npos);
    CHECK(current.find("predates") == std::string::npos);
    // An old report: the format is why.
    const std::string old = debugInfoRecorded(layer, 4);
    CHECK(old.find("format v4 predates them (v5)") != std::string::npos);
    // Recorded values name the API.
    report::OperationRecord call;
    call.name = "matMul";
    call.flops = 100;
    call.debugJson = R"({"api":"matMul","args":{}})";
    CHECK(debugInfoRecorded(call, 6) == "name, FLOPs, call values (matMul)");
}
