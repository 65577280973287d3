// LivenessModel and LiveVariablesModel against the reader's steps and variables.
#include "TestReports.hpp"
#include "liveness/LiveVariablesModel.hpp"
#include "liveness/LivenessModel.hpp"
#include "liveness/LivenessStepDiffModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

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

    // A compute step lists the vertices of its compute set and its cycle estimate.
    const auto compute = *std::find_if(steps.begin(), steps.end(), [](const auto& s) {
        return s.kind == "OnTileExecute" && s.computeSetId.has_value();
    });
    std::uint64_t vertices = 0;
    for (const auto& vi : reader.vertexInstances(*compute.computeSetId))
        vertices += vi.count;
    REQUIRE(vertices > 0);
    loaded.clear();
    model.showStep(compute.id);
    REQUIRE(gui::test::waitFor(loaded));
    REQUIRE(model.stepInfo().id == compute.id);
    REQUIRE(model.stepInfo().vertexCount == vertices);
    REQUIRE(model.stepInfo().estimatedCycles == compute.estimatedCycles);
    REQUIRE(!model.stepInfo().vertexTypes.isEmpty());

    SECTION("the step's vertices by type: instances, tiles, state and code bytes") {
        std::map<std::int64_t, report::VertexTypeRecord> types;
        for (const auto& t : reader.vertexTypes())
            types[t.id] = t;
        const auto instances = reader.vertexInstances(*compute.computeSetId, true);
        const RecordTableModel& table = model.vertices();
        REQUIRE(table.rowCount() == int(instances.size()));
        std::uint64_t listed = 0;
        for (const auto& vi : instances) {
            const auto& type = types.at(vi.vertexTypeId);
            const auto row = std::find_if(table.rows().begin(), table.rows().end(), [&](auto& r) {
                return r[0].toString().toStdString() == type.name;
            });
            REQUIRE(row != table.rows().end());
            std::uint64_t tiles = 0;
            for (auto n : vi.perTile)
                tiles += n > 0;
            REQUIRE((*row)[1].toULongLong() == vi.count);
            REQUIRE((*row)[2].toULongLong() == tiles);
            REQUIRE((*row)[3].toULongLong() == vi.count * type.stateBytes);
            REQUIRE((*row)[4].toULongLong() == tiles * type.codeBytes);
            listed += (*row)[1].toULongLong();
        }
        REQUIRE(listed == vertices);
    }
    SECTION("cycle estimates per tile: the slowest tile is the step's estimate") {
        const auto withTiles = reader.steps(compute.id, 1, true).front();
        REQUIRE(!withTiles.estimatedPerTile.empty());
        const auto& info = model.stepInfo();
        REQUIRE(info.slowestTile >= 0);
        REQUIRE(withTiles.estimatedPerTile[std::size_t(info.slowestTile)] ==
                compute.estimatedCycles);
        std::uint64_t busy = 0, sum = 0;
        for (auto c : withTiles.estimatedPerTile)
            if (c)
                ++busy, sum += c;
        REQUIRE(info.busyTiles == busy);
        REQUIRE(info.meanBusyTileCycles == Approx(double(sum) / double(busy)));
    }
    SECTION("the always-live variables, the same at every step") {
        const auto alwaysLive = reader.largestAlwaysLiveVariables(1000000);
        REQUIRE(!alwaysLive.empty());
        const RecordTableModel& table = model.alwaysLiveVariables();
        REQUIRE(table.rowCount() == int(alwaysLive.size()));
        std::uint64_t bytes = 0;
        for (std::size_t i = 0; i < alwaysLive.size(); ++i) {
            REQUIRE(table.value(int(i), 0).toString().toStdString() == alwaysLive[i].name);
            REQUIRE(table.value(int(i), 1).toULongLong() == alwaysLive[i].bytes);
            bytes += alwaysLive[i].bytes;
        }
        REQUIRE(model.stepInfo().alwaysLiveBytes == bytes);
        REQUIRE(model.stepInfo().alwaysLiveCount == alwaysLive.size());
    }

    QSignalSpy failed(&model, &LiveVariablesModel::failed);
    model.showStep(100000);
    REQUIRE(gui::test::waitFor(failed));
    REQUIRE(failed.front().front().toString().contains("100000"));
    REQUIRE(model.rowCount() == 0);
}

