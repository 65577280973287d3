// Operations nested by debug path and their totals including descendants (OperationRollup,
// OperationsModel's inclusive columns), on a hand-written report with known figures.
#include "SmallReport.hpp"
#include "TestReports.hpp"
#include "core/ReportSession.hpp"
#include "operations/OperationGraph.hpp"
#include "operations/OperationGraphWidget.hpp"
#include "operations/OperationRollup.hpp"
#include "operations/OperationsModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QColor>
#include <catch2/catch.hpp>
#include <memory>
#include <set>

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
    REQUIRE(model.operationWithDescendants(1) == std::vector<std::int64_t>{model.operationIdAt(1),
                                                                           model.operationIdAt(2),
                                                                           model.operationIdAt(3)});
    REQUIRE(model.operationWithDescendants(6) == std::vector<std::int64_t>{model.operationIdAt(6)});

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

namespace {

report::OperationTotals graphOp(const char* name, const char* path, std::uint64_t cycles,
                                std::string debugJson) {
    report::OperationTotals t;
    t.operation.name = name;
    t.operation.debugPath = path;
    t.operation.debugJson = std::move(debugJson);
    t.estimatedCycles = cycles;
    t.variableBytes = cycles * 2;
    t.steps = cycles ? 1 : 0;
    return t;
}

std::string tensor(const char* name) {
    return std::string(R"({"name":")") + name + R"(","type":"half","shape":"[4, 8]"})";
}

/// encoder { q = matMul(x), p = softmax(q), y = matMul(p, w) }, then loss(y).
report::RolledUpOperations graphOps() {
    report::RolledUpOperations r;
    r.operations = {
        graphOp("encoder", "encoder", 0, ""),
        graphOp("matMul", "encoder/q", 100,
                R"({"api":"matMul","args":{"A":)" + tensor("x") + R"(},"output":)" + tensor("q") +
                    "}"),
        graphOp("softmax", "encoder/sm", 50,
                R"({"args":{"in":)" + tensor("q") + R"(},"output":)" + tensor("p") + "}"),
        graphOp("matMul", "encoder/out", 200,
                R"({"args":{"A":)" + tensor("p") + R"(,"B":)" + tensor("w") +
                    R"(},"outputs":{"out":)" + tensor("y") + "}}"),
        graphOp("loss", "loss", 10, R"({"args":{"y":)" + tensor("y") + "}}"),
    };
    for (std::size_t i = 0; i < r.operations.size(); ++i)
        r.operations[i].operation.id = std::int64_t(i + 1);
    r.rollup = OperationRollup::compute(r.operations);
    return r;
}

} // namespace

TEST_CASE("The operations graph links operations by the tensors they pass, layers fold") {
    const auto ops = graphOps();
    REQUIRE(OperationGraph::defaultExpanded(ops) == std::set<int>{0});
    CHECK(OperationGraph::defaultExpanded(ops, 3).empty()); // too many: layers closed

    SECTION("layers open: one node per operation with work, edges along the data") {
        const OperationGraph g(ops, {0});
        REQUIRE(g.nodes().size() == 4); // the encoder has no work of its own: a frame
        CHECK(g.nodeOf(0) == -1);
        std::vector<std::pair<std::string, std::string>> edges;
        for (const auto& e : g.edges())
            edges.emplace_back(g.nodes()[std::size_t(e.from)].path,
                               g.nodes()[std::size_t(e.to)].path);
        CHECK(edges ==
              std::vector<std::pair<std::string, std::string>>{{"encoder/q", "encoder/sm"},
                                                               {"encoder/sm", "encoder/out"},
                                                               {"encoder/out", "loss"}});
        CHECK(g.edges()[0].tensor == "q: half [4, 8]");
        // Data flows down: each consumer one row below its producer.
        for (int op = 1; op <= 4; ++op)
            CHECK(g.nodes()[std::size_t(g.nodeOf(op))].rank == op - 1);
        REQUIRE(g.frames().size() == 1);
        CHECK(g.frames()[0].name == "encoder");
        CHECK(g.frames()[0].firstRank == 0);
        CHECK(g.frames()[0].lastRank == 2);
        CHECK(g.nodes()[std::size_t(g.nodeOf(3))].inputs.size() == 2);
        CHECK(g.maximum(OperationGraph::Cycles) == 200);
    }
    SECTION("a closed layer is one node with its inclusive figures") {
        const OperationGraph g = OperationGraph(ops, {0}).toggled(0);
        CHECK(g.expanded().empty());
        REQUIRE(g.nodes().size() == 2);
        const auto& encoder = g.nodes()[std::size_t(g.nodeOf(0))];
        CHECK(encoder.collapsed);
        CHECK(encoder.members == 4);
        CHECK(encoder.cycles == 350);
        CHECK(encoder.memory == 700);
        CHECK(g.nodeOf(2) == g.nodeOf(0)); // its operations are shown by it
        REQUIRE(g.edges().size() == 1);    // edges inside the layer fold away
        CHECK(g.edges()[0].tensor == "y: half [4, 8]");
        CHECK(g.toggled(0).nodes().size() == 4);
        CHECK_FALSE(g.isLayer(1));
        CHECK(g.toggled(1).expanded().empty()); // not a layer: nothing to open
    }
    SECTION("the colour ramp runs from light to dark") {
        const QColor low = OperationGraphWidget::rampColour(0, 1000);
        const QColor mid = OperationGraphWidget::rampColour(30, 1000);
        const QColor high = OperationGraphWidget::rampColour(1000, 1000);
        CHECK(low.lightnessF() > mid.lightnessF());
        CHECK(mid.lightnessF() > high.lightnessF());
        CHECK(OperationGraphWidget::rampColour(5000, 1000) == high);
    }
}

TEST_CASE("The operations graph of thousands of operations opens as its layers") {
    report::RolledUpOperations r;
    for (int layer = 0; layer < 40; ++layer) {
        const std::string path = "model/layer" + std::to_string(layer);
        r.operations.push_back(graphOp("layer", path.c_str(), 0, ""));
        for (int op = 0; op < 80; ++op) {
            const std::string in = "t" + std::to_string(layer * 100 + op);
            const std::string out = "t" + std::to_string(layer * 100 + op + 1);
            const std::string child = path + "/op" + std::to_string(op);
            r.operations.push_back(graphOp("op", child.c_str(), 10,
                                           R"({"args":{"x":)" + tensor(in.c_str()) +
                                               R"(},"output":)" + tensor(out.c_str()) + "}"));
        }
    }
    for (std::size_t i = 0; i < r.operations.size(); ++i)
        r.operations[i].operation.id = std::int64_t(i + 1);
    r.rollup = OperationRollup::compute(r.operations);
    REQUIRE(r.operations.size() == 3240);
    const OperationGraph closed(r, OperationGraph::defaultExpanded(r));
    CHECK(closed.nodes().size() == 40);
    const OperationGraph open = closed.toggled(0);
    CHECK(open.nodes().size() == 39 + 80);
    // Inside the open layer the chain of 80 operations runs down 80 rows.
    CHECK(open.ranks() >= 80);
}

TEST_CASE("Operations Graph: row index, edges by row and re-laid-out graphs share their operations",
          "[operations][graph]") {
    // Two layers of 6 operations in 2 branches: op k takes op k-2's output, a layer's first two
    // take the previous layer's last output.
    report::RolledUpOperations r;
    auto tensor = [](int id) {
        return R"({"name":"t)" + std::to_string(id) + R"(","type":"float","shape":"[4]"})";
    };
    int next = 0, last = -1;
    for (int layer = 0; layer < 2; ++layer) {
        const std::string path = "m/l" + std::to_string(layer);
        r.operations.push_back(graphOp("layer", path.c_str(), 0, ""));
        std::vector<int> outs;
        for (int op = 0; op < 6; ++op) {
            const int in = op >= 2 ? outs[std::size_t(op - 2)] : last >= 0 ? last : next++;
            const int out = next++;
            outs.push_back(out);
            const std::string child = path + "/op" + std::to_string(op);
            r.operations.push_back(
                graphOp("op", child.c_str(), std::uint64_t(10 + op),
                        R"({"args":{"x":)" + tensor(in) + R"(},"output":)" + tensor(out) + "}"));
        }
        last = outs.back();
    }
    for (std::size_t i = 0; i < r.operations.size(); ++i)
        r.operations[i].operation.id = std::int64_t(i + 1);
    r.rollup = OperationRollup::compute(r.operations);
    const OperationGraph g(r, {0, 7});
    REQUIRE(g.nodes().size() == 12);
    REQUIRE(g.edges().size() == 10); // 4 within each layer's branches, 2 into the second layer

    // Every node once, row by row.
    const std::vector<int> all = g.nodesInRanks(-5, g.ranks() + 5);
    CHECK(all.size() == g.nodes().size());
    CHECK(std::set<int>(all.begin(), all.end()).size() == all.size());
    for (std::size_t k = 1; k < all.size(); ++k)
        CHECK(g.nodes()[std::size_t(all[k - 1])].rank <= g.nodes()[std::size_t(all[k])].rank);
    // A window of rows: exactly the nodes and edges in or crossing it (checked by brute force).
    for (int first = -1; first <= g.ranks(); ++first)
        for (int lastRank = first; lastRank <= g.ranks(); ++lastRank) {
            std::set<int> nodes, edges;
            for (std::size_t i = 0; i < g.nodes().size(); ++i)
                if (g.nodes()[i].rank >= first && g.nodes()[i].rank <= lastRank)
                    nodes.insert(int(i));
            for (std::size_t i = 0; i < g.edges().size(); ++i) {
                const int a = g.nodes()[std::size_t(g.edges()[i].from)].rank;
                const int b = g.nodes()[std::size_t(g.edges()[i].to)].rank;
                if (std::min(a, b) <= lastRank && std::max(a, b) >= first)
                    edges.insert(int(i));
            }
            const auto inRows = g.nodesInRanks(first, lastRank);
            const auto edgesInRows = g.edgesInRanks(first, lastRank);
            CHECK(std::set<int>(inRows.begin(), inRows.end()) == nodes);
            CHECK(std::set<int>(edgesInRows.begin(), edgesInRows.end()) == edges);
        }
    CHECK(g.maximum(OperationGraph::Cycles) == 15);

    // Relaid out with other layers open: the same as built from scratch, the operations shared.
    const OperationGraph closedOne = g.withExpanded({0});
    const OperationGraph fresh(r, {0});
    CHECK(&closedOne.operations() == &g.operations());
    REQUIRE(closedOne.nodes().size() == fresh.nodes().size());
    REQUIRE(closedOne.edges().size() == fresh.edges().size());
    for (std::size_t i = 0; i < fresh.nodes().size(); ++i) {
        CHECK(closedOne.nodes()[i].operation == fresh.nodes()[i].operation);
        CHECK(closedOne.nodes()[i].rank == fresh.nodes()[i].rank);
        CHECK(closedOne.nodes()[i].column == fresh.nodes()[i].column);
        CHECK(closedOne.nodes()[i].inputs == fresh.nodes()[i].inputs);
    }
    REQUIRE(closedOne.frames().size() == 1);
    CHECK(closedOne.frames()[0].operation == 0);

    // Hit-testing looks in the row under the point only: every box is found at its centre,
    // zoomed out and in, and the gap between rows holds none.
    OperationGraphWidget widget;
    widget.resize(800, 600);
    widget.setGraph(std::make_shared<const OperationGraph>(g));
    for (double scale : {0.0, 2.5}) {
        if (scale > 0)
            widget.zoomTo(scale, QPointF(widget.layoutSize().width() / 2, 0));
        else
            widget.fit();
        for (std::size_t i = 0; i < g.nodes().size(); ++i) {
            const QRectF r = widget.nodeRect(int(i));
            if (QRectF(widget.rect()).contains(r.center()))
                CHECK(widget.nodeAt(r.center()) == int(i));
        }
    }
    widget.fit();
    const QRectF first = widget.nodeRect(g.nodesInRanks(0, 0).front());
    CHECK(widget.nodeAt(QPointF(first.center().x(), first.bottom() + 2)) == -1);
}
