// LivenessModel and LiveVariablesModel against the reader's steps and variables.
#include "LiveVariablesModel.hpp"
#include "LivenessModel.hpp"
#include "TestReports.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

using namespace tilescope;
using namespace tilescope::gui;
using gui::test::openSession;
using gui::test::smallReport;

namespace {

/// Min and max not-always-live bytes of steps [first, last] straight from the step table.
std::pair<double, double> stepRange(const std::vector<report::StepRecord>& steps,
                                    std::int64_t first, std::int64_t last) {
    double lo = 1e300, hi = 0;
    for (std::int64_t s = first; s <= last; ++s) {
        lo = std::min(lo, double(steps[std::size_t(s)].notAlwaysLiveBytes));
        hi = std::max(hi, double(steps[std::size_t(s)].notAlwaysLiveBytes));
    }
    return {lo, hi};
}

} // namespace

TEST_CASE("LivenessModel loads the step count, always-live bytes and the program's peak") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const auto steps = reader.steps(0, reader.counts().steps);
    REQUIRE(steps.size() == 300);

    LivenessModel model(session);
    QSignalSpy loaded(&model, &LivenessModel::loadedChanged);
    model.load();
    REQUIRE(gui::test::waitFor(loaded));
    REQUIRE(model.stepCount() == 300);
    REQUIRE(model.alwaysLiveBytes() == double(session->summary().alwaysLiveBytes));
    double peak = 0;
    for (const auto& s : steps)
        peak = std::max(peak, double(s.notAlwaysLiveBytes));
    REQUIRE(peak > 0);
    REQUIRE(model.peakNotAlwaysLiveBytes() == peak);
}

TEST_CASE("LivenessModel windows match the steps at every zoom level") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const auto steps = reader.steps(0, 300);

    SECTION("zoomed in: one exact point per step") {
        const auto w = LivenessModel::fetchWindow(*session, 100, 120, 800);
        REQUIRE(w.lodLevel == -1);
        REQUIRE(w.points.size() == 20);
        for (std::size_t i = 0; i < w.points.size(); ++i) {
            const auto& p = w.points[i];
            REQUIRE(p.firstStep == 100 + std::int64_t(i));
            REQUIRE(p.lastStep == p.firstStep);
            REQUIRE(p.maxNotAlwaysLive ==
                    double(steps[std::size_t(p.firstStep)].notAlwaysLiveBytes));
        }
    }
    SECTION("zoomed out: at most one point per pixel, covering every step") {
        for (int width : {10, 18, 37, 150}) {
            const auto w = LivenessModel::fetchWindow(*session, 0, 300, width);
            const double stepsPerPixel = 300.0 / width;
            INFO("width " << width << ", level " << w.lodLevel);
            REQUIRE(!w.points.empty());
            REQUIRE(w.points.size() <= std::size_t(width));
            // More than 4 steps per pixel: read from liveness_lod, not from the step rows.
            REQUIRE((w.lodLevel >= 0) == (stepsPerPixel > 4));
            // Buckets of 16 * 4^level steps: exact when one fits in a pixel, else an envelope.
            const bool exact =
                w.lodLevel < 0 || 16.0 * std::pow(4.0, double(w.lodLevel)) <= stepsPerPixel;
            std::int64_t next = 0;
            for (const auto& p : w.points) {
                REQUIRE(p.firstStep == next); // contiguous, nothing skipped
                const auto [lo, hi] = stepRange(steps, p.firstStep, p.lastStep);
                if (exact) {
                    REQUIRE(p.minNotAlwaysLive == lo);
                    REQUIRE(p.maxNotAlwaysLive == hi);
                } else {
                    REQUIRE(p.minNotAlwaysLive <= lo);
                    REQUIRE(p.maxNotAlwaysLive >= hi);
                }
                next = p.lastStep + 1;
            }
            REQUIRE(next == 300);
        }
    }
}

TEST_CASE("LivenessModel answers requestWindow asynchronously with the latest request") {
    auto session = openSession(smallReport());
    LivenessModel model(session);
    QSignalSpy loaded(&model, &LivenessModel::loadedChanged);
    model.load();
    REQUIRE(gui::test::waitFor(loaded));
    QSignalSpy windows(&model, &LivenessModel::windowChanged);
    model.requestWindow(0, 300, 50);
    model.requestWindow(200, 250, 100); // supersedes nothing already running, queued after
    model.requestWindow(200, 260, 100); // replaces the queued one
    while (!(model.window().firstStep == 200 && model.window().endStep == 260))
        REQUIRE(windows.wait(20000));
    REQUIRE(model.window().points.size() == 60);
    REQUIRE(windows.count() <= 2); // the replaced request was never fetched
}

TEST_CASE("LiveVariablesModel lists the variables live at a step") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    LiveVariablesModel model(session);

    // Pick the step with the most not-always-live memory, where the list is longest.
    const auto steps = reader.steps(0, 300);
    const auto peak =
        *std::max_element(steps.begin(), steps.end(), [](const auto& a, const auto& b) {
            return a.notAlwaysLiveBytes < b.notAlwaysLiveBytes;
        });
    QSignalSpy loaded(&model, &LiveVariablesModel::stepLoaded);
    model.showStep(peak.id);
    REQUIRE(gui::test::waitFor(loaded));

    const auto expected = reader.variablesLiveAt(peak.id);
    REQUIRE(!expected.empty());
    REQUIRE(model.rowCount() == int(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        REQUIRE(model.value(int(i), 0).toString().toStdString() == expected[i].name);
        REQUIRE(model.value(int(i), 1).toULongLong() == expected[i].bytes);
        REQUIRE(model.value(int(i), 4).toLongLong() <= peak.id);
        REQUIRE(model.value(int(i), 5).toLongLong() >= peak.id);
    }
    const auto& info = model.stepInfo();
    REQUIRE(info.id == peak.id);
    REQUIRE(info.kind.toStdString() == peak.kind);
    REQUIRE(info.notAlwaysLiveBytes == peak.notAlwaysLiveBytes);
    // The generator derives each step's not-always-live bytes from the variables live there.
    REQUIRE(info.variableBytes == peak.notAlwaysLiveBytes);

    QSignalSpy failed(&model, &LiveVariablesModel::failed);
    model.showStep(100000);
    REQUIRE(gui::test::waitFor(failed));
    REQUIRE(failed.front().front().toString().contains("100000"));
    REQUIRE(model.rowCount() == 0);
}
