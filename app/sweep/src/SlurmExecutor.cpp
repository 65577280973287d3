// The Slurm executor: one job array through sbatch, progress from squeue, scancel on Ctrl-C
// (Executors.hpp). Each array task runs `tilescope-cli sweep-task DIR INDEX`, which runs one
// variant and writes its status, so a finished variant is on disk whatever happens to the rest.

#include "CapturedCommand.hpp"
#include "InterruptFlag.hpp"
#include "tilescope/sweep/Executors.hpp"
#include "tilescope/sweep/VariantProcess.hpp"

#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <thread>

namespace tilescope::sweep {
namespace {

/// Seconds a Slurm client command may take before the controller counts as not answering.
constexpr double kClientTimeoutSeconds = 20;

std::string shellQuote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// "0-3,5,7-8" from sorted indices.
std::string arraySpec(const std::vector<std::size_t>& indices) {
    std::string out;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(indices[i]) +
               (j > i ? "-" + std::to_string(indices[j]) : "");
        i = j + 1;
    }
    return out;
}

/// Array tasks still known to squeue, by index: their state (PENDING, RUNNING, ...). None when
/// squeue failed (the caller retries; an unknown job id means it is gone).
std::optional<std::map<std::size_t, std::string>> queuedTasks(const std::string& jobId,
                                                              std::string& problem) {
    const auto r =
        runCaptured({"squeue", "-h", "-r", "-j", jobId, "-o", "%K %T"}, kClientTimeoutSeconds);
    std::map<std::size_t, std::string> out;
    if (!r.ok()) {
        if (r.output.find("Invalid job id") != std::string::npos)
            return out; // finished and purged
        problem = r.timedOut ? "squeue did not answer" : "squeue: " + r.oneLine();
        return std::nullopt;
    }
    std::stringstream in(r.output);
    std::string index, state;
    while (in >> index >> state) {
        try {
            out[std::stoul(index)] = state;
        } catch (const std::exception&) { // "N/A" for a job that is not an array
        }
    }
    return out;
}

/// Slurm's state of a finished task from scontrol (TIMEOUT, FAILED, CANCELLED, ...), if it still
/// knows the job.
std::string finishedTaskState(const std::string& jobId, std::size_t index) {
    const auto r =
        runCaptured({"scontrol", "-o", "show", "job", jobId + "_" + std::to_string(index)},
                    kClientTimeoutSeconds);
    if (!r.ok())
        return {};
    const auto at = r.output.find("JobState=");
    if (at == std::string::npos)
        return {};
    const auto end = r.output.find_first_of(" \n", at);
    return r.output.substr(at + 9, end == std::string::npos ? std::string::npos : end - at - 9);
}

void writeTaskScript(const std::filesystem::path& script, const SweepPlan& plan,
                     const std::string& program) {
    std::ofstream out(script, std::ios::trunc);
    out << "#!/bin/sh\n"
        << "# One task of a TileScope sweep's job array: runs variant $SLURM_ARRAY_TASK_ID.\n"
        << "exec " << shellQuote(program) << " sweep-task " << shellQuote(plan.directory.string())
        << " \"$SLURM_ARRAY_TASK_ID\"\n";
    if (!out.flush())
        throw SweepError(script.string() + ": cannot write the job script");
    out.close();
    ::chmod(script.c_str(), 0755);
}

} // namespace

void checkSlurmReachable() {
    for (const char* tool : {"sbatch", "squeue", "scontrol", "scancel"})
        if (!findOnPath(tool))
            throw SweepError(std::string(tool) +
                             " not found on PATH: --slurm needs the Slurm client commands "
                             "(Debian: slurm-client)");
    const auto ping = runCaptured({"scontrol", "ping"}, kClientTimeoutSeconds);
    if (ping.timedOut)
        throw SweepError(fmt::format("slurmctld is not answering: 'scontrol ping' got no reply "
                                     "within {} s",
                                     kClientTimeoutSeconds));
    if (!ping.ok() || ping.output.find("is UP") == std::string::npos)
        throw SweepError("slurmctld is not answering: scontrol ping: " + ping.oneLine());
}

