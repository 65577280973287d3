#pragma once
// Runs a short command (sbatch, squeue, scontrol, scancel) and captures its output, with a time
// limit so that a hung Slurm client cannot hang the sweep.

#include <optional>
#include <string>
#include <vector>

namespace tilescope::sweep {

/// How a captured command ended: its exit status (none when it timed out, was killed or could
/// not be started) and its standard output and error, merged.
struct CapturedCommand {
    std::optional<int> exitCode;
    bool timedOut = false;
    bool notFound = false;
    std::string output;

    bool ok() const { return exitCode && *exitCode == 0; }
    /// The output on one line, for messages.
    std::string oneLine() const;
};

CapturedCommand runCaptured(const std::vector<std::string>& argv, double timeoutSeconds);

/// The program's full path from PATH, or none.
std::optional<std::string> findOnPath(const std::string& program);

} // namespace tilescope::sweep
