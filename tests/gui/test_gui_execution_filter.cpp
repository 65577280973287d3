// The Execution Trace's step filter (StepFilterIndex, ExecutionModel::setStepFilter) and per-IPU
// rows, against figures recomputed here straight from the report's steps and run steps.
#include "TestReports.hpp"
#include "execution/ExecutionModel.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cctype>
#include <map>
#include <set>

using namespace tilescope;
using namespace tilescope::gui;
using gui::test::openSession;
using gui::test::smallReport;

namespace {

using PhaseCycles = std::array<double, ExecutionModel::PhaseCount>;

std::string lower(std::string s) {
    for (auto& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// Lowered steps matching `f`, decided here from the steps and their programs' names.
std::set<std::int64_t> matchingSteps(const report::ProfileReader& reader, const StepFilter& f) {
    std::set<std::int64_t> out;
    std::map<std::int64_t, std::string> names;
    for (const auto& s : reader.steps(0, reader.counts().steps)) {
        auto it = names.find(s.programId);
        if (it == names.end())
            it = names.emplace(s.programId, lower(reader.program(s.programId)->name)).first;
        const bool text = it->second.find(lower(f.text)) != std::string::npos ||
                          lower(s.kind).find(lower(f.text)) != std::string::npos;
        if (text && f.phases[std::size_t(ExecutionModel::phaseFromName(s.phase))])
            out.insert(s.id);
    }
    return out;
}

/// Cycles per phase of the run's matching steps inside [from, to), by brute force.
PhaseCycles bruteMatched(const report::ProfileReader& reader, const report::RunRecord& run,
                         const std::set<std::int64_t>& matching, std::uint64_t from,
                         std::uint64_t to) {
    PhaseCycles out{};
    const auto steps = reader.steps(0, reader.counts().steps);
    for (const auto& rs : reader.runSteps(run, 0, std::int64_t(run.numSteps))) {
        if (!matching.count(rs.stepId))
            continue;
        const auto lo = std::max(from, rs.startCycle);
        const auto hi = std::min(to, rs.startCycle + rs.cycles);
        if (hi > lo)
            out[std::size_t(ExecutionModel::phaseFromName(steps[std::size_t(rs.stepId)].phase))] +=
                double(hi - lo);
    }
    return out;
}

} // namespace

TEST_CASE("A step filter resolves to the steps whose program or kind contains its text") {
    report::ProfileReader reader(smallReport().string());
    const report::RunRecord run = reader.runs().front();
    StepFilter f;
    f.text = "EXCHANGE"; // case ignored: the "layerN/exchange" programs and *Exchange kinds
    const auto expected = matchingSteps(reader, f);
    REQUIRE(!expected.empty());
    REQUIRE(expected.size() < std::size_t(reader.counts().steps));
    const StepFilterIndex index = StepFilterIndex::build(reader, run, f);
    for (std::int64_t id = 0; id < reader.counts().steps; ++id)
        REQUIRE(index.matches(id) == bool(expected.count(id)));
    REQUIRE(index.figures().loweredSteps == expected.size());

    // Whole-run figures, and any cycle range (one inside a step, a few steps, the whole run).
    const auto whole = bruteMatched(reader, run, expected, 0, run.totalCycles);
    const auto& fig = index.figures();
    for (std::size_t p = 0; p < whole.size(); ++p)
        REQUIRE(double(fig.cycles[p]) == whole[p]);
    REQUIRE(fig.totalCycles() > 0);
    REQUIRE(fig.totalCycles() < run.totalCycles);
    const auto steps = reader.runSteps(run, 0, std::int64_t(run.numSteps));
    const std::pair<std::uint64_t, std::uint64_t> ranges[] = {
        {0, run.totalCycles},
        {steps[10].startCycle + 1, steps[10].startCycle + 2},
        {steps[17].startCycle + steps[17].cycles / 2, steps[40].startCycle + 3},
        {steps[5].startCycle, steps[250].startCycle}};
    for (const auto& [from, to] : ranges)
        REQUIRE(index.matchedCycles(from, to) == bruteMatched(reader, run, expected, from, to));
}

TEST_CASE("Phase boxes alone filter by phase, and a filter matching nothing matches nothing") {
    report::ProfileReader reader(smallReport().string());
    const report::RunRecord run = reader.runs().front();
    StepFilter f;
    f.phases = {false, true, false, true}; // exchange and stream copies
    REQUIRE(f.active());
    const StepFilterIndex index = StepFilterIndex::build(reader, run, f);
    const auto totals = reader.runPhaseTotals(run);
    std::uint64_t exchange = 0, stream = 0, streamBytes = 0;
    for (const auto& t : totals) {
        if (t.phase == "exchange")
            exchange = t.cycles;
        if (t.phase == "stream") {
            stream = t.cycles;
            streamBytes = t.exchangeBytes;
        }
    }
    REQUIRE(exchange > 0);
    REQUIRE(index.figures().cycles[ExecutionModel::Exchange] == exchange);
    REQUIRE(index.figures().cycles[ExecutionModel::Stream] == stream);
    REQUIRE(index.figures().cycles[ExecutionModel::Compute] == 0);
    REQUIRE(index.figures().streamCopyBytes == streamBytes);

    StepFilter none;
    none.text = "no program is called this";
    const StepFilterIndex empty = StepFilterIndex::build(reader, run, none);
    REQUIRE(empty.figures().totalCycles() == 0);
    REQUIRE(empty.matchedCycles(0, run.totalCycles) == PhaseCycles{});
    REQUIRE_FALSE(StepFilter().active());
}

TEST_CASE("Filtered windows carry each column's matching cycles, zoomed out and in") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const report::RunRecord run = reader.runs().front();
    StepFilter f;
    f.text = "sync";
    const auto expected = matchingSteps(reader, f);
    const StepFilterIndex index = StepFilterIndex::build(reader, run, f);
    ExecutionModel::Layers layers;
    layers.filter = &index;
    const auto steps = reader.runSteps(run, 0, std::int64_t(run.numSteps));
    // Zoomed out (pyramid buckets) and zoomed in (single steps per column).
    for (const auto& [from, to, width] :
         {std::tuple{std::uint64_t(0), run.totalCycles, 40},
          std::tuple{steps[100].startCycle, steps[104].startCycle, 400}}) {
        const auto w = ExecutionModel::fetchWindow(*session, run, from, to, width, layers);
        REQUIRE(w.filtered);
        if (to == run.totalCycles)
            REQUIRE(w.lodLevel >= 0);
        else
            REQUIRE(w.lodLevel < 0);
        PhaseCycles sum{};
        for (const auto& col : w.columns) {
            REQUIRE(col.matched ==
                    bruteMatched(reader, run, expected, col.firstCycle, col.endCycle));
            for (std::size_t p = 0; p < sum.size(); ++p)
                sum[p] += col.matched[p];
        }
        REQUIRE(sum == bruteMatched(reader, run, expected, from, to));
        REQUIRE(sum[ExecutionModel::Sync] > 0);
    }
    REQUIRE_FALSE(ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 40).filtered);
}

