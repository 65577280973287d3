// Profile round trip: every record kind written by ProfileWriter is read back by ProfileReader
// with the same values, and the derived figures (tile memory totals, liveness, run totals,
// level-of-detail rows) agree with the records they summarise.

#include "SmallReport.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <numeric>

using namespace tilescope::report;
using tilescope::testing::CompileProfile;
using tilescope::testing::TempDir;

namespace {

std::uint64_t sum(const PerTile& v) {
    return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
}

void checkProgram(const ProgramRecord& got, const ProgramRecord& want) {
    INFO("program " << want.id << " " << want.name);
    CHECK(got.id == want.id);
    CHECK(got.parentId == want.parentId);
    CHECK(got.position == want.position);
    CHECK(got.kind == want.kind);
    CHECK(got.name == want.name);
    CHECK(got.debugPath == want.debugPath);
    CHECK(got.computeSetId == want.computeSetId);
    CHECK(got.repeatCount == want.repeatCount);
    CHECK(got.calleeId == want.calleeId);
    CHECK(got.codeBytes == want.codeBytes);
}

void checkStep(const StepRecord& got, const StepRecord& want, bool withPerTile) {
    INFO("step " << want.id);
    CHECK(got.id == want.id);
    CHECK(got.programId == want.programId);
    CHECK(got.kind == want.kind);
    CHECK(got.phase == want.phase);
    CHECK(got.computeSetId == want.computeSetId);
    CHECK(got.exchangeBytes == want.exchangeBytes);
    CHECK(got.estimatedCycles == want.estimatedCycles);
    CHECK(got.notAlwaysLiveBytes == want.notAlwaysLiveBytes);
    CHECK(got.maxTileNotAlwaysLiveBytes == want.maxTileNotAlwaysLiveBytes);
    CHECK(got.estimatedPerTile == (withPerTile ? want.estimatedPerTile : PerTile{}));
}

void checkVariable(const VariableRecord& got, const VariableRecord& want, bool withPerTile) {
    INFO("variable " << want.name);
    CHECK(got.id == want.id);
    CHECK(got.name == want.name);
    CHECK(got.debugPath == want.debugPath);
    CHECK(got.elementType == want.elementType);
    CHECK(got.numElements == want.numElements);
    CHECK(got.bytes == want.bytes);
    CHECK(got.categoryId == want.categoryId);
    CHECK(got.regionId == want.regionId);
    CHECK(got.alwaysLive == want.alwaysLive);
    CHECK(got.firstStep == want.firstStep);
    CHECK(got.lastStep == want.lastStep);
    CHECK(got.perTile == (withPerTile ? want.perTile : PerTile{}));
}

std::int64_t regionId(const CompileProfile& p, const std::string& name) {
    for (const auto& r : p.target.regions)
        if (r.name == name)
            return r.id;
    FAIL("no region " << name);
    return 0;
}

struct Written {
    TempDir dir{"tilescope-roundtrip"};
    CompileProfile profile;
    static constexpr int kRuns = 2;
    static constexpr std::int64_t kSteps = 3000;

    Written() {
        ProfileWriterOptions options;
        options.lodBaseCycles = 256; // several pyramid levels from a small run
        profile =
            tilescope::testing::writeSmallProfile(dir / "profile.pop", kRuns, kSteps, options);
    }
    std::string path() const { return (dir / "profile.pop").string(); }
};

} // namespace

