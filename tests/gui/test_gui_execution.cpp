// ExecutionModel against the reader's runs, run steps and steps.
#include "ExecutionModel.hpp"
#include "TestReports.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <catch2/catch.hpp>
#include <numeric>

using namespace tilescope;
using namespace tilescope::gui;
using gui::test::openSession;
using gui::test::smallReport;

namespace {

/// Cycles per phase of a run, straight from its executed steps and their program steps.
std::array<std::uint64_t, ExecutionModel::PhaseCount>
phaseCyclesFromSteps(const report::ProfileReader& reader, const report::RunRecord& run) {
    std::array<std::uint64_t, ExecutionModel::PhaseCount> t{};
    const auto steps = reader.steps(0, reader.counts().steps);
    for (const auto& rs : reader.runSteps(run, 0, std::int64_t(run.numSteps)))
        t[ExecutionModel::phaseFromName(steps[std::size_t(rs.stepId)].phase)] += rs.cycles;
    return t;
}

std::uint64_t total(const std::array<std::uint64_t, ExecutionModel::PhaseCount>& a) {
    return std::accumulate(a.begin(), a.end(), std::uint64_t(0));
}

} // namespace

TEST_CASE("ExecutionModel loads the runs and their cycles per phase") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    ExecutionModel model(session);
    QSignalSpy changed(&model, &ExecutionModel::runChanged);
    model.load();
    REQUIRE(gui::test::waitFor(changed));
    const auto runs = reader.runs();
    REQUIRE(model.runs().size() == runs.size());
    REQUIRE(model.run()->id == runs.front().id);
    const auto expected = phaseCyclesFromSteps(reader, runs.front());
    REQUIRE(model.phaseCycles() == expected);
    REQUIRE(total(expected) == runs.front().totalCycles); // steps run back to back

    changed.clear();
    model.setCurrentRun(1);
    REQUIRE(gui::test::waitFor(changed));
    REQUIRE(model.run()->id == runs[1].id);
    REQUIRE(model.phaseCycles() == phaseCyclesFromSteps(reader, runs[1]));
}

TEST_CASE("ExecutionModel windows account for every cycle at every zoom level") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const report::RunRecord run = reader.runs().front();
    const auto expected = phaseCyclesFromSteps(reader, run);

    SECTION("pyramid when there are many steps per pixel, steps otherwise; no cycle lost") {
        for (int width : {5, 40, 119}) {
            const auto w = ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, width);
            INFO("width " << width << ", level " << w.lodLevel);
            // 300 steps: more than 4 per pixel at 5 and 40 pixels, fewer at 119.
            REQUIRE((w.lodLevel >= 0) == (width < 75));
            REQUIRE(w.columns.size() == std::size_t(width));
            std::array<double, ExecutionModel::PhaseCount> sum{};
            for (const auto& c : w.columns)
                for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
                    sum[std::size_t(p)] += c.cycles[std::size_t(p)];
            for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
                REQUIRE(sum[std::size_t(p)] == Approx(double(expected[std::size_t(p)])));
        }
    }
    SECTION("a window inside the run counts only its own cycles") {
        const std::uint64_t from = run.totalCycles / 4, to = run.totalCycles / 2;
        const auto w = ExecutionModel::fetchWindow(*session, run, from, to, 10);
        REQUIRE(w.lodLevel >= 0);
        double covered = 0;
        for (const auto& c : w.columns)
            for (double x : c.cycles)
                covered += x;
        REQUIRE(covered == Approx(double(to - from)).epsilon(0.05));
    }
    SECTION("zoomed in: executed steps, split exactly at column edges") {
        const auto spans = reader.runStepSpans(run, 0, run.totalCycles, 1000);
        REQUIRE(spans.size() == run.numSteps);
        const auto& s = spans[100];
        const std::uint64_t from = s.startCycle, to = s.startCycle + 3 * s.cycles;
        const auto w = ExecutionModel::fetchWindow(*session, run, from, to, 600);
        REQUIRE(w.lodLevel == -1);
        double covered = 0;
        for (const auto& c : w.columns)
            for (double x : c.cycles)
                covered += x;
        REQUIRE(covered == double(to - from));
        const auto& first = w.columns.front();
        REQUIRE(first.step);
        REQUIRE(first.step->seq == 100);
        REQUIRE(first.step->stepId == s.stepId);
        REQUIRE(first.step->phase == reader.steps(s.stepId, 1).front().phase);
    }
}
