#include "TestSweeps.hpp"

#include "tilescope/report/SyntheticReport.hpp"
#include "tilescope/sweep/SweepPlan.hpp"
#include "tilescope/sweep/SweepSummary.hpp"
#include "tilescope/sweep/VariantStatus.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tilescope::gui::test {

namespace fs = std::filesystem;

fs::path makeSyntheticSweep(const fs::path& dir, std::size_t n, bool withSummary) {
    sweep::SweepPlan plan;
    plan.directory = dir;
    plan.workingDirectory = dir;
    plan.command = {"program", "{seed}"};
    std::vector<std::string> seeds;
    for (std::size_t i = 0; i < n; ++i)
        seeds.push_back(std::to_string(i + 1));
    plan.variants = sweep::expandVariants({sweep::SweepAxis{"arg:seed", seeds}}, {});
    for (std::size_t i = 0; i < n; ++i) {
        const auto vdir = plan.variantDirectory(plan.variants[i]);
        fs::create_directories(vdir);
        sweep::VariantStatus status;
        status.executor = "local";
        if (i + 1 == n) {
            status.state = "failed";
            status.reason = "exit status 1";
            status.outputTail = "the program failed";
        } else {
            report::SyntheticSpec spec;
            spec.tilesPerIpu = 16;
            spec.steps = 10 + 7 * i;
            spec.runs = 1;
            spec.seed = i + 1;
            spec.outOfMemory = i + 2 == n;
            report::generateSyntheticReport(vdir, spec);
            status.state = "succeeded";
            status.exitCode = 0;
        }
        sweep::writeStatus(vdir, status);
    }
    sweep::writePlan(plan);
    if (withSummary)
        sweep::writeSummaryJson(sweep::summarizeSweep(dir, std::nullopt, {}));
    return dir;
}

} // namespace tilescope::gui::test