TEST_CASE("metadata, target and the compile profile read back as written") {
    const Written w;
    const CompileProfile& p = w.profile;
    const ProfileReader r(w.path());

    CHECK(r.file().kind() == FileKind::Profile);
    CHECK(r.file().formatVersion() == Schema::kProfileVersion);
    CHECK(r.file().complete());
    CHECK(r.file().metadataValue("engine_name") == "small");
    CHECK(r.file().metadataValue("command_line") == "./small --flag");
    CHECK(r.hasCompilation());
    CHECK_FALSE(r.outOfMemory());

    const TargetInfo& t = r.target();
    CHECK(t.type == p.target.type);
    CHECK(t.ipuVersion == p.target.ipuVersion);
    CHECK(t.numIpus == p.target.numIpus);
    CHECK(t.tilesPerIpu == p.target.tilesPerIpu);
    CHECK(t.bytesPerTile == p.target.bytesPerTile);
    CHECK(t.clockHz == p.target.clockHz);
    CHECK(t.replicas == p.target.replicas);
    CHECK(t.workerContexts == p.target.workerContexts);
    CHECK(t.exchangeBytesPerCycle == p.target.exchangeBytesPerCycle);
    REQUIRE(t.regions.size() == p.target.regions.size());
    for (std::size_t i = 0; i < t.regions.size(); ++i) {
        CHECK(t.regions[i].id == p.target.regions[i].id);
        CHECK(t.regions[i].name == p.target.regions[i].name);
        CHECK(t.regions[i].interleaved == p.target.regions[i].interleaved);
        CHECK(t.regions[i].startOffset == p.target.regions[i].startOffset);
        CHECK(t.regions[i].sizeBytes == p.target.regions[i].sizeBytes);
    }

    const auto options = r.engineOptions(); // by name
    REQUIRE(options.size() == 2);
    CHECK(options[0].name == "autoReport.all");
    CHECK(options[0].source == "env");
    CHECK(options[1].value == "false");
    CHECK_FALSE(options[1].applies);

    REQUIRE(r.memoryCategories().size() == standardMemoryCategories().size());
    for (std::size_t i = 0; i < r.memoryCategories().size(); ++i) {
        CHECK(r.memoryCategories()[i].id == standardMemoryCategories()[i].id);
        CHECK(r.memoryCategories()[i].name == standardMemoryCategories()[i].name);
        CHECK(r.memoryCategories()[i].liveness == standardMemoryCategories()[i].liveness);
    }

    const ProfileCounts c = r.counts();
    CHECK(c.programs == std::ssize(p.programs));
    CHECK(c.steps == std::ssize(p.steps));
    CHECK(c.computeSets == 2);
    CHECK(c.vertexTypes == 2);
    CHECK(c.vertices ==
          static_cast<std::int64_t>(p.computeSets[0].numVertices + p.computeSets[1].numVertices));
    CHECK(c.variables == std::ssize(p.variables));
    CHECK(c.operations == 2);
    CHECK(c.runs == Written::kRuns);
    CHECK(c.runSteps == Written::kRuns * Written::kSteps);

    SECTION("tile memory per category and region, and its totals") {
        const auto totals = r.tileMemoryTotals();
        REQUIRE(totals.size() == p.tileMemory.size());
        PerTile all(t.numTiles(), 0), noGaps(t.numTiles(), 0);
        for (const auto& [key, bytes] : p.tileMemory) {
            const auto cat = memoryCategoryId(key.first);
            const auto reg = regionId(p, key.second);
            INFO(key.first << " in " << key.second);
            CHECK(r.tileMemory(cat, reg) == bytes);
            const auto row = std::find_if(totals.begin(), totals.end(), [&](const auto& x) {
                return x.categoryId == cat && x.regionId == reg;
            });
            REQUIRE(row != totals.end());
            CHECK(row->totalBytes == sum(bytes));
            CHECK(row->maxTileBytes == *std::max_element(bytes.begin(), bytes.end()));
            for (std::size_t i = 0; i < bytes.size(); ++i) {
                all[i] += bytes[i];
                noGaps[i] += key.first == "gap" ? 0 : bytes[i];
            }
        }
        CHECK(r.tileMemory(memoryCategoryId("stack"), 1) == PerTile(t.numTiles(), 0));
        CHECK(r.tileMemoryTotal(true) == all);
        CHECK(r.tileMemoryTotal(false) == noGaps);
    }

    SECTION("program tree and control programs") {
        for (const auto& want : p.programs) {
            const auto got = r.program(want.id);
            REQUIRE(got);
            checkProgram(*got, want);
        }
        CHECK_FALSE(r.program(1000));
        const auto roots = r.children(std::nullopt);
        REQUIRE(roots.size() == 2);
        CHECK(roots[0].name == "fn");
        CHECK(roots[1].name == "main");
        const auto mainChildren = r.children(roots[1].id);
        REQUIRE(mainChildren.size() == 5);
        for (std::size_t i = 0; i < mainChildren.size(); ++i)
            CHECK(mainChildren[i].position == static_cast<std::int64_t>(i));
        CHECK(mainChildren[4].calleeId == roots[0].id);

        const auto cps = r.controlPrograms();
        REQUIRE(cps.size() == p.controlPrograms.size());
        for (std::size_t i = 0; i < cps.size(); ++i) {
            CHECK(cps[i].index == p.controlPrograms[i].index);
            CHECK(cps[i].programId == p.controlPrograms[i].programId);
            CHECK(cps[i].isFunction == p.controlPrograms[i].isFunction);
            CHECK(cps[i].name == p.controlPrograms[i].name);
        }
    }

    SECTION("steps, with and without per-tile estimates, and by program") {
        const auto all = r.steps(0, 1000, true);
        REQUIRE(all.size() == p.steps.size());
        for (std::size_t i = 0; i < all.size(); ++i)
            checkStep(all[i], p.steps[i], true);
        const auto page = r.steps(3, 2, false);
        REQUIRE(page.size() == 2);
        checkStep(page[0], p.steps[3], false);
        checkStep(page[1], p.steps[4], false);
        const auto ofMatmul = r.stepsOfProgram(p.steps[0].programId);
        REQUIRE(ofMatmul.size() == 2);
        CHECK(ofMatmul[1].kind == "DoExchange");
    }

    SECTION("compute sets, vertex types and instances, operations") {
        const auto cs = r.computeSets(0, 10);
        REQUIRE(cs.size() == 2);
        for (std::size_t i = 0; i < cs.size(); ++i) {
            CHECK(cs[i].id == p.computeSets[i].id);
            CHECK(cs[i].name == p.computeSets[i].name);
            CHECK(cs[i].debugPath == p.computeSets[i].debugPath);
            CHECK(cs[i].numVertices == p.computeSets[i].numVertices);
        }
        CHECK(r.computeSets(cs[0].id, 10).size() == 1); // paging by id

        const auto vt = r.vertexTypes();
        REQUIRE(vt.size() == 2);
        CHECK(vt[0].name == p.vertexTypes[0].name);
        CHECK(vt[1].stateBytes == p.vertexTypes[1].stateBytes);
        CHECK(vt[1].codeBytes == p.vertexTypes[1].codeBytes);

        const auto vi = r.vertexInstances(std::nullopt, true);
        REQUIRE(vi.size() == 2);
        for (std::size_t i = 0; i < vi.size(); ++i) {
            CHECK(vi[i].computeSetId == p.vertexInstances[i].computeSetId);
            CHECK(vi[i].vertexTypeId == p.vertexInstances[i].vertexTypeId);
            CHECK(vi[i].count == p.vertexInstances[i].count);
            CHECK(vi[i].perTile == p.vertexInstances[i].perTile);
        }
        const auto vi2 = r.vertexInstances(p.computeSets[1].id, false);
        REQUIRE(vi2.size() == 1);
        CHECK(vi2[0].perTile.empty());

        const auto ops = r.operations(0, 10);
        REQUIRE(ops.size() == 2);
        for (std::size_t i = 0; i < ops.size(); ++i) {
            auto programs = p.operations[i].programIds, vars = p.operations[i].variableIds;
            std::sort(programs.begin(), programs.end());
            std::sort(vars.begin(), vars.end());
            CHECK(ops[i].id == p.operations[i].id);
            CHECK(ops[i].name == p.operations[i].name);
            CHECK(ops[i].debugPath == p.operations[i].debugPath);
            CHECK(ops[i].layer == p.operations[i].layer);
            CHECK(ops[i].flops == p.operations[i].flops);
            CHECK(ops[i].programIds == programs);
            CHECK(ops[i].variableIds == vars);
        }
    }

    SECTION("variables and liveness") {
        const auto vars = r.variables(0, 100, true);
        REQUIRE(vars.size() == p.variables.size());
        for (std::size_t i = 0; i < vars.size(); ++i)
            checkVariable(vars[i], p.variables[i], true);
        checkVariable(r.variables(2, 1, false).at(0), p.variables[2], false);

        const auto always = r.largestAlwaysLiveVariables(10);
        REQUIRE(always.size() == 2);
        CHECK(always[0].name == "weights");
        CHECK(always[0].bytes >= always[1].bytes);

        for (const auto& step : p.steps) {
            INFO("step " << step.id);
            std::vector<const VariableRecord*> live;
            PerTile expected(t.numTiles(), 0);
            for (const auto& v : p.variables)
                if (!v.alwaysLive && *v.firstStep <= step.id && step.id <= *v.lastStep) {
                    live.push_back(&v);
                    for (std::size_t k = 0; k < expected.size(); ++k)
                        expected[k] += v.perTile[k];
                }
            std::sort(live.begin(), live.end(),
                      [](auto* a, auto* b) { return a->bytes > b->bytes; });
            const auto got = r.variablesLiveAt(step.id, true);
            REQUIRE(got.size() == live.size());
            for (std::size_t i = 0; i < got.size(); ++i)
                checkVariable(got[i], *live[i], true);
            const PerTile nal = r.notAlwaysLiveBytesAt(step.id);
            CHECK(nal == expected);
            CHECK(sum(nal) == step.notAlwaysLiveBytes);
        }
    }
}

