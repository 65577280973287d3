// `tilescope-cli sweep` and `sweep-task`: plan the variants, check the executor can run them,
// run them (local pool or Slurm job array), then write DIR/summary.json and print the table.

#include "CliErrors.hpp"
#include "Commands.hpp"
#include "SweepTables.hpp"
#include "tilescope/sweep/Executors.hpp"
#include "tilescope/sweep/SweepSummary.hpp"
#include "tilescope/sweep/VariantProcess.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace tilescope::cli {
namespace {

using namespace tilescope::sweep;

/// The planned variants; bad input is a usage error (exit 2).
SweepPlan planOf(const SweepCommandOptions& o) {
    try {
        std::vector<SweepAxis> axes;
        for (const auto& text : o.vary)
            axes.push_back(parseAxis(text));
        std::vector<Variant> listed;
        if (!o.variantsFile.empty())
            listed = readVariantsFile(o.variantsFile);
        SweepPlan plan;
        plan.directory = std::filesystem::absolute(o.directory).lexically_normal();
        plan.workingDirectory = std::filesystem::current_path();
        plan.command = o.command;
        plan.timeoutSeconds = o.timeoutSeconds;
        plan.variants = expandVariants(axes, listed);
        validatePlan(plan);
        return plan;
    } catch (const SweepError& e) {
        throw UsageError(e.what());
    }
}

bool samePlan(const SweepPlan& a, const SweepPlan& b) {
    if (a.command != b.command || a.variants.size() != b.variants.size())
        return false;
    for (std::size_t i = 0; i < a.variants.size(); ++i)
        if (a.variants[i].name != b.variants[i].name ||
            settingsJson(a.variants[i]) != settingsJson(b.variants[i]))
            return false;
    return true;
}

/// The path of this executable, for the Slurm tasks (DIR and it must be reachable from nodes).
std::string selfPath() {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        throw std::runtime_error("cannot find tilescope-cli's own path for the Slurm tasks (" +
                                 ec.message() + ")");
    return self.string();
}

} // namespace

int runSweep(const SweepCommandOptions& o) {
    SweepPlan plan = planOf(o);
    if (plan.timeoutSeconds < 0)
        throw UsageError("--timeout must not be negative");

    // Everything that can fail before a variant runs is checked first, in this order, so that a
    // broken setup touches nothing in DIR (a resumed sweep keeps its finished variants).
    try {
        ensureWritableDirectory(plan.directory);
        if (o.slurm)
            checkSlurmReachable();
    } catch (const SweepError& e) {
        throw std::runtime_error(e.what());
    }

    const bool hasPlan = std::filesystem::exists(plan.directory / "sweep.json");
    std::vector<std::size_t> indices;
    if (hasPlan) {
        if (!o.resume)
            throw UsageError(plan.directory.string() +
                             " already holds a sweep: add --resume to finish it, or choose "
                             "another -o folder");
        SweepPlan previous;
        try {
            previous = readPlan(plan.directory);
        } catch (const SweepError& e) {
            throw std::runtime_error(e.what());
        }
        if (!samePlan(previous, plan))
            throw UsageError(plan.directory.string() +
                             " holds a different sweep (other variants or command): --resume "
                             "continues the same sweep only");
        for (std::size_t i = 0; i < plan.variants.size(); ++i)
            if (!hasCompleteReport(plan.variantDirectory(plan.variants[i])))
                indices.push_back(i);
        fmt::print(stderr, "sweep: resuming: {} of {} variants have a complete report\n",
                   plan.variants.size() - indices.size(), plan.variants.size());
    } else {
        for (std::size_t i = 0; i < plan.variants.size(); ++i)
            indices.push_back(i);
    }
    try {
        writePlan(plan);
    } catch (const SweepError& e) {
        throw std::runtime_error(e.what());
    }

    const ProgressSink progress = [](const std::string& line) {
        fmt::print(stderr, "{}\n", line);
        std::fflush(stderr);
    };
    ExecutionResult result;
    try {
        if (o.slurm) {
            SlurmOptions slurm;
            slurm.partition = o.partition;
            slurm.time = o.time;
            slurm.account = o.account;
            slurm.mem = o.mem;
            slurm.cpusPerTask = o.cpusPerTask;
            slurm.pollSeconds = o.pollSeconds;
            slurm.taskProgram = selfPath();
            result = runSlurm(plan, indices, slurm, progress);
        } else {
            result = runLocal(plan, indices, o.jobs, progress);
        }
    } catch (const SweepError& e) {
        throw std::runtime_error(e.what());
    }

    const SweepSummary summary = summarizeSweep(plan.directory, std::nullopt, {});
    writeSummaryJson(summary);
    printSweepSummary(summary, o.format);
    if (result.interrupted) {
        fmt::print(stderr,
                   "sweep: interrupted; {} variants finished and are kept; run again with "
                   "--resume to finish\n",
                   result.finished);
        return kExitInterrupted;
    }
    return kExitOk;
}

int runSweepTask(const std::string& directory, std::size_t index) {
    SweepPlan plan;
    try {
        plan = readPlan(directory);
    } catch (const SweepError& e) {
        throw std::runtime_error(e.what());
    }
    if (index >= plan.variants.size())
        throw UsageError(fmt::format("sweep-task: {} has {} variants, no index {}", directory,
                                     plan.variants.size(), index));
    const VariantStatus status = runVariantToEnd(plan, plan.variants[index], "slurm");
    fmt::print("{}: {}{}\n", plan.variants[index].name, status.state,
               status.reason.empty() ? "" : " (" + status.reason + ")");
    return status.succeeded() ? kExitOk : kExitReportError;
}

} // namespace tilescope::cli
