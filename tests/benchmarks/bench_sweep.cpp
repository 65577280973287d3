// tilescope-bench-sweep: time of summarising a sweep of many tiny variants (issue 35: 1,000 in
// under 5 s). Writes --variants synthetic reports (one IPU of --tiles tiles, --steps steps, one
// run; seeds differ so figures differ) into a sweep folder with its sweep.json and statuses,
// once, then prints one JSON object: the best of --repeat wall times of summarizeSweep (what
// `tilescope-cli sweep-summary` and `sweep` do), per variant, and the threads used.
//
//   tilescope-bench-sweep [--variants N] [--tiles N] [--steps N] [--repeat N] [--dir D]

#include "tilescope/report/SyntheticReport.hpp"
#include "tilescope/sweep/SweepPlan.hpp"
#include "tilescope/sweep/SweepSummary.hpp"
#include "tilescope/sweep/VariantStatus.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

namespace fs = std::filesystem;
using namespace tilescope;

int main(int argc, char** argv) {
    CLI::App app{"Time of summarising a sweep of many tiny variants"};
    std::size_t variants = 1000;
    std::uint32_t tiles = 16;
    std::uint64_t steps = 20;
    int repeat = 3;
    std::string dir = (fs::temp_directory_path() / "tilescope-bench-sweep").string();
    app.add_option("--variants", variants)->check(CLI::Range(1, 100000));
    app.add_option("--tiles", tiles)->check(CLI::Range(1, 1472));
    app.add_option("--steps", steps)->check(CLI::Range(1, 100000));
    app.add_option("--repeat", repeat)->check(CLI::Range(1, 100));
    app.add_option("--dir", dir);
    CLI11_PARSE(app, argc, argv);

    const fs::path folder = fs::path(dir) / ("sweep-" + std::to_string(variants) + "x" +
                                             std::to_string(tiles) + "-" + std::to_string(steps));
    const auto t0 = std::chrono::steady_clock::now();
    sweep::SweepPlan plan;
    plan.directory = fs::absolute(folder);
    plan.workingDirectory = fs::current_path();
    plan.command = {"program", "{seed}"};
    std::vector<std::string> seeds;
    for (std::size_t i = 0; i < variants; ++i)
        seeds.push_back(std::to_string(i + 1));
    plan.variants = sweep::expandVariants({sweep::SweepAxis{"arg:seed", seeds}}, {});
    bool generated = false;
    if (!fs::exists(folder / "sweep.json")) {
        fs::create_directories(folder);
        for (std::size_t i = 0; i < variants; ++i) {
            report::SyntheticSpec spec;
            spec.tilesPerIpu = tiles;
            spec.steps = steps;
            spec.runs = 1;
            spec.seed = i + 1;
            const auto vdir = plan.variantDirectory(plan.variants[i]);
            report::generateSyntheticReport(vdir, spec);
            sweep::VariantStatus status;
            status.state = "succeeded";
            status.exitCode = 0;
            status.executor = "local";
            sweep::writeStatus(vdir, status);
        }
        sweep::writePlan(plan); // last: an interrupted generation is redone
        generated = true;
    }
    const double generateSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    double best = 1e300;
    std::size_t rows = 0;
    for (int r = 0; r < repeat; ++r) {
        const auto s = sweep::summarizeSweep(folder, std::nullopt, {});
        best = std::min(best, s.summarySeconds);
        rows = s.rows.size();
        if (r == 0)
            sweep::writeSummaryJson(s);
    }
    const nlohmann::json out = {
        {"variants", rows},
        {"tiles_per_variant", tiles},
        {"steps_per_variant", steps},
        {"threads", std::max(1u, std::thread::hardware_concurrency())},
        {"generated_now", generated},
        {"generate_seconds", generateSeconds},
        {"summarise_seconds", best},
        {"summarise_ms_per_variant",
         1000.0 * best / static_cast<double>(std::max<std::size_t>(1, rows))},
        {"target_seconds", 5.0}};
    std::cout << out.dump(2) << "\n";
    return 0;
}