TEST_CASE("runs, their steps and the level-of-detail pyramid read back as written") {
    const Written w;
    const CompileProfile& p = w.profile;
    const ProfileReader r(w.path());
    const auto runs = r.runs();
    REQUIRE(runs.size() == Written::kRuns);

    for (int ri = 0; ri < Written::kRuns; ++ri) {
        const RunRecord& run = runs[ri];
        INFO("run " << ri);
        const auto last = tilescope::testing::syntheticRunStep(p, ri, Written::kSteps - 1);
        CHECK(run.programIndex == 0);
        CHECK(run.hostStartNs == tilescope::testing::syntheticRunStartNs(ri));
        CHECK(run.hostEndNs == run.hostStartNs + 1000 * Written::kSteps);
        CHECK(run.firstRow == 1 + ri * Written::kSteps);
        CHECK(run.numSteps == Written::kSteps);
        CHECK(run.totalCycles == last.startCycle + last.cycles);

        // Every step, with its per-IPU and per-tile cycles and the derived tile figures.
        const auto steps = r.runSteps(run, 0, Written::kSteps + 10, true);
        REQUIRE(steps.size() == Written::kSteps);
        std::uint64_t cyclesByPhase[4] = {}, maxCycles = 0;
        for (std::int64_t seq = 0; seq < Written::kSteps; ++seq) {
            const auto want = tilescope::testing::syntheticRunStep(p, ri, seq);
            const auto& got = steps[seq];
            INFO("step " << seq);
            REQUIRE(got.row == run.firstRow + seq);
            REQUIRE(got.stepId == want.stepId);
            REQUIRE(got.startCycle == want.startCycle);
            REQUIRE(got.cycles == want.cycles);
            REQUIRE(got.perIpu == want.perIpu);
            REQUIRE(got.perTile == want.perTile);
            const auto active = std::count_if(want.perTile.begin(), want.perTile.end(),
                                              [](auto c) { return c != 0; });
            const auto busiest = *std::max_element(want.perTile.begin(), want.perTile.end());
            REQUIRE(got.activeTiles == static_cast<std::uint32_t>(active));
            REQUIRE(got.tileBalance == Approx(static_cast<double>(sum(want.perTile)) /
                                              (static_cast<double>(active) * busiest)));
            const std::string& phase = p.steps[want.stepId].phase;
            cyclesByPhase[phase == "compute"    ? 0
                          : phase == "exchange" ? 1
                          : phase == "sync"     ? 2
                                                : 3] += want.cycles;
            maxCycles = std::max(maxCycles, want.cycles);
        }
        const auto page = r.runSteps(run, Written::kSteps - 5, 50, false);
        REQUIRE(page.size() == 5);
        CHECK(page[0].perTile.empty());
        CHECK(page[0].perIpu ==
              tilescope::testing::syntheticRunStep(p, ri, Written::kSteps - 5).perIpu);

        // runStepAtCycle: the last step starting at or before the cycle.
        for (std::uint64_t cycle : {std::uint64_t{0}, std::uint64_t{999}, std::uint64_t{1000},
                                    std::uint64_t{123456}, run.totalCycles, ~std::uint64_t{0}}) {
            const auto seq = r.runStepAtCycle(run, cycle);
            INFO("cycle " << cycle);
            CHECK(seq == std::min<std::int64_t>(cycle / 1000, Written::kSteps - 1));
        }

        // Every stored pyramid level covers the whole run: counts and cycles add up.
        std::vector<std::int64_t> levels;
        for (std::int64_t level = 0; level < 20; ++level) {
            const auto rows = r.runLod(run, level, 0, run.totalCycles);
            if (rows.empty())
                continue;
            levels.push_back(level);
            INFO("level " << level);
            std::uint64_t steps = 0, byPhase[4] = {}, maxStep = 0;
            for (const auto& row : rows) {
                CHECK(row.level == level);
                steps += row.steps;
                byPhase[0] += row.computeCycles;
                byPhase[1] += row.exchangeCycles;
                byPhase[2] += row.syncCycles;
                byPhase[3] += row.streamCycles;
                maxStep = std::max(maxStep, row.maxStepCycles);
            }
            CHECK(steps == run.numSteps);
            for (int k = 0; k < 4; ++k)
                CHECK(byPhase[k] == cyclesByPhase[k]);
            CHECK(maxStep == maxCycles);
            CHECK(rows.front().firstRow == run.firstRow);
            CHECK(std::is_sorted(rows.begin(), rows.end(),
                                 [](auto& a, auto& b) { return a.bucket < b.bucket; }));
        }
        // Steps start every 1000 cycles: level 0 (256-cycle buckets) and level 1 (1024) have a
        // bucket per step, no smaller than the steps themselves, so they are not stored; level 2
        // (4096) has 733 buckets, a quarter of the steps and a screenful: stored, and the top.
        CHECK(levels == std::vector<std::int64_t>{2});
        CHECK(r.runLodBaseCycles() == 256);
        CHECK(r.runLodLevelFor(run, 255) == -1);
        CHECK(r.runLodLevelFor(run, 256 * 4) == -1); // raw steps are as cheap there
        CHECK(r.runLodLevelFor(run, 256 * 16) == 2);
        CHECK(r.runLodLevelFor(run, 1e15) == 2);
        // A window returns only the buckets it overlaps.
        const auto window = r.runLod(run, 2, 4096 * 10, 4096 * 20 - 1);
        REQUIRE(window.size() == 10);
        CHECK(window.front().bucket == 10);
        CHECK(window.back().bucket == 19);
    }
}

