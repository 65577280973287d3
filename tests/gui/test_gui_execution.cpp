// ExecutionModel against the reader's runs, run steps and steps.
#include "TestReports.hpp"
#include "execution/ExecutionModel.hpp"
#include "execution/ExecutionRange.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <map>
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

TEST_CASE("ExecutionModel's run figures match the executed steps' per-tile cycles") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const auto steps = reader.steps(0, reader.counts().steps);
    const std::uint32_t tiles = reader.target().numTiles();
    REQUIRE(tiles == 128);

    for (const report::RunRecord& run : reader.runs()) {
        // Expected figures straight from every tile's cycles of every executed step.
        double busy = 0, computeCycles = 0, balanceCycles = 0;
        std::uint64_t streamBytes = 0;
        std::array<std::uint64_t, ExecutionModel::PhaseCount> cycles{};
        for (const auto& rs : reader.runSteps(run, 0, std::int64_t(run.numSteps), true)) {
            const auto& step = steps[std::size_t(rs.stepId)];
            cycles[ExecutionModel::phaseFromName(step.phase)] += rs.cycles;
            REQUIRE(rs.perTile.size() == tiles);
            std::uint64_t sum = 0, max = 0, active = 0;
            for (auto c : rs.perTile) {
                sum += c;
                max = std::max(max, c);
                active += c ? 1 : 0;
            }
            if (step.phase == "compute" || step.phase == "exchange")
                busy += double(sum);
            if (step.phase == "compute") {
                computeCycles += double(rs.cycles);
                balanceCycles += double(sum) / double(active * max) * double(rs.cycles);
            }
            if (step.phase == "stream")
                streamBytes += step.exchangeBytes;
        }
        ExecutionSideReader side(session->path());
        const RunFigures f = ExecutionModel::fetchFigures(*session, side, run);
        INFO("run " << run.id);
        REQUIRE(f.totalCycles == run.totalCycles);
        REQUIRE(f.tiles == tiles);
        REQUIRE(f.phaseCycles == cycles);
        REQUIRE(f.busyTileCycles == Approx(busy));
        REQUIRE(f.parallelEfficiency == Approx(busy / (double(tiles) * double(run.totalCycles))));
        REQUIRE(f.parallelEfficiency > 0.0);
        REQUIRE(f.parallelEfficiency < 1.0);
        for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
            REQUIRE(f.proportions[std::size_t(p)] ==
                    Approx(double(cycles[std::size_t(p)]) / double(total(cycles))));
        REQUIRE(f.computeTileBalance == Approx(balanceCycles / computeCycles));
        REQUIRE(streamBytes > 0);
        REQUIRE(f.streamCopyBytes == streamBytes);
    }

    SECTION("the model loads them with the run") {
        ExecutionModel model(session);
        QSignalSpy changed(&model, &ExecutionModel::runChanged);
        model.load();
        REQUIRE(gui::test::waitFor(changed));
        ExecutionSideReader side(session->path());
        const RunFigures expected = ExecutionModel::fetchFigures(*session, side, *model.run());
        REQUIRE(model.figures().parallelEfficiency == expected.parallelEfficiency);
        REQUIRE(model.figures().streamCopyBytes == expected.streamCopyBytes);
    }
}

namespace {

/// Spans of one flame row must be in order and never overlap.
void requireOrdered(const std::vector<FlameSpan>& row) {
    for (std::size_t i = 0; i < row.size(); ++i) {
        REQUIRE(row[i].firstCycle < row[i].endCycle);
        if (i > 0)
            REQUIRE(row[i - 1].endCycle <= row[i].firstCycle);
    }
}

} // namespace

