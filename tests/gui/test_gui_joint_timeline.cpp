// The joint host and device timeline on a real capture (the mlp_training example): device rows
// after the host rows, each engine run placed where its host call started and as long as its
// cycles take at the target's clock, inside the host's Engine::run event; its steps as single
// steps when zoomed in and from the run pyramid when zoomed out, with exact cycle totals.
#include "CapturedExample.hpp"
#include "system/DeviceTraceSession.hpp"
#include "system/HostTraceSession.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

using Kind = TimelineModel::RowKind;

struct Joint {
    std::shared_ptr<HostTraceSession> host;
    std::shared_ptr<DeviceTraceSession> device;
    std::unique_ptr<TimelineModel> model;
    int runsRow = -1, stepsRow = -1;
};

Joint openJoint() {
    const auto& capture = test::capturedTraining();
    Joint j;
    j.host = HostTraceSession::open(capture.hostTrace.string());
    // A report folder stands for its profile.pop.
    j.device = DeviceTraceSession::open(capture.profile.parent_path().string());
    j.model = std::make_unique<TimelineModel>(TimelineModel::HostFiles{j.host},
                                              TimelineModel::DeviceFiles{j.device});
    const auto& rows = j.model->rows();
    for (int i = 0; i < int(rows.size()); ++i)
        if (rows[std::size_t(i)].kind == Kind::DeviceTrack)
            (rows[std::size_t(i)].depth == DeviceTraceSession::Runs ? j.runsRow : j.stepsRow) = i;
    return j;
}

std::int64_t deviceEnd(const report::RunRecord& run, double clockHz) {
    return run.hostStartNs + std::llround(double(run.totalCycles) * 1e9 / clockHz);
}

} // namespace

TEST_CASE("Joint timeline: device rows of a captured profile follow the host rows") {
    const Joint j = openJoint();
    const auto& rows = j.model->rows();
    REQUIRE(j.runsRow > 0);
    REQUIRE(j.stepsRow == j.runsRow + 1);
    const auto& header = rows[std::size_t(rows[std::size_t(j.runsRow)].parent)];
    CHECK(header.kind == Kind::Device);
    CHECK(header.label.startsWith("profile.pop: 1 × IPU2, 1.33 GHz"));
    // Every host row comes first.
    for (int i = 0; i < j.runsRow - 1; ++i)
        CHECK(rows[std::size_t(i)].kind != Kind::Device);
    // The axis covers host and device.
    CHECK(j.model->beginNs() == std::min(j.host->beginNs(), j.device->beginNs()));
    CHECK(j.model->endNs() == std::max(j.host->endNs(), j.device->endNs()));
}

TEST_CASE("Joint timeline: each engine run lies inside its host Engine::run call") {
    const Joint j = openJoint();
    const report::ProfileReader reader(test::capturedTraining().profile.string());
    const auto runs = reader.runs();
    const double clockHz = reader.target().clockHz;
    REQUIRE(runs.size() == 2); // autoReport.executionProfileProgramRunCount defaults to 2
    const auto w =
        TimelineModel::fetchWindow(j.model->files(), j.model->rows(), j.model->beginNs(),
                                   j.model->endNs(), 1000, {j.runsRow}, j.model->devices());
    const auto& boxes = w.tracks.at(j.runsRow);
    REQUIRE(boxes.size() == runs.size());

    // The host's Engine::run events (depth 0 of the program's only thread).
    const report::HostTraceReader host(test::capturedTraining().hostTrace.string());
    const auto threads = host.threads();
    REQUIRE(threads.size() == 1);
    std::vector<report::HostEvent> calls;
    for (const auto& e :
         host.events(threads[0].id, 0, host.timeSpan()->first, host.timeSpan()->second, 100000))
        if (j.host->name(e.nameId) == "Engine::run")
            calls.push_back(e);
    REQUIRE(calls.size() >= runs.size());

    for (std::size_t i = 0; i < runs.size(); ++i) {
        INFO("run " << runs[i].id);
        CHECK(boxes[i].startNs == runs[i].hostStartNs);
        CHECK(boxes[i].endNs == deviceEnd(runs[i], clockHz));
        CHECK(boxes[i].cycles == runs[i].totalCycles);
        CHECK(j.model->eventName(j.runsRow, boxes[i].nameId) ==
              QStringLiteral("run %1: program 0").arg(runs[i].id));
        CHECK(j.model->describeBox(j.runsRow, boxes[i])
                  .contains(QStringLiteral("%1 steps").arg(runs[i].numSteps)));
        // The simulated device takes less than the host's call: its span nests in the call.
        const bool inside = std::any_of(calls.begin(), calls.end(), [&](const auto& c) {
            return c.startNs <= boxes[i].startNs && boxes[i].endNs <= c.endNs.value_or(0);
        });
        CHECK(inside);
    }
}