TEST_CASE("Liveness per IPU and per selected tiles matches the variables live at each step") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const auto steps = reader.steps(0, reader.counts().steps);
    const std::uint32_t perIpu = reader.target().tilesPerIpu;
    REQUIRE(reader.target().numIpus == 2);

    const auto ipus = LivenessModel::fetchGroups(*session, LivenessModel::PerIpu, {});
    REQUIRE(ipus.groups() == 2);
    REQUIRE(ipus.stepCount() == 300);
    // Always-live bytes per IPU add up to the report's always-live total.
    REQUIRE(ipus.alwaysLive(0) + ipus.alwaysLive(1) == double(session->summary().alwaysLiveBytes));
    REQUIRE(ipus.alwaysLive(0) > 0);
    REQUIRE(ipus.alwaysLive(1) > 0);

    const auto selection = TileSelection::range(60, 69); // straddles the two IPUs
    const auto selected =
        LivenessModel::fetchGroups(*session, LivenessModel::SelectedTiles, selection);
    REQUIRE(selected.groups() == 1);

    double peak = 0;
    for (std::int64_t s = 0; s < 300; ++s) {
        const report::PerTile live = reader.notAlwaysLiveBytesAt(s);
        double ipu0 = 0, ipu1 = 0, chosen = 0;
        for (std::uint32_t t = 0; t < live.size(); ++t) {
            (t < perIpu ? ipu0 : ipu1) += double(live[t]);
            if (t >= 60 && t <= 69)
                chosen += double(live[t]);
        }
        INFO("step " << s);
        REQUIRE(ipus.notAlwaysLiveAt(0, s) == ipu0);
        REQUIRE(ipus.notAlwaysLiveAt(1, s) == ipu1);
        REQUIRE(ipu0 + ipu1 == double(steps[std::size_t(s)].notAlwaysLiveBytes));
        REQUIRE(selected.notAlwaysLiveAt(0, s) == chosen);
        peak = std::max({peak, ipus.alwaysLive(0) + ipu0, ipus.alwaysLive(1) + ipu1});
    }
    REQUIRE(ipus.peakTotal() == peak);

    SECTION("windows: exact per step zoomed in, an envelope of their steps zoomed out") {
        const auto exact = ipus.window(0, 300, 1000);
        REQUIRE(exact.size() == 300);
        for (const auto& c : exact)
            for (int g = 0; g < 2; ++g) {
                REQUIRE(c.firstStep == c.lastStep);
                REQUIRE(c.minNotAlwaysLive[std::size_t(g)] == ipus.notAlwaysLiveAt(g, c.firstStep));
                REQUIRE(c.maxNotAlwaysLive[std::size_t(g)] == ipus.notAlwaysLiveAt(g, c.firstStep));
            }
        for (int width : {3, 7, 40}) {
            const auto cols = ipus.window(0, 300, width);
            REQUIRE(cols.size() == std::size_t(width));
            REQUIRE(cols.front().firstStep == 0);
            REQUIRE(cols.back().lastStep == 299);
            double top = 0;
            for (const auto& c : cols)
                for (int g = 0; g < 2; ++g) {
                    for (std::int64_t s = c.firstStep; s <= c.lastStep; ++s) {
                        REQUIRE(c.minNotAlwaysLive[std::size_t(g)] <= ipus.notAlwaysLiveAt(g, s));
                        REQUIRE(c.maxNotAlwaysLive[std::size_t(g)] >= ipus.notAlwaysLiveAt(g, s));
                    }
                    top = std::max(top, ipus.alwaysLive(g) + c.maxNotAlwaysLive[std::size_t(g)]);
                }
            REQUIRE(top == peak); // zoomed out, no peak is hidden
        }
    }
    SECTION("the model builds the series on a worker") {
        LivenessModel model(session);
        QSignalSpy groups(&model, &LivenessModel::groupsChanged);
        model.setGrouping(LivenessModel::SelectedTiles, selection);
        REQUIRE(model.groupSeries() == nullptr);
        groups.clear();
        REQUIRE(gui::test::waitFor(groups));
        REQUIRE(model.groupSeries() != nullptr);
        REQUIRE(model.groupSeries()->notAlwaysLiveAt(0, 150) == selected.notAlwaysLiveAt(0, 150));
        REQUIRE(model.groupWindow(0, 300, 50).size() == 50);
        model.setGrouping(LivenessModel::AllTiles);
        REQUIRE(model.groupSeries() == nullptr);
    }
}

TEST_CASE("Comparing two steps lists the variables that became or stopped being live") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const auto steps = reader.steps(0, reader.counts().steps);
    const auto all = reader.variables(-1, reader.counts().variables + 1); // every id
    auto liveAt = [](const report::VariableRecord& v, std::int64_t s) {
        return !v.alwaysLive && v.firstStep && *v.firstStep <= s && *v.lastStep >= s;
    };
    for (auto [from, to] :
         {std::pair<std::int64_t, std::int64_t>{10, 140}, {140, 10}, {0, 299}, {77, 78}}) {
        const auto c = StepLiveDiff::fetch(reader, from, to);
        INFO("steps " << from << " -> " << to);
        std::uint64_t became = 0, stopped = 0;
        std::size_t becameCount = 0, stoppedCount = 0;
        for (const auto& v : all) {
            if (liveAt(v, to) && !liveAt(v, from))
                became += v.bytes, ++becameCount;
            if (liveAt(v, from) && !liveAt(v, to))
                stopped += v.bytes, ++stoppedCount;
        }
        REQUIRE(c.becameLive.size() == becameCount);
        REQUIRE(c.stoppedLive.size() == stoppedCount);
        REQUIRE(c.becameLiveBytes == became);
        REQUIRE(c.stoppedLiveBytes == stopped);
        for (const auto& v : c.becameLive)
            REQUIRE((liveAt(v, to) && !liveAt(v, from)));
        REQUIRE(c.fromBytes == steps[std::size_t(from)].notAlwaysLiveBytes);
        REQUIRE(c.toBytes == steps[std::size_t(to)].notAlwaysLiveBytes);
        // Not-always-live bytes of a step are the sum of its live variables, so the change
        // between two steps is what became live minus what stopped.
        REQUIRE(c.byteDelta() == std::int64_t(became) - std::int64_t(stopped));
    }
    REQUIRE(StepLiveDiff::fetch(reader, 10, 140).becameLive.size() > 0);

    SECTION("the table model: one row per change, signed bytes") {
        LivenessStepDiffModel model(session);
        QSignalSpy done(&model, &LivenessStepDiffModel::compared);
        model.compare(10, 140);
        REQUIRE(gui::test::waitFor(done));
        const auto& c = model.comparison();
        REQUIRE(model.rowCount() == int(c.becameLive.size() + c.stoppedLive.size()));
        qlonglong sum = 0;
        for (int r = 0; r < model.rowCount(); ++r)
            sum += model.value(r, 2).toLongLong();
        REQUIRE(sum == c.byteDelta());
    }
    SECTION("a step outside the program is an error naming it") {
        REQUIRE_THROWS_WITH(StepLiveDiff::fetch(reader, 0, 300),
                            Catch::Contains("no program step 300"));
    }
}