TEST_CASE("Flame windows nest every executed step under its programs") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const report::RunRecord run = reader.runs().front();
    const auto steps = reader.steps(0, reader.counts().steps);
    ProgramPathCache programs;
    ExecutionModel::Layers flame{ExecutionModel::Flame, 0, 0, &programs};

    SECTION("a window never reads paths: it lists the programs missing from the cache") {
        const auto cold =
            ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 2000, flame);
        REQUIRE(cold.flame.rows.empty());
        REQUIRE(!cold.flame.missing.empty());
        programs.resolve(reader, cold.flame.missing);
        for (std::int64_t id : cold.flame.missing) {
            const auto path = programs.path(id);
            const auto expected = reader.programPath(id);
            REQUIRE(path.size() == expected.size());
            for (std::size_t d = 0; d < path.size(); ++d) {
                REQUIRE(path[d].id == expected[d].id);
                REQUIRE(path[d].name == expected[d].name);
                REQUIRE(path[d].kind == expected[d].kind);
            }
        }
        const auto warm =
            ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 2000, flame);
        REQUIRE(warm.flame.missing.empty());
        REQUIRE(!warm.flame.rows.empty());
    }
    SECTION("the model resolves missing paths off the frame and fills the window in") {
        ExecutionModel model(session);
        QSignalSpy loaded(&model, &ExecutionModel::runChanged);
        model.load();
        REQUIRE(gui::test::waitFor(loaded));
        model.setMode(ExecutionModel::Flame);
        QSignalSpy changed(&model, &ExecutionModel::windowChanged);
        model.requestWindow(0, model.run()->totalCycles, 2000);
        // The first window lands with the programs it lacks, a second one filled in.
        for (int i = 0;
             i < 10 && (model.window().flame.rows.empty() || !model.window().flame.missing.empty());
             ++i) {
            changed.clear();
            REQUIRE(changed.wait(20000));
        }
        REQUIRE(model.window().flame.missing.empty());
        REQUIRE(!model.window().flame.rows.empty());
        REQUIRE(!model.programs().path(model.window().flame.rows.back().front().programId).empty());
    }
    SECTION("zoomed in: one unit per step; each step sits under its program path") {
        programs.resolve(reader,
                         ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 2000, flame)
                             .flame.missing);
        const auto w = ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 2000, flame);
        REQUIRE(w.lodLevel == -1);
        REQUIRE(w.mode == ExecutionModel::Flame);
        REQUIRE(!w.flame.rows.empty());
        for (const auto& row : w.flame.rows)
            requireOrdered(row);
        // The root row accounts for every step once.
        double rootSteps = 0;
        for (const auto& s : w.flame.rows.front())
            rootSteps += s.steps;
        REQUIRE(rootSteps == double(run.numSteps));
        for (const auto& rs : reader.runSteps(run, 0, std::int64_t(run.numSteps))) {
            const auto path = reader.programPath(steps[std::size_t(rs.stepId)].programId);
            REQUIRE(path.size() >= 2);
            REQUIRE(path.back().id == steps[std::size_t(rs.stepId)].programId);
            for (std::size_t d = 0; d < path.size(); ++d) {
                const auto& row = w.flame.rows[d];
                auto it = std::upper_bound(
                    row.begin(), row.end(), rs.startCycle,
                    [](std::uint64_t c, const FlameSpan& s) { return c < s.firstCycle; });
                REQUIRE(it != row.begin());
                --it;
                INFO("step " << rs.stepId << " depth " << d);
                REQUIRE(rs.startCycle < it->endCycle);
                REQUIRE(it->programId == path[d].id);
            }
        }
        // Names come from the cache the window filled.
        REQUIRE(programs.entry(w.flame.rows.back().front().programId).name ==
                reader.program(w.flame.rows.back().front().programId)->name);
    }
    SECTION("zoomed out: pyramid buckets, every step still counted once per row 0") {
        programs.resolve(
            reader,
            ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 5, flame).flame.missing);
        const auto w = ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 5, flame);
        REQUIRE(w.flame.missing.empty());
        REQUIRE(w.lodLevel >= 0);
        REQUIRE(!w.flame.rows.empty());
        double rootSteps = 0;
        for (const auto& s : w.flame.rows.front())
            rootSteps += s.steps;
        REQUIRE(rootSteps == double(run.numSteps));
        for (const auto& row : w.flame.rows) {
            requireOrdered(row);
            REQUIRE(row.back().endCycle <= run.totalCycles);
        }
    }
}

TEST_CASE("BSP windows give each tile's cycles of each step") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const report::RunRecord run = reader.runs().front();
    const auto all = reader.runSteps(run, 0, std::int64_t(run.numSteps), true);
    // Tiles 60..69 straddle the boundary between IPU 0 and IPU 1 (64 tiles each).
    const ExecutionModel::Layers bsp{ExecutionModel::Bsp, 60, 10, nullptr};

    SECTION("zoomed in: the steps of the window with their tiles' cycles") {
        const auto from = all[100].startCycle, to = all[110].startCycle;
        const auto w = ExecutionModel::fetchWindow(*session, run, from, to, 800, bsp);
        REQUIRE(!w.bsp.tooManySteps);
        REQUIRE(w.bsp.perTileRecorded);
        REQUIRE(w.bsp.firstTile == 60);
        REQUIRE(w.bsp.tileCount == 10);
        REQUIRE(w.bsp.steps.size() == 10);
        for (std::size_t i = 0; i < 10; ++i) {
            const auto& s = w.bsp.steps[i];
            const auto& rs = all[100 + i];
            REQUIRE(s.seq == std::int64_t(100 + i));
            REQUIRE(s.stepId == rs.stepId);
            REQUIRE(s.cycles == rs.cycles);
            REQUIRE(s.tileCycles.size() == 10);
            for (std::size_t t = 0; t < 10; ++t)
                REQUIRE(s.tileCycles[t] == rs.perTile[60 + t]);
        }
    }
    SECTION("too many steps: nothing read, the view asks to zoom in") {
        const auto b = BspBands::fetch(reader, run, 0, run.totalCycles, 0, 8, 50);
        REQUIRE(b.tooManySteps);
        REQUIRE(b.steps.empty());
    }
    SECTION("the tile range is clipped to the target") {
        const auto b = BspBands::fetch(reader, run, 0, all[3].startCycle, 120, 64, 50);
        REQUIRE(b.firstTile == 120);
        REQUIRE(b.tileCount == 8);
        REQUIRE(b.steps.size() == 3);
        REQUIRE(b.steps[0].tileCycles.size() == 8);
    }
}

