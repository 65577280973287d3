// The comparison library on reports captured from a real program: the mlp_forward example run
// under POPLAR_ENGINE_OPTIONS autoReport with a known change (batch 16 -> 32, every matrix
// product larger), and twice unchanged. Differences are checked against figures read
// independently through ProfileReader.

#include "tilescope/report/ReportComparison.hpp"
#include "tilescope/report/StructureComparison.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <sys/wait.h>

using namespace tilescope::report;
namespace fs = std::filesystem;

namespace {

// mlp_forward [TILES] [BATCH] [INPUTS] [HIDDEN] [CLASSES]; defaults 64 16 300 128 10.
constexpr std::uint64_t kInputs = 300, kHidden = 128;

/// Profiles mlp_forward with `args` in a fresh folder; returns the report.
fs::path profileMlp(const std::string& name, const std::string& args) {
    const fs::path dir = fs::temp_directory_path() / "tilescope-compare-capture" / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string cmd = "cd '" + dir.string() +
                            "' && POPLAR_ENGINE_OPTIONS='{\"autoReport.all\":\"true\","
                            "\"profiler.includeFlopEstimates\":\"true\"}' '" +
                            MLP_FORWARD_EXAMPLE + "' " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::string output;
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), p))
        output.append(buf.data(), n);
    const int status = pclose(p);
    INFO(output);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    REQUIRE(fs::exists(dir / "profile.pop"));
    return dir / "profile.pop";
}

std::uint64_t totalFromRows(const ProfileReader& r) {
    std::uint64_t total = 0;
    for (const auto& row : r.tileMemoryTotals())
        total += row.totalBytes;
    return total;
}

std::map<std::string, OperationRecord> operationsByPath(const ProfileReader& r) {
    std::map<std::string, OperationRecord> out;
    for (auto& op : r.operations(0, 100000))
        out.emplace(op.name + "|" + op.debugPath, op);
    return out;
}

} // namespace

TEST_CASE("a larger batch: memory, cycles and operations differ by what the reports hold") {
    const auto small = profileMlp("batch16", "64 16");
    const auto large = profileMlp("batch32", "64 32");
    const ProfileReader source(small.string()), target(large.string());

    const auto summary = compareSummaries(source, target);
    const auto* total = summary.figure("total_bytes_including_gaps");
    REQUIRE(total);
    CHECK(total->value.source == totalFromRows(source));
    CHECK(total->value.target == totalFromRows(target));
    CHECK(total->value.difference() == static_cast<std::int64_t>(totalFromRows(target)) -
                                           static_cast<std::int64_t>(totalFromRows(source)));
    // Twice the activations: more data, whatever the gaps the two layouts leave.
    const auto* data = summary.figure("total_bytes_excluding_gaps");
    REQUIRE(data);
    CHECK(data->value.difference() > 0);
    REQUIRE(summary.runs.size() == source.runs().size());
    CHECK(summary.runs[0].cycles.source == source.runs()[0].totalCycles);
    CHECK(summary.runs[0].cycles.target == target.runs()[0].totalCycles);
    CHECK(summary.targetDifferences.empty());

    // Per tile: the difference series adds up to the total difference.
    const auto tiles = compareTileMemory(source, target);
    std::int64_t sum = 0;
    for (auto d : tiles.difference)
        sum += d;
    CHECK(sum == total->value.difference());
    CHECK(tiles.worstTiles(1).at(0).difference() ==
          *std::max_element(tiles.difference.begin(), tiles.difference.end()));

    // The same operations exist in both (same program, other sizes): all matched.
    StructureComparison s(source, target);
    const auto& ops = s.operations();
    const auto sourceOps = operationsByPath(source), targetOps = operationsByPath(target);
    REQUIRE(sourceOps.size() == targetOps.size());
    CHECK(ops.matched == sourceOps.size());
    CHECK(ops.added == 0);
    CHECK(ops.removed == 0);
    bool sawMatMul = false;
    for (const auto& d : ops.rows) {
        const auto key = d.name + "|" + d.debugPath;
        REQUIRE(sourceOps.count(key));
        CHECK(sourceOps.at(key).id == d.sourceId);
        CHECK(targetOps.at(key).id == d.targetId);
        CHECK(d.flops.source == sourceOps.at(key).flops.value_or(0));
        if (d.debugPath == "mlp/layer1/matMul") {
            sawMatMul = true;
            CHECK(d.flops.difference() == static_cast<std::int64_t>(2 * 16 * kInputs * kHidden));
            // The planner splits the two batches differently, so the partials differ as well.
            CHECK(d.variableBytes.difference() != 0);
        }
    }
    CHECK(sawMatMul);
    // Every program of both trees is one row.
    const auto& programs = s.programs();
    CHECK(programs.matched + programs.removed ==
          static_cast<std::size_t>(source.counts().programs));
    CHECK(programs.matched + programs.added == static_cast<std::size_t>(target.counts().programs));
    // Every executed step is in the alignment once.
    const auto& run = s.execution().alignment;
    CHECK(run.matched + run.removed == source.runs()[0].numSteps);
    CHECK(run.matched + run.added == target.runs()[0].numSteps);
    CHECK(run.total.source == [&] {
        std::uint64_t cycles = 0;
        for (const auto& st : source.runSteps(source.runs()[0], 0, 1 << 30))
            cycles += st.cycles;
        return cycles;
    }());
}

TEST_CASE("the same program profiled twice: everything matches with zero deltas") {
    const auto first = profileMlp("same1", "");
    const auto second = profileMlp("same2", "");
    const ProfileReader source(first.string()), target(second.string());
    const auto summary = compareSummaries(source, target);
    for (const auto& f : summary.memory)
        CHECK(f.value.difference() == 0);
    for (const auto& r : summary.runs)
        CHECK(r.cycles.difference() == 0);

    StructureComparison s(source, target);
    CHECK(s.programs().added + s.programs().removed == 0);
    CHECK(s.operations().added + s.operations().removed == 0);
    const auto& liveness = s.liveness().alignment;
    CHECK(liveness.matched == static_cast<std::size_t>(source.counts().steps));
    CHECK(liveness.added + liveness.removed == 0);
    const auto& run = s.execution().alignment;
    CHECK(run.matched == source.runs()[0].numSteps);
    CHECK(run.added + run.removed == 0);
    for (const auto& step : run.steps) {
        CHECK(step.source == step.target);
        CHECK(step.difference() == 0);
    }
}
