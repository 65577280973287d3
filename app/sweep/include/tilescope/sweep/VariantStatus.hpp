#pragma once
// How a variant's run ended, stored as DIR/<variant>/status.json by whoever ran it (the local
// executor, or the Slurm task), read back by the summary and by --resume.

#include "tilescope/sweep/SweepPlan.hpp"

#include <optional>
#include <string>

namespace tilescope::sweep {

/// The end of one variant's run. `state` is "succeeded" (exit status 0), "failed" (another exit
/// status, a signal, a timeout, stopped by Slurm: `reason` says which) or "cancelled" (Ctrl-C);
/// `outputTail` holds the last lines of the program's output for a variant that did not
/// succeed. `hostSeconds` is the wall time of the program's process.
struct VariantStatus {
    std::string state;
    std::string reason;
    std::optional<int> exitCode;
    std::optional<int> signal;
    double hostSeconds = 0;
    std::string startedUtc;
    std::string executor; ///< "local" or "slurm"
    std::string outputTail;

    bool succeeded() const { return state == "succeeded"; }
};

/// Files of a variant's folder.
inline constexpr const char* kStatusFile = "status.json";
inline constexpr const char* kOutputFile = "output.log";
inline constexpr const char* kReportFile = "profile.pop";

/// Writes DIR/<variant>/status.json (through a temporary file and a rename, so a reader never
/// sees half of it).
void writeStatus(const std::filesystem::path& variantDirectory, const VariantStatus& status);
/// The status, or none when the variant has not ended (no file, or one that does not parse).
std::optional<VariantStatus> readStatus(const std::filesystem::path& variantDirectory);

/// The last `maxLines` lines of a file (at most its last 8 KiB), "" when it cannot be read.
std::string fileTail(const std::filesystem::path& file, std::size_t maxLines = 20);

/// The variant's report: DIR/<variant>/profile.pop, or, when the program's engine was named (PopART
/// and PopTorch sessions write to a subfolder named after the session), the one in `training/`,
/// else in the first subfolder by name that holds one; "" when there is none.
std::filesystem::path reportFileOf(const std::filesystem::path& variantDirectory);

/// True when the variant's folder holds a report whose writer finished (metadata
/// writer_state "complete"): what --resume keeps.
bool hasCompleteReport(const std::filesystem::path& variantDirectory);

/// Current time as ISO 8601 UTC (seconds).
std::string utcNow();

} // namespace tilescope::sweep
