// The comparison library on two small reports written with ProfileWriter, where every number is
// known (TwoReports.hpp): exact summary, per-tile, program, operation, liveness and execution
// figures, and a report compared with an identical copy of itself.

#include "TwoReports.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ReportComparison.hpp"
#include "tilescope/report/StructureComparison.hpp"

#include <catch2/catch.hpp>
#include <map>

using namespace tilescope::report;
using namespace tilescope::testing;

namespace {

const std::vector<ExecutedStep> kSourceRun = {{"a", 100}, {"b", 200}, {"a", 100}, {"b", 200}};
const std::vector<ExecutedStep> kTargetRun = {
    {"a", 100}, {"c", 300}, {"a", 120}, {"c", 300}, {"a", 100}};

struct Pair {
    ScratchFolder dir{"exact"};
    std::filesystem::path source = dir / "source.pop";
    std::filesystem::path target = dir / "target.pop";
    Pair() {
        writeTwoReportsVariant(source, {Variant::Source, kSourceRun});
        writeTwoReportsVariant(target, {Variant::Target, kTargetRun});
    }
};

const ProgramDelta& programRow(const ProgramComparison& c, const std::string& path) {
    for (const auto& r : c.rows)
        if (r.path == path)
            return r;
    FAIL("no program row " << path);
    throw std::logic_error("unreachable");
}

const OperationDelta& operationRow(const OperationComparison& c, const std::string& name) {
    for (const auto& r : c.rows)
        if (r.name == name)
            return r;
    FAIL("no operation row " << name);
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("summary comparison gives every figure of both reports and their exact difference") {
    Pair p;
    const ProfileReader source(p.source.string()), target(p.target.string());
    const SummaryComparison c = compareSummaries(source, target);

    const auto* total = c.figure("total_bytes_including_gaps");
    REQUIRE(total);
    CHECK(total->value.source == 1040);
    CHECK(total->value.target == 1190);
    CHECK(total->value.difference() == 150);
    REQUIRE(total->value.percentChange());
    CHECK(*total->value.percentChange() == Approx(100.0 * 150 / 1040));
    CHECK(c.figure("total_bytes_excluding_gaps")->value.difference() == 150);
    CHECK(c.figure("always_live_bytes")->value.source == 1000);
    CHECK(c.figure("always_live_bytes")->value.target == 1150);
    CHECK(c.figure("max_tile_bytes_including_gaps")->value.source == 410);
    CHECK(c.figure("max_tile_bytes_including_gaps")->value.target == 510);
    CHECK(c.figure("capacity_bytes")->value.difference() == 0);
    CHECK(c.figure("tiles_over_capacity")->value.target == 0);
    CHECK(c.figure("programs")->value.source == 3);
    CHECK(c.figure("steps")->value.target == 2);
    CHECK(c.figure("no_such_figure") == nullptr);
    CHECK(c.targetDifferences.empty());
    CHECK_FALSE(c.source.outOfMemory);

    std::map<std::string, SummaryComparison::Category> categories;
    for (const auto& cat : c.categories)
        categories.emplace(cat.name, cat);
    REQUIRE(categories.count("gap"));
    CHECK(categories.at("gap").bytes.difference() == 0);
    CHECK(categories.at("always_live_variables").bytes.difference() == 150);
    CHECK(categories.at("always_live_variables").maxTileBytes.source == 400);
    CHECK(categories.at("always_live_variables").maxTileBytes.target == 500);

    REQUIRE(c.regions.size() == 1);
    CHECK(c.regions[0].name == "non_interleaved");
    CHECK(c.regions[0].bytesIncludingGaps.difference() == 150);

    // Runs are paired by position; totals as the reader reports them.
    REQUIRE(c.runs.size() == 1);
    CHECK(c.runs[0].cycles.source == source.runs().at(0).totalCycles);
    CHECK(c.runs[0].cycles.source == 600);
    CHECK(c.runs[0].cycles.target == 920);
    CHECK(c.runs[0].steps.source == 4);
    CHECK(c.runs[0].steps.target == 5);
}

TEST_CASE("target differences and a missing run are reported, not dropped") {
    ScratchFolder dir("target");
    writeTwoReportsVariant(dir / "a.pop", {Variant::Source, kSourceRun});
    writeTwoReportsVariant(dir / "b.pop", {Variant::Source, {}});
    const ProfileReader a((dir / "a.pop").string()), b((dir / "b.pop").string());
    const auto c = compareSummaries(a, b);
    REQUIRE(c.runs.size() == 1);
    CHECK(c.runs[0].cycles.inSource);
    CHECK_FALSE(c.runs[0].cycles.inTarget);
    CHECK(c.runs[0].cycles.difference() == -600);
    CHECK(c.figure("runs")->value.difference() == -1);
}

TEST_CASE("memory per tile: both series, the difference, worst tiles first") {
    Pair p;
    const ProfileReader source(p.source.string()), target(p.target.string());
    const auto c = compareTileMemory(source, target);
    CHECK(c.sameTileCount);
    CHECK(c.source == PerTile{110, 210, 310, 410});
    CHECK(c.target == PerTile{110, 270, 300, 510});
    CHECK(c.difference == std::vector<std::int64_t>{0, 60, -10, 100});
    CHECK(c.byIncrease == std::vector<std::uint32_t>{3, 1, 0, 2});
    const auto worst = c.worstTiles(2);
    REQUIRE(worst.size() == 2);
    CHECK(worst[0].tile == 3);
    CHECK(worst[0].difference() == 100);
    CHECK(worst[1].tile == 1);
    const auto noGaps = compareTileMemory(source, target, false);
    CHECK(noGaps.source == PerTile{100, 200, 300, 400});
}

TEST_CASE("programs are matched by name path and debug path, with added and removed rows") {
    Pair p;
    const ProfileReader source(p.source.string()), target(p.target.string());
    StructureComparison s(source, target);
    const auto& c = s.programs();
    CHECK(c.rows.size() == 4);
    CHECK(c.matched == 2);
    CHECK(c.added == 1);
    CHECK(c.removed == 1);
    const auto& main = programRow(c, "main");
    CHECK(main.status == MatchStatus::Matched);
    CHECK_FALSE(main.parentRow);
    // Inclusive cycles: estimated from the steps, executed from the first run.
    CHECK(main.estimatedCycles.source == 300);
    CHECK(main.estimatedCycles.target == 400);
    CHECK(main.executedCycles.source == 600);
    CHECK(main.executedCycles.target == 920);
    const auto& a = programRow(c, "main/a");
    CHECK(a.status == MatchStatus::Matched);
    CHECK(a.executedCycles.source == 200);
    CHECK(a.executedCycles.target == 320);
    CHECK(a.codeBytes.difference() == 0);
    REQUIRE(a.parentRow);
    CHECK(c.rows[*a.parentRow].path == "main");
    const auto& b = programRow(c, "main/b");
    CHECK(b.status == MatchStatus::Removed);
    CHECK(b.sourceId);
    CHECK_FALSE(b.targetId);
    CHECK(b.codeBytes.source == 30);
    CHECK_FALSE(b.codeBytes.inTarget);
    const auto& added = programRow(c, "main/c");
    CHECK(added.status == MatchStatus::Added);
    CHECK(added.depth == 1);
    REQUIRE(added.parentRow);
    CHECK(c.rows[*added.parentRow].path == "main");
    CHECK(added.executedCycles.target == 600);
    CHECK(added.codeBytes.difference() == 70);
}

TEST_CASE(
    "operations are matched by name and debug path with cycle, memory, code and FLOP deltas") {
    Pair p;
    const ProfileReader source(p.source.string()), target(p.target.string());
    StructureComparison s(source, target);
    const auto& c = s.operations();
    CHECK(c.matched == 1);
    CHECK(c.added == 1);
    CHECK(c.removed == 1);
    const auto& mm = operationRow(c, "matMul");
    CHECK(mm.status == MatchStatus::Matched);
    CHECK(mm.executedCycles.source == 200);
    CHECK(mm.executedCycles.target == 320);
    CHECK(mm.estimatedCycles.difference() == 0);
    CHECK(mm.variableBytes.source == 40);
    CHECK(mm.variableBytes.difference() == 0);
    CHECK(mm.codeBytes.source == 50);
    CHECK(mm.flops.difference() == 500);
    const auto& add = operationRow(c, "add");
    CHECK(add.status == MatchStatus::Removed);
    CHECK_FALSE(add.flops.inSource); // no estimate recorded
    CHECK(add.executedCycles.source == 400);
    const auto& relu = operationRow(c, "relu");
    CHECK(relu.status == MatchStatus::Added);
    CHECK(relu.flops.inTarget);
    CHECK(relu.flops.target == 64);
    CHECK(relu.variableBytes.target == 16);
}

TEST_CASE("executed steps are aligned by program identity, regressions first") {
    Pair p;
    const ProfileReader source(p.source.string()), target(p.target.string());
    StructureComparison s(source, target);
    const auto& e = s.execution();
    REQUIRE(e.sourceRun);
    REQUIRE(e.targetRun);
    const auto& a = e.alignment;
    CHECK(a.matched == 2);
    CHECK(a.removed == 2);
    CHECK(a.added == 3);
    CHECK(a.steps.size() == 7);
    CHECK(a.total.source == 600);
    CHECK(a.total.target == 920);
    std::int64_t matchedDelta = 0;
    for (const auto& step : a.steps) {
        if (step.status() != MatchStatus::Matched)
            continue;
        CHECK(s.keyLabel(step.key) == "main/a | csA | OnTileExecute");
        matchedDelta += step.difference();
    }
    CHECK(matchedDelta == 20);
    // The largest regression is an added step of c (300 cycles).
    const auto& worst = a.steps[a.byRegression.front()];
    CHECK(worst.status() == MatchStatus::Added);
    CHECK(worst.difference() == 300);
    CHECK(s.keyLabel(worst.key) == "main/c | csC | OnTileExecute");
}

TEST_CASE("liveness curves are aligned by step identity") {
    Pair p;
    const ProfileReader source(p.source.string()), target(p.target.string());
    StructureComparison s(source, target);
    const auto& l = s.liveness();
    CHECK(l.alignment.matched == 1);
    CHECK(l.alignment.added == 1);
    CHECK(l.alignment.removed == 1);
    CHECK(l.peakNotAlwaysLiveBytes.source == 16);
    CHECK(l.peakNotAlwaysLiveBytes.target == 16);
}

TEST_CASE("a report compared with an identical copy matches everything with zero deltas") {
    ScratchFolder dir("identical");
    writeTwoReportsVariant(dir / "a.pop", {Variant::Target, kTargetRun});
    writeTwoReportsVariant(dir / "b.pop", {Variant::Target, kTargetRun});
    const ProfileReader a((dir / "a.pop").string()), b((dir / "b.pop").string());
    const auto summary = compareSummaries(a, b);
    for (const auto& f : summary.memory)
        CHECK(f.value.difference() == 0);
    for (const auto& t : compareTileMemory(a, b).difference)
        CHECK(t == 0);
    StructureComparison s(a, b);
    CHECK(s.programs().added + s.programs().removed == 0);
    CHECK(s.operations().matched == 2);
    const auto& e = s.execution().alignment;
    CHECK(e.matched == 5);
    CHECK(e.added + e.removed == 0);
    for (const auto& step : e.steps) {
        CHECK(step.source == step.target);
        CHECK(step.difference() == 0);
    }
}

TEST_CASE("host traces are compared per event name: count, total and mean") {
    ScratchFolder dir("host");
    const auto write = [&](const std::string& name, bool target) {
        HostTraceWriter w(dir / name);
        const auto process = w.addProcess(100, "prog", 0);
        const auto thread = w.addThread(process, 101, "main");
        const auto channel = w.addChannel("poplar");
        const auto run = w.intern("Engine::run");
        const auto compile = w.intern(target ? "link" : "compile");
        const auto marker = w.intern("marker");
        w.addEvent(thread, channel, compile, 0, 1000, 0);
        w.addEvent(thread, channel, run, 2000, 2100, 0);
        w.addEvent(thread, channel, run, 3000, target ? 3300 : 3100, 0);
        w.addInstant(thread, channel, marker, 3500, 0);
        w.close();
    };
    write("a.pvti", false);
    write("b.pvti", true);
    const HostTraceReader a((dir / "a.pvti").string()), b((dir / "b.pvti").string());
    const auto c = compareHostTraces(a, b);
    CHECK(c.matched == 2);
    CHECK(c.added == 1);
    CHECK(c.removed == 1);
    std::map<std::string, HostEventDelta> byName;
    for (const auto& e : c.events)
        byName.emplace(e.name, e);
    const auto& run = byName.at("Engine::run");
    CHECK(run.status == MatchStatus::Matched);
    CHECK(run.count.source == 2);
    CHECK(run.totalNs.source == 200);
    CHECK(run.totalNs.target == 400);
    CHECK(run.sourceMeanNs == 100.0);
    CHECK(run.targetMeanNs == 200.0);
    CHECK(byName.at("marker").count.source == 1);
    CHECK(byName.at("marker").totalNs.source == 0);
    CHECK(byName.at("compile").status == MatchStatus::Removed);
    CHECK(byName.at("link").status == MatchStatus::Added);
    // Largest change of total time first: compile and link (1000 ns each way).
    CHECK(std::llabs(c.events.front().totalNs.difference()) == 1000);
}