TEST_CASE("A range of a per-tile series decodes like the same range of the whole series") {
    std::vector<std::vector<std::uint64_t>> series;
    std::vector<std::uint64_t> v(300);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = 3000000 + i * 7; // packed 32-bit
    series.push_back(v);
    for (auto& x : v)
        x += std::uint64_t{1} << 50; // packed 64-bit
    series.push_back(v);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = i / 50; // run-length
    series.push_back(v);
    std::fill(v.begin(), v.end(), 0);
    v[3] = 9, v[120] = 4, v[299] = 77; // sparse
    series.push_back(v);
    const std::array<std::uint8_t, 4> tags = {1, 2, 3, 4};
    for (std::size_t k = 0; k < series.size(); ++k) {
        const std::string blob = report::TileSeries::encode(series[k]);
        REQUIRE(std::uint8_t(blob[0]) == tags[k]);
        const auto whole = report::TileSeries::decode(blob.data(), blob.size());
        for (const auto& [first, n] : {std::pair<std::size_t, std::size_t>{0, 300},
                                       {0, 1},
                                       {49, 3},
                                       {100, 64},
                                       {290, 20},
                                       {400, 5}}) {
            INFO("encoding " << int(tags[k]) << " range " << first << "+" << n);
            std::vector<std::uint64_t> part;
            report::TileSeries::decodeRange(blob.data(), blob.size(), first, n, part);
            REQUIRE(part.size() == n);
            for (std::size_t i = 0; i < n; ++i)
                REQUIRE(part[i] == (first + i < whole.size() ? whole[first + i] : 0));
        }
    }
    const std::string cut = report::TileSeries::encode(series[2]).substr(0, 5);
    std::vector<std::uint64_t> part;
    REQUIRE_THROWS_AS(report::TileSeries::decodeRange(cut.data(), cut.size(), 250, 10, part),
                      report::ReportError);
}

TEST_CASE("A range summary sums the executed steps in the range by phase and by program") {
    report::ProfileReader reader(smallReport().string());
    const auto runs = reader.runs();
    REQUIRE(!runs.empty());
    const report::RunRecord& run = runs.front();
    const auto steps = reader.steps(0, reader.counts().steps);
    const auto executed = reader.runSteps(run, 0, std::int64_t(run.numSteps));
    REQUIRE(executed.size() > 20);
    // A range that cuts steps at both ends: a third of the run from the middle of a step.
    const auto& a = executed[executed.size() / 3];
    const auto& b = executed[2 * executed.size() / 3];
    const std::uint64_t from = a.startCycle + a.cycles / 2;
    const std::uint64_t to = b.startCycle + b.cycles / 2 + 1;

    std::array<std::uint64_t, ExecutionModel::PhaseCount> phases{};
    std::map<std::int64_t, std::uint64_t> programCycles;
    std::uint64_t count = 0, bytes = 0;
    for (const auto& rs : executed) {
        const std::uint64_t begin = std::max(rs.startCycle, from);
        const std::uint64_t end = std::min(rs.startCycle + rs.cycles, to);
        if (rs.startCycle >= to || rs.startCycle + rs.cycles <= from)
            continue;
        const auto& step = steps[std::size_t(rs.stepId)];
        ++count;
        bytes += step.exchangeBytes;
        phases[ExecutionModel::phaseFromName(step.phase)] += end - begin;
        programCycles[step.programId] += end - begin;
    }
    REQUIRE(count > 2);

    const RangeSummary sum = RangeSummary::fetch(reader, run, from, to);
    CHECK(sum.firstCycle == from);
    CHECK(sum.endCycle == to);
    CHECK(sum.steps == count);
    CHECK(sum.exchangeBytes == bytes);
    CHECK_FALSE(sum.truncated);
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        CHECK(sum.phaseCycles[std::size_t(p)] == phases[std::size_t(p)]);
    CHECK(sum.cycles() <= to - from); // steps do not overlap
    CHECK(sum.cycles() > 0);
    REQUIRE(sum.programs.size() == programCycles.size());
    for (std::size_t i = 0; i < sum.programs.size(); ++i) {
        CHECK(sum.programs[i].cycles == programCycles.at(sum.programs[i].programId));
        if (i > 0)
            CHECK(sum.programs[i - 1].cycles >= sum.programs[i].cycles); // largest first
        const auto record = reader.program(sum.programs[i].programId);
        REQUIRE(record);
        CHECK(sum.programs[i].name == (record->name.empty() ? record->kind : record->name));
    }
    // An empty range holds nothing.
    CHECK(RangeSummary::fetch(reader, run, from, from).steps == 0);
}
