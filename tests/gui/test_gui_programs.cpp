// ProgramTreeModel (lazy children, steps of leaf programs) and the Program Tree view.
#include "TestReports.hpp"
#include "programs/ProgramTreeModel.hpp"
#include "programs/ProgramTreeView.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <QTreeView>
#include <catch2/catch.hpp>

using namespace tilescope;
using namespace tilescope::gui;
using gui::test::openSession;
using gui::test::smallReport;

namespace {

/// Fetches the children of `parent` and waits until they are inserted.
void fetch(ProgramTreeModel& model, const QModelIndex& parent) {
    REQUIRE(model.canFetchMore(parent));
    QSignalSpy done(&model, &ProgramTreeModel::fetchFinished);
    model.fetchMore(parent);
    REQUIRE(gui::test::waitFor(done));
    REQUIRE_FALSE(model.canFetchMore(parent));
}

} // namespace

TEST_CASE("ProgramTreeModel loads roots, then children only when asked") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    ProgramTreeModel model(session);
    REQUIRE(model.rowCount() == 0);
    fetch(model, {});

    const auto roots = reader.children(std::nullopt);
    REQUIRE(model.rowCount() == int(roots.size()));
    REQUIRE(model.columnCount() == ProgramTreeModel::ColumnCount);
    for (std::size_t i = 0; i < roots.size(); ++i) {
        const QModelIndex index = model.index(int(i), 0);
        REQUIRE(model.programAt(index)->id == roots[i].id);
        REQUIRE(index.data().toString().startsWith(QString::fromStdString(roots[i].name)));
        REQUIRE(model.hasChildren(index));
        REQUIRE(model.rowCount(index) == 0); // nothing read below the roots yet
    }
    // The entry point is labelled with its engine program.
    REQUIRE(model.index(0, 0).data().toString().contains("engine program 0"));

    const QModelIndex root = model.index(0, 0);
    fetch(model, root);
    const auto level1 = reader.children(roots.front().id);
    REQUIRE(model.rowCount(root) == int(level1.size()));
    for (std::size_t i = 0; i < level1.size(); ++i) {
        const QModelIndex child = model.index(int(i), 0, root);
        REQUIRE(model.parent(child) == root);
        REQUIRE(child.data().toString().toStdString() == level1[i].name);
        REQUIRE(model.index(int(i), ProgramTreeModel::KindColumn, root)
                    .data()
                    .toString()
                    .toStdString() == level1[i].kind);
    }
}

TEST_CASE("ProgramTreeModel lists the lowered steps under a leaf program") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    ProgramTreeModel model(session);
    fetch(model, {});
    QModelIndex node = model.index(0, 0);
    // Walk down the first children until a program without child programs.
    while (!reader.children(model.programAt(node)->id).empty()) {
        fetch(model, node);
        node = model.index(0, 0, node);
    }
    const auto* leaf = model.programAt(node);
    const auto steps = reader.stepsOfProgram(leaf->id);
    REQUIRE(!steps.empty());
    fetch(model, node);
    REQUIRE(model.rowCount(node) == int(steps.size()));
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const QModelIndex s = model.index(int(i), 0, node);
        REQUIRE(model.stepAt(s)->id == steps[i].id);
        REQUIRE_FALSE(model.hasChildren(s));
        REQUIRE_FALSE(model.canFetchMore(s));
    }

    QSignalSpy details(&model, &ProgramTreeModel::detailsReady);
    model.requestDetails(node);
    REQUIRE(gui::test::waitFor(details));
    const auto d = details.front().front().value<ProgramTreeModel::ProgramDetails>();
    REQUIRE(d.program.id == leaf->id);
    REQUIRE(d.steps == std::int64_t(steps.size()));
    std::uint64_t cycles = 0;
    for (const auto& s : steps)
        cycles += s.estimatedCycles;
    REQUIRE(d.estimatedCycles == cycles);
}

TEST_CASE("ProgramTreeView opens the first entry point two levels deep") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    ProgramTreeView view(session);
    QSignalSpy ready(&view, &ReportView::ready);
    REQUIRE(gui::test::waitFor(ready));
    const QModelIndex root = view.model().index(0, 0);
    REQUIRE(view.tree().isExpanded(root));
    REQUIRE(view.model().rowCount(root) ==
            int(reader.children(view.model().programAt(root)->id).size()));
}

TEST_CASE("ProgramTreeModel search loads the path to each match in turn") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    ProgramTreeModel model(session);
    QSignalSpy found(&model, &ProgramTreeModel::found);
    QSignalSpy notFound(&model, &ProgramTreeModel::notFound);

    // Every program whose name contains "sync", in id order, straight from the reader.
    std::vector<std::int64_t> expected;
    for (auto p = reader.findProgram("SYNC", 0); p; p = reader.findProgram("SYNC", p->id))
        expected.push_back(p->id);
    REQUIRE(expected.size() > 2);
    for (std::size_t i = 0; i < 3; ++i) {
        found.clear();
        model.findNext("sync");
        REQUIRE(gui::test::waitFor(found));
        const QModelIndex index = found.front().front().value<QModelIndex>();
        const auto* program = model.programAt(index);
        REQUIRE(program);
        REQUIRE(program->id == expected[i]);
        REQUIRE(QString::fromStdString(program->name).contains("sync", Qt::CaseInsensitive));
        // The parents are the program's real ancestors.
        std::optional<std::int64_t> parent = program->parentId;
        for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) {
            REQUIRE(parent);
            REQUIRE(model.programAt(p)->id == *parent);
            parent = reader.program(*parent)->parentId;
        }
        REQUIRE_FALSE(parent);
    }
    model.findNext("no such program anywhere");
    REQUIRE(gui::test::waitFor(notFound));
    // LIKE wildcards in the text are literal.
    notFound.clear();
    model.findNext("%");
    REQUIRE(gui::test::waitFor(notFound));
}
