// Operations nested by debug path and their totals including descendants (OperationRollup,
// OperationsModel's inclusive columns), on a hand-written report with known figures.
#include "SmallReport.hpp"
#include "TestReports.hpp"
#include "core/ReportSession.hpp"
#include "operations/OperationRollup.hpp"
#include "operations/OperationsModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

// "encoder/attention/head0" is no operation: "scores" nests directly in "attention". The two
// "encoder/ffn" are siblings, and "encoder2" only shares a prefix with "encoder".
const std::vector<testing::NestedOperation> kOps = {
    {"encoder", "encoder", 10, 100, 64, std::nullopt},
    {"attention", "encoder/attention", 200, 400, 256, 1000},
    {"matMul", "encoder/attention/head0/scores", 3000, 1200, 1024, 50000},
    {"matMul", "encoder/attention/q", 40, 80, 128, std::nullopt},
    {"ffn", "encoder/ffn", 500, 600, 512, std::nullopt},
    {"ffn", "encoder/ffn", 700, 800, 512, 7},
    {"encoder2", "encoder2", 9, 90, 32, std::nullopt},
};

std::filesystem::path nestedReport() {
    static const std::filesystem::path path = [] {
        const auto p = gui::test::scratchDir("nested-operations") / "profile.pop";
        testing::writeNestedOperationsReport(p, kOps, 4);
        return p;
    }();
    return path;
}

} // namespace

TEST_CASE("OperationRollup nests operations by debug path and sums their descendants") {
    report::ProfileReader reader(nestedReport().string());
    const auto totals = reader.operationTotals(0, 100);
    REQUIRE(totals.size() == std::size(kOps));
    const OperationRollup r = OperationRollup::compute(totals);
    REQUIRE(r.parent == std::vector<int>{-1, 0, 1, 1, 0, 0, -1});
    REQUIRE(r.depth == std::vector<int>{0, 1, 2, 2, 1, 1, 0});
    REQUIRE(r.descendants == std::vector<int>{5, 2, 0, 0, 0, 0, 0});
    // encoder: 10 + 200 + 3000 + 40 + 500 + 700.
    REQUIRE(r.inclusive[0].cycles == 4450);
    REQUIRE(r.inclusive[0].steps == 6);
    REQUIRE(r.inclusive[0].codeBytes == 100 + 400 + 1200 + 80 + 600 + 800);
    REQUIRE(r.inclusive[0].variableBytes == 64 + 256 + 1024 + 128 + 512 + 512);
    REQUIRE(r.inclusive[0].flops == 1000 + 50000 + 7);
    REQUIRE(r.inclusive[1].cycles == 3240);
    REQUIRE(r.inclusive[1].flops == 51000);
    REQUIRE(r.inclusive[3].cycles == 40); // a leaf: its own figures
    REQUIRE_FALSE(r.inclusive[3].flops);
    REQUIRE(r.inclusive[6].cycles == 9); // encoder2 is not inside encoder
    // Inclusive totals of the top level cover every operation exactly once.
    std::uint64_t all = 0, top = 0;
    for (std::size_t i = 0; i < totals.size(); ++i) {
        all += totals[i].estimatedCycles;
        if (r.parent[i] < 0)
            top += r.inclusive[i].cycles;
    }
    REQUIRE(top == all);
}

TEST_CASE("OperationsModel shows self and inclusive columns side by side") {
    auto session = gui::test::openSession(nestedReport());
    OperationsModel model(session);
    QSignalSpy loaded(&model, &OperationsModel::loadedChanged);
    model.load();
    REQUIRE(gui::test::waitFor(loaded));
    const auto& ops = model.operations();
    REQUIRE(ops.rowCount() == int(std::size(kOps)));
    REQUIRE(ops.value(0, OperationsModel::Cycles).toULongLong() == 10);
    REQUIRE(ops.value(0, OperationsModel::InclusiveCycles).toULongLong() == 4450);
    REQUIRE(ops.value(0, OperationsModel::InclusiveSteps).toULongLong() == 6);
    REQUIRE(ops.value(0, OperationsModel::SubOperations).toULongLong() == 5);
    REQUIRE(ops.value(0, OperationsModel::InclusiveFlops).toULongLong() == 51007);
    REQUIRE_FALSE(ops.value(0, OperationsModel::Flops).isValid());
    REQUIRE(ops.value(0, OperationsModel::Parent).toString().isEmpty());
    REQUIRE(ops.value(2, OperationsModel::Parent).toString() == "encoder/attention");
    REQUIRE(ops.value(2, OperationsModel::InclusiveMemory).toULongLong() == 1024);
    REQUIRE(ops.value(1, OperationsModel::InclusiveMemory).toULongLong() == 256 + 1024 + 128);
    REQUIRE(ops.value(1, OperationsModel::InclusiveCode).toULongLong() == 400 + 1200 + 80);
    REQUIRE(ops.value(6, OperationsModel::InclusiveCycles).toULongLong() == 9);
}

TEST_CASE("OperationsModel lists the steps and variables of an operation with its nested ones") {
    auto session = gui::test::openSession(nestedReport());
    report::ProfileReader reader(nestedReport().string());
    OperationsModel model(session);
    QSignalSpy loaded(&model, &OperationsModel::loadedChanged);
    model.load();
    REQUIRE(gui::test::waitFor(loaded));
    const auto& ops = model.operations();
    // "encoder" (row 0) holds rows 1-5; "attention" (row 1) holds rows 2 and 3.
    std::vector<std::int64_t> expected{model.operationIdAt(0)};
    for (int r = 1; r <= 5; ++r)
        expected.push_back(model.operationIdAt(r));
    REQUIRE(model.operationWithDescendants(0) == expected);
    REQUIRE(model.operationWithDescendants(1) ==
            std::vector<std::int64_t>{model.operationIdAt(1), model.operationIdAt(2),
                                      model.operationIdAt(3)});
    REQUIRE(model.operationWithDescendants(6) ==
            std::vector<std::int64_t>{model.operationIdAt(6)});

    QSignalSpy selected(&model, &OperationsModel::operationLoaded);
    REQUIRE(model.isInclusive());
    model.selectOperation(model.operationIdAt(0));
    REQUIRE(gui::test::waitFor(selected));
    // Inclusive: the steps and variables of all six operations, cycles adding up to the column.
    REQUIRE(model.steps().rowCount() ==
            int(ops.value(0, OperationsModel::InclusiveSteps).toULongLong()));
    std::uint64_t cycles = 0;
    std::int64_t previous = -1;
    for (int r = 0; r < model.steps().rowCount(); ++r) {
        cycles += model.steps().value(r, OperationsModel::StepCycles).toULongLong();
        const std::int64_t id = model.steps().value(r, OperationsModel::StepId).toLongLong();
        REQUIRE(id > previous); // in step order
        previous = id;
    }
    REQUIRE(cycles == ops.value(0, OperationsModel::InclusiveCycles).toULongLong());
    std::size_t variables = 0;
    for (std::int64_t id : expected)
        variables += reader.operationVariables(id).size();
    REQUIRE(model.variables().rowCount() == int(variables));

    // Own figures only: the layer's single step.
    selected.clear();
    model.setInclusive(false);
    REQUIRE(gui::test::waitFor(selected));
    REQUIRE(model.steps().rowCount() == int(ops.value(0, OperationsModel::Steps).toULongLong()));
    REQUIRE(model.steps().value(0, OperationsModel::StepCycles).toULongLong() == 10);
}