TEST_CASE("ExecutionModel resolves the step filter on a worker and clears it") {
    auto session = openSession(smallReport());
    ExecutionModel model(session);
    QSignalSpy changed(&model, &ExecutionModel::runChanged);
    model.load();
    REQUIRE(gui::test::waitFor(changed));
    REQUIRE(model.stepFilter() == nullptr);
    QSignalSpy filtered(&model, &ExecutionModel::filterChanged);
    StepFilter f;
    f.text = "execute"; // the OnTileExecute kind
    model.setStepFilter(f);
    REQUIRE(model.isFiltering());
    REQUIRE(gui::test::waitFor(filtered));
    REQUIRE(model.stepFilter());
    REQUIRE(model.stepFilter()->filter().text == "execute");
    REQUIRE(model.stepFilter()->figures().totalCycles() > 0);
    const auto firstRun = model.stepFilter()->figures().totalCycles();

    // Another run resolves the same filter again, for that run.
    filtered.clear();
    model.setCurrentRun(1);
    REQUIRE(gui::test::waitFor(filtered));
    REQUIRE(model.stepFilter());
    report::ProfileReader reader(smallReport().string());
    REQUIRE(model.stepFilter()->figures().totalCycles() ==
            StepFilterIndex::build(reader, reader.runs()[1], f).figures().totalCycles());
    REQUIRE(firstRun > 0);

    filtered.clear();
    model.setStepFilter(StepFilter());
    REQUIRE(filtered.size() == 1); // clearing needs no query
    REQUIRE(model.stepFilter() == nullptr);
}

