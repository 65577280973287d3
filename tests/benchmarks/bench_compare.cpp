// tilescope-bench-compare: time of comparing two synthetic reports (by default 16 IPUs x 1472
// tiles, 200,000 steps; the target 1% longer, same seed, so most of it matches). Prints one JSON
// object: milliseconds of the summary-level comparison (what `tilescope-cli compare` does
// without --per-operation) and of each structural comparison, best of --repeat, with the sizes
// that explain them. Reports are generated once into --dir and reused.
//
//   tilescope-bench-compare [--ipus N] [--tiles-per-ipu N] [--steps N] [--repeat N] [--dir D]

#include "tilescope/report/ReportComparison.hpp"
#include "tilescope/report/StructureComparison.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace tilescope::report;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

fs::path ensureReport(const fs::path& dir, const SyntheticSpec& spec) {
    const fs::path folder = dir / fmt::format("synth-{}x{}-{}-seed{}", spec.ipus, spec.tilesPerIpu,
                                              spec.steps, spec.seed);
    if (!fs::exists(folder / "profile.pop"))
        generateSyntheticReport(folder, spec);
    return folder / "profile.pop";
}

/// Best wall time of `repeat` calls of `f`, in ms.
template <class F> double best(int repeat, F&& f) {
    double out = std::numeric_limits<double>::max();
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = Clock::now();
        f();
        out = std::min(out, msSince(t0));
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    SyntheticSpec spec;
    spec.ipus = 16;
    spec.steps = 200'000;
    spec.runs = 1;
    spec.perTileCycles = false; // the comparison never reads per-tile cycles
    int repeat = 3;
    fs::path dir = fs::temp_directory_path() / "tilescope-bench-compare";
    CLI::App app{"Time of comparing two synthetic reports; prints JSON"};
    app.add_option("--ipus", spec.ipus)->capture_default_str();
    app.add_option("--tiles-per-ipu", spec.tilesPerIpu)->capture_default_str();
    app.add_option("--steps", spec.steps)->capture_default_str();
    app.add_option("--repeat", repeat)->check(CLI::Range(1, 100))->capture_default_str();
    app.add_option("--dir", dir, "Where the reports are generated and reused");
    CLI11_PARSE(app, argc, argv);

    try {
        fs::create_directories(dir);
        const auto t0 = Clock::now();
        const fs::path sourcePath = ensureReport(dir, spec);
        SyntheticSpec longer = spec;
        longer.steps = spec.steps + std::max<std::uint64_t>(1, spec.steps / 100);
        const fs::path targetPath = ensureReport(dir, longer);
        const double generateMs = msSince(t0);

        // Opening is part of what a user waits for, so it is inside the summary figure.
        std::size_t tiles = 0;
        const double summaryMs = best(repeat, [&] {
            const ProfileReader source(sourcePath.string()), target(targetPath.string());
            const auto summary = compareSummaries(source, target);
            const auto perTile = compareTileMemory(source, target);
            tiles = perTile.tiles();
        });

        const ProfileReader source(sourcePath.string()), target(targetPath.string());
        std::size_t programs = 0, matchedPrograms = 0, steps = 0, matchedSteps = 0;
        std::size_t runSteps = 0, matchedRunSteps = 0;
        double programsMs = 0, livenessMs = 0, executionMs = 0;
        for (int i = 0; i < repeat; ++i) {
            StructureComparison s(source, target);
            auto t = Clock::now();
            const auto& p = s.programs();
            const double pm = msSince(t);
            t = Clock::now();
            const auto& l = s.liveness();
            const double lm = msSince(t);
            t = Clock::now();
            const auto& e = s.execution();
            const double em = msSince(t);
            if (i == 0 || pm < programsMs)
                programsMs = pm;
            if (i == 0 || lm < livenessMs)
                livenessMs = lm;
            if (i == 0 || em < executionMs)
                executionMs = em;
            programs = p.rows.size();
            matchedPrograms = p.matched;
            steps = l.alignment.steps.size();
            matchedSteps = l.alignment.matched;
            runSteps = e.alignment.steps.size();
            matchedRunSteps = e.alignment.matched;
        }
        nlohmann::json out = {
            {"ipus", spec.ipus},
            {"tiles", tiles},
            {"source_steps", spec.steps},
            {"target_steps", longer.steps},
            {"repeat", repeat},
            {"generate_ms", generateMs},
            {"summary_compare_ms", summaryMs},
            {"programs_compare_ms", programsMs},
            {"programs", programs},
            {"programs_matched", matchedPrograms},
            {"liveness_align_ms", livenessMs},
            {"aligned_steps", steps},
            {"steps_matched", matchedSteps},
            {"execution_align_ms", executionMs},
            {"aligned_run_steps", runSteps},
            {"run_steps_matched", matchedRunSteps},
        };
        std::cout << out.dump(2) << "\n";
    } catch (const std::exception& e) {
        std::cerr << "tilescope-bench-compare: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