TEST_CASE("Joint timeline: a run's steps, single when zoomed in, from the pyramid when not") {
    const Joint j = openJoint();
    const report::ProfileReader reader(test::capturedTraining().profile.string());
    const auto run = reader.runs().front();
    const double nsPerCycle = 1e9 / reader.target().clockHz;
    const auto spans = reader.runStepSpans(run, 0, run.totalCycles, 1'000'000);
    REQUIRE(spans.size() == run.numSteps);
    std::uint64_t stepCycles = 0;
    for (const auto& s : spans)
        stepCycles += s.cycles;
    const std::int64_t begin = run.hostStartNs;
    const std::int64_t end = deviceEnd(run, reader.target().clockHz);

    SECTION("zoomed in on one run: every step, in order, at its cycle converted to time") {
        // 545 steps over 4000 pixels: single steps.
        const auto w = TimelineModel::fetchWindow(j.model->files(), j.model->rows(), begin, end,
                                                  4000, {j.stepsRow}, j.model->devices());
        const auto& boxes = w.tracks.at(j.stepsRow);
        std::uint64_t cycles = 0, steps = 0;
        for (const auto& b : boxes) {
            cycles += b.cycles;
            steps += b.count;
        }
        CHECK(steps == run.numSteps);
        CHECK(cycles == stepCycles);
        // The first step that is a box of its own sits at its start cycle.
        const auto single =
            std::find_if(boxes.begin(), boxes.end(), [](const auto& b) { return !b.aggregated; });
        REQUIRE(single != boxes.end());
        const auto seq = single->eventId - run.firstRow;
        REQUIRE(seq >= 0);
        REQUIRE(seq < std::int64_t(spans.size()));
        const auto& s = spans[std::size_t(seq)];
        CHECK(single->startNs == begin + std::llround(double(s.startCycle) * nsPerCycle));
        CHECK(single->cycles == s.cycles);
        CHECK(single->colour == DeviceTraceSession::phaseColour(s.phase));
        CHECK(j.model->describeBox(j.stepsRow, *single)
                  .startsWith(QString::fromStdString(s.phase) + " step"));
    }
    SECTION("zoomed out: one box per pixel column from the pyramid, same cycle total") {
        const auto w = TimelineModel::fetchWindow(j.model->files(), j.model->rows(), begin, end, 60,
                                                  {j.stepsRow}, j.model->devices());
        const auto& boxes = w.tracks.at(j.stepsRow);
        REQUIRE_FALSE(boxes.empty());
        CHECK(boxes.size() <= 61);
        std::uint64_t cycles = 0, steps = 0;
        for (const auto& b : boxes) {
            CHECK(b.aggregated);
            cycles += b.cycles;
            steps += b.count;
        }
        CHECK(steps == run.numSteps);
        CHECK(cycles == stepCycles);
        CHECK(j.model->describeBox(j.stepsRow, boxes.front()).contains("steps, mostly"));
    }
    SECTION("the whole trace: runs narrower than two pixels are one box each, no query") {
        const auto w =
            TimelineModel::fetchWindow(j.model->files(), j.model->rows(), j.model->beginNs(),
                                       j.model->endNs(), 200, {j.stepsRow}, j.model->devices());
        const auto& boxes = w.tracks.at(j.stepsRow);
        REQUIRE(boxes.size() == 2);
        CHECK(boxes[0].count == run.numSteps);
        CHECK(boxes[0].cycles == run.totalCycles);
    }
}

TEST_CASE("Joint timeline: a file that is not a profile report is refused by name") {
    const auto& capture = test::capturedTraining();
    try {
        DeviceTraceSession::open(capture.hostTrace.string());
        FAIL("a host trace opened as a profile report");
    } catch (const report::ReportError& e) {
        CHECK(std::string(e.what()).find(capture.hostTrace.filename().string()) !=
              std::string::npos);
    }
}
