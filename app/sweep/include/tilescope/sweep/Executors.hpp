#pragma once
// The two ways to run a sweep's variants: a pool of local processes, or one Slurm job array.

#include "tilescope/sweep/SweepPlan.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::sweep {

/// Progress lines for people ("sweep: 3 of 8 done (1 failed), 2 running"), on standard error in
/// the CLI.
using ProgressSink = std::function<void(const std::string&)>;

/// How a run of the executor ended.
struct ExecutionResult {
    std::size_t finished = 0; ///< variants that ended (succeeded or failed) in this run
    std::size_t failed = 0;
    bool interrupted = false; ///< Ctrl-C (SIGINT) or SIGTERM: running variants were stopped
};

/// Runs the variants `indices` of the plan with at most `jobs` at a time. SIGINT/SIGTERM stop
/// the running ones (recorded "cancelled"), start no more, and return with `interrupted`; every
/// variant that ended keeps its folder and status.
ExecutionResult runLocal(const SweepPlan& plan, const std::vector<std::size_t>& indices,
                         unsigned jobs, const ProgressSink& progress);

/// Slurm options passed through to sbatch (empty: not given).
struct SlurmOptions {
    std::string partition, time, account, mem;
    std::optional<unsigned> cpusPerTask;
    /// Seconds between squeue polls.
    double pollSeconds = 1.0;
    /// The tilescope-cli that tasks run (`sweep-task DIR INDEX`); must be reachable from the
    /// nodes, as DIR must be on a filesystem they share.
    std::string taskProgram;
};

/// Checks that Slurm can take the sweep before anything in DIR is touched: sbatch, squeue,
/// scontrol and scancel on PATH, and slurmctld answering `scontrol ping`. Throws SweepError
/// naming what is wrong.
void checkSlurmReachable();

/// Submits the variants `indices` as one job array (one task per variant, `sweep-task`), waits
/// with progress from squeue, and on SIGINT/SIGTERM cancels the array (scancel) and returns with
/// `interrupted`. A task that ended without writing its status (time limit, node failure) is
/// recorded failed with Slurm's job state and the tail of its output.
ExecutionResult runSlurm(const SweepPlan& plan, const std::vector<std::size_t>& indices,
                         const SlurmOptions& options, const ProgressSink& progress);

} // namespace tilescope::sweep