TEST_CASE("Per-IPU rows give each IPU's cycles of each step zoomed in, columns beyond") {
    auto session = openSession(smallReport());
    report::ProfileReader reader(smallReport().string());
    const report::RunRecord run = reader.runs().front();
    const auto all = reader.runSteps(run, 0, std::int64_t(run.numSteps));
    const ExecutionModel::Layers rows{ExecutionModel::PerIpu, 0, 0, nullptr};

    const auto from = all[100].startCycle, to = all[160].startCycle;
    const auto w = ExecutionModel::fetchWindow(*session, run, from, to, 800, rows);
    REQUIRE(w.mode == ExecutionModel::PerIpu);
    REQUIRE(w.ipu.ipus == 2);
    REQUIRE_FALSE(w.ipu.tooManySteps);
    REQUIRE(w.ipu.recorded);
    REQUIRE(w.ipu.steps.size() == 60);
    for (std::size_t i = 0; i < w.ipu.steps.size(); ++i) {
        const auto& s = w.ipu.steps[i];
        const auto& r = all[100 + i];
        REQUIRE(s.seq == std::int64_t(100 + i));
        REQUIRE(s.stepId == r.stepId);
        REQUIRE(s.cycles == r.cycles);
        REQUIRE(r.perIpu.size() == 2);
        REQUIRE(s.ipuCycles == std::vector<std::uint64_t>(r.perIpu.begin(), r.perIpu.end()));
        REQUIRE(*std::max_element(s.ipuCycles.begin(), s.ipuCycles.end()) <= s.cycles);
    }

    // The reader's per-IPU query alone, against the full run-step rows.
    const auto ipu = reader.runStepIpuCycles(run, 7, 3);
    REQUIRE(ipu.size() == 3);
    for (std::size_t i = 0; i < 3; ++i)
        REQUIRE(ipu[i] ==
                std::vector<std::uint64_t>(all[7 + i].perIpu.begin(), all[7 + i].perIpu.end()));

    // The whole run (300 steps, under the limit): some steps keep one IPU idle (the generator's
    // stream copies touch IPU 0 only), so the rows differ.
    REQUIRE(run.numSteps <= std::uint64_t(ExecutionModel::kMaxIpuSteps));
    const auto whole = ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 800, rows);
    REQUIRE(whole.ipu.steps.size() == run.numSteps);
    std::size_t oneIpuIdle = 0;
    for (std::size_t i = 0; i < whole.ipu.steps.size(); ++i) {
        const auto& s = whole.ipu.steps[i];
        REQUIRE(s.ipuCycles ==
                std::vector<std::uint64_t>(all[i].perIpu.begin(), all[i].perIpu.end()));
        oneIpuIdle += s.ipuCycles[0] > 0 && s.ipuCycles[1] == 0;
    }
    REQUIRE(oneIpuIdle > 0);
    REQUIRE(oneIpuIdle < run.numSteps);
    // Past the step limit the rows come per pixel column from the pyramid, no steps are read.
    const IpuRows capped = IpuRows::fetch(reader, run, 0, run.totalCycles, 50, 800);
    REQUIRE_FALSE(capped.tooManySteps);
    REQUIRE(capped.steps.empty());
    REQUIRE(capped.lodLevel >= 0);
    REQUIRE(capped.columns.size() == 800);
    REQUIRE(capped.busy.size() == 800 * 2);
    REQUIRE(
        IpuRows::fetch(reader, run, all[10].startCycle, all[20].startCycle, 50, 800).steps.size() ==
        10);
}

TEST_CASE("Per-IPU rows zoomed out give each IPU's busy cycles of the run from run_ipu_lod") {
    const auto& path = gui::test::perIpuReport();
    auto session = openSession(path);
    report::ProfileReader reader(path.string());
    const report::RunRecord run = reader.runs().front();
    REQUIRE(run.numSteps > std::uint64_t(ExecutionModel::kMaxIpuSteps));
    const ExecutionModel::Layers rows{ExecutionModel::PerIpu, 0, 0, nullptr};

    // The run's per-IPU totals, from every executed step.
    std::vector<double> totals(4, 0.0);
    for (const auto& s : reader.runSteps(run, 0, std::int64_t(run.numSteps))) {
        REQUIRE(s.perIpu.size() == 4);
        for (std::size_t i = 0; i < 4; ++i)
            totals[i] += double(s.perIpu[i]);
    }
    REQUIRE(totals[0] != totals[3]); // the generator's stream copies keep IPUs 1-3 idle

    const auto w = ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 1000, rows);
    const IpuRows& ipu = w.ipu;
    REQUIRE(ipu.ipus == 4);
    REQUIRE(ipu.recorded);
    REQUIRE(ipu.steps.empty());
    REQUIRE(ipu.lodLevel >= w.lodLevel); // as coarse as the flat chart's level or coarser
    REQUIRE(ipu.lodLevel <= w.lodLevel + 1);
    REQUIRE(ipu.columns.size() == 1000);
    for (std::uint32_t i = 0; i < 4; ++i) {
        double sum = 0;
        for (std::size_t c = 0; c < ipu.columns.size(); ++c) {
            sum += ipu.busyCycles(c, i);
            REQUIRE(ipu.busyShare(c, i) >= 0);
            REQUIRE(ipu.busyShare(c, i) <= 1);
        }
        CHECK(sum == Approx(totals[i]).epsilon(1e-9));
    }
    double steps = 0;
    for (const auto& c : ipu.columns)
        steps += c.steps;
    CHECK(steps == Approx(double(run.numSteps)).epsilon(1e-9));

    // Zoomed in to a few hundred steps: step by step again.
    const auto all = reader.runSteps(run, 0, 400);
    const auto in = ExecutionModel::fetchWindow(*session, run, all[100].startCycle,
                                                all[399].startCycle, 1000, rows);
    REQUIRE(in.ipu.lodLevel == -1);
    REQUIRE(in.ipu.steps.size() == 299);
}