TEST_CASE("an out-of-memory compilation is marked as such") {
    TempDir dir("tilescope-oom");
    ProfileWriter w(dir / "profile.pop");
    tilescope::testing::writeCompileProfile(w);
    w.finishCompilation(true);
    w.close();
    const ProfileReader r((dir / "profile.pop").string());
    CHECK(r.hasCompilation());
    CHECK(r.outOfMemory());
    CHECK(r.runs().empty());
}

TEST_CASE("writer misuse is a ReportError naming the file") {
    TempDir dir("tilescope-misuse");
    const auto path = (dir / "profile.pop").string();
    ProfileWriter w(path);
    CHECK_THROWS_AS(w.addVariable(VariableRecord{}), ReportError); // before setTarget
    const CompileProfile p = tilescope::testing::writeCompileProfile(w);
    // Entry points and functions share one index sequence: a clash names both programs.
    CHECK_THROWS_WITH(w.addControlProgram({1, p.controlPrograms[0].programId, true, "other"}),
                      Catch::Contains("'other'") && Catch::Contains("'fn'"));
    w.finishCompilation();
    CHECK_THROWS_AS(w.addRunStep(tilescope::testing::syntheticRunStep(p, 0, 0)), ReportError);
    w.beginRun(0, 1);
    CHECK_THROWS_AS(w.beginRun(0, 2), ReportError);
    RunStepRecord wrongTiles = tilescope::testing::syntheticRunStep(p, 0, 0);
    wrongTiles.perTile.pop_back();
    CHECK_THROWS_WITH(w.addRunStep(wrongTiles), Catch::Contains(path));
    RunStepRecord unknownStep = tilescope::testing::syntheticRunStep(p, 0, 0);
    unknownStep.stepId = 999;
    CHECK_THROWS_AS(w.addRunStep(unknownStep), ReportError);
    w.addRunStep(tilescope::testing::syntheticRunStep(p, 0, 5));
    CHECK_THROWS_AS(w.addRunStep(tilescope::testing::syntheticRunStep(p, 0, 4)), ReportError);
    CHECK_THROWS_AS(w.close(), ReportError); // run still open
    w.endRun(2);
    w.close();
    CHECK(ProfileReader(path).runs().at(0).numSteps == 1);
}

TEST_CASE("a finished report is one self-contained file, not in WAL mode") {
    TempDir dir("tilescope-selfcontained");
    const auto path = dir / "profile.pop";
    tilescope::testing::writeSmallProfile(path, 1, 10);
    CHECK_FALSE(std::filesystem::exists(path.string() + "-wal"));
    CHECK_FALSE(std::filesystem::exists(path.string() + "-journal"));
    std::ifstream in(path, std::ios::binary);
    char header[20] = {};
    in.read(header, sizeof header);
    CHECK(header[18] == 1); // file format write version: 1 = rollback journal, 2 = WAL
    CHECK(header[19] == 1);
    CHECK(ProfileReader(path.string()).file().complete());
}