ExecutionResult runSlurm(const SweepPlan& plan, const std::vector<std::size_t>& indices,
                         const SlurmOptions& options, const ProgressSink& progress) {
    ExecutionResult result;
    if (indices.empty())
        return result;
    const auto slurmDir = plan.directory / ".slurm";
    std::filesystem::create_directories(slurmDir);
    const auto script = slurmDir / "task.sh";
    writeTaskScript(script, plan, options.taskProgram);

    // Each variant's folder is cleared now (by the submitting side), so that a stale status of
    // an earlier run is never taken for this one's.
    for (std::size_t i : indices) {
        const auto dir = plan.variantDirectory(plan.variants.at(i));
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
        std::filesystem::create_directories(dir, ec);
        if (ec)
            throw SweepError(dir.string() + ": cannot prepare the variant's folder (" +
                             ec.message() + ")");
    }

    std::vector<std::string> sbatch = {"sbatch",
                                       "--parsable",
                                       "--job-name=tilescope-sweep",
                                       "--array=" + arraySpec(indices),
                                       "--chdir=" + plan.workingDirectory.string(),
                                       "--output=" + (slurmDir / "task-%a.out").string()};
    if (!options.partition.empty())
        sbatch.push_back("--partition=" + options.partition);
    if (!options.time.empty())
        sbatch.push_back("--time=" + options.time);
    if (!options.account.empty())
        sbatch.push_back("--account=" + options.account);
    if (!options.mem.empty())
        sbatch.push_back("--mem=" + options.mem);
    if (options.cpusPerTask)
        sbatch.push_back("--cpus-per-task=" + std::to_string(*options.cpusPerTask));
    sbatch.push_back(script.string());
    const auto submitted = runCaptured(sbatch, kClientTimeoutSeconds);
    if (!submitted.ok())
        throw SweepError(submitted.timedOut
                             ? "sbatch did not answer (is slurmctld running?)"
                             : "sbatch refused the job array: " + submitted.oneLine());
    std::string jobId = submitted.output.substr(0, submitted.output.find_first_of(";\n"));
    if (jobId.empty() || jobId.find_first_not_of("0123456789") != std::string::npos)
        throw SweepError("sbatch gave no job id: " + submitted.oneLine());
    if (progress)
        progress(fmt::format("sweep: submitted job array {} ({} tasks)", jobId, indices.size()));
    {
        std::ofstream out(slurmDir / "job_id");
        out << jobId << "\n";
    }

    InterruptFlag interrupt;
    std::set<std::size_t> ended; // tasks whose status we counted
    std::string lastLine;
    int squeueFailures = 0;
    while (true) {
        if (interrupt.caught()) {
            result.interrupted = true;
            runCaptured({"scancel", jobId}, kClientTimeoutSeconds);
            if (progress)
                progress("sweep: interrupted; cancelled job array " + jobId);
            // Wait (bounded) for the tasks to stop, so that statuses they write are final.
            for (int i = 0; i < 60; ++i) {
                std::string problem;
                const auto queued = queuedTasks(jobId, problem);
                if (queued && queued->empty())
                    break;
                std::this_thread::sleep_for(std::chrono::milliseconds(500));
            }
            break;
        }
        std::string problem;
        const auto queued = queuedTasks(jobId, problem);
        if (!queued) {
            if (++squeueFailures >= 5)
                throw SweepError(fmt::format(
                    "lost contact with Slurm while waiting for job array {} ({}); finished "
                    "variants are kept in {}, run again with --resume",
                    jobId, problem, plan.directory.string()));
        } else {
            squeueFailures = 0;
        }
        std::size_t running = 0, pending = 0;
        if (queued)
            for (const auto& [index, state] : *queued)
                (state == "RUNNING" || state == "COMPLETING" ? running : pending)++;
        for (std::size_t i : indices)
            if (!ended.count(i))
                if (auto s = readStatus(plan.variantDirectory(plan.variants[i]))) {
                    ended.insert(i);
                    ++result.finished;
                    if (!s->succeeded()) {
                        ++result.failed;
                        if (progress)
                            progress(fmt::format("sweep: variant {} failed: {}",
                                                 plan.variants[i].name, s->reason));
                    }
                }
        const std::string line =
            fmt::format("sweep: {} of {} done ({} failed), {} running, {} "
                        "pending (job {})",
                        ended.size(), indices.size(), result.failed, running, pending, jobId);
        if (progress && line != lastLine)
            progress(line);
        lastLine = line;
        if (queued && queued->empty())
            break;
        std::this_thread::sleep_for(std::chrono::duration<double>(options.pollSeconds));
    }

    // Tasks that left the queue without a status: killed by Slurm (time limit, node failure,
    // cancelled before they started). Record them with what Slurm and their output say.
    for (std::size_t i : indices) {
        const auto dir = plan.variantDirectory(plan.variants[i]);
        const auto existing = readStatus(dir);
        // After Ctrl-C a task stopped by scancel wrote "failed (stopped by SIGTERM)": it was
        // cancelled. A variant that ended before the cancel keeps its status.
        if (existing && (!result.interrupted || ended.count(i) || existing->succeeded()))
            continue;
        VariantStatus s;
        s.executor = "slurm";
        const std::string state = result.interrupted ? "" : finishedTaskState(jobId, i);
        s.state = result.interrupted ? "cancelled" : "failed";
        s.reason = result.interrupted ? "interrupted (Ctrl-C): job array cancelled"
                                      : "ended without a status (Slurm job state " +
                                            (state.empty() ? std::string("unknown") : state) + ")";
        s.outputTail = fileTail(dir / kOutputFile);
        if (s.outputTail.empty())
            s.outputTail = fileTail(slurmDir / fmt::format("task-{}.out", i));
        writeStatus(dir, s);
        if (!result.interrupted) {
            ++result.finished;
            ++result.failed;
        }
    }
    return result;
}

} // namespace tilescope::sweep
