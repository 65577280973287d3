#pragma once
// The subcommands of tilescope-cli. Each takes its parsed options, writes to standard output and
// returns an exit code; failures are thrown (ReportError, UsageError, OutputError) and turned into
// one line on standard error by main().

#include "tilescope/report/SyntheticReport.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::cli {

struct InfoOptions {
    std::string file;
    std::string format = "text"; // text | json
};
int runInfo(const InfoOptions& options);

struct SummaryOptions {
    std::string file;
    std::string format = "text"; // text | json
};
int runSummary(const SummaryOptions& options);

struct OperationsOptions {
    std::string file;
    std::string format = "text"; // text | csv | json
};
/// Every operation with its self and inclusive totals (nested by debug path).
int runOperations(const OperationsOptions& options);

struct SqlOptions {
    std::string file;
    std::string query;
    std::string format = "text"; // text | csv | json
    std::optional<std::uint64_t> limit;
};
int runSql(const SqlOptions& options);

struct ExportOptions {
    std::string file;
    std::string table;
    std::string format = "csv"; // csv | json
    std::string output;         // empty: standard output
    bool decodeSeries = false;
};
int runExport(const ExportOptions& options);

struct SynthOptions {
    std::string directory;
    report::SyntheticSpec spec;
};
int runSynth(const SynthOptions& options);

struct TraceConversionOptions {
    std::string input;
    std::string output;
    std::vector<std::string> profiles; ///< export: profile reports joined as device processes
    bool strict = false;               ///< import: refuse a file that needed any repair
};
/// Chrome trace-event JSON to a host trace.
int runImportTrace(const TraceConversionOptions& options);
/// A host trace to Chrome trace-event JSON.
int runExportTrace(const TraceConversionOptions& options);

/// A threshold as `compare` takes it: "5%", "5" or "2.5%", finite and not negative; UsageError
/// naming `option` otherwise.
double parsePercent(const std::string& option, const std::string& text);

/// Exit status of `compare` when a --max-*-increase threshold is exceeded.
constexpr int kExitThresholdExceeded = 3;

struct CompareOptions {
    std::string source;          // the baseline (A)
    std::string target;          // the changed build (B)
    std::string format = "text"; // text | json | markdown
    // Thresholds as given ("5%"); parsed by runCompare so that bad values exit with 2.
    std::optional<std::string> maxCyclesIncrease;
    std::optional<std::string> maxMemoryIncrease;
    std::optional<std::string> maxTileMemoryIncrease;
    bool perOperation = false;
    std::size_t worstTiles = 10;
};
/// Differences between two profile reports (or two host traces); kExitThresholdExceeded when a
/// threshold is exceeded, and UsageError (exit 2) for inputs that are not comparable reports.
int runCompare(const CompareOptions& options);

struct SweepCommandOptions {
    std::string directory;
    std::vector<std::string> vary;
    std::string variantsFile;
    std::vector<std::string> command;
    unsigned jobs = 0; // 0: the core count
    double timeoutSeconds = 0;
    bool resume = false;
    bool slurm = false;
    std::string partition, time, account, mem;
    std::optional<unsigned> cpusPerTask;
    double pollSeconds = 1.0;
    std::string format = "text"; // of the summary printed at the end
};
/// Runs a what-if sweep (local pool or Slurm job array), writes DIR/summary.json and prints the
/// table; 130 when interrupted by Ctrl-C (finished variants are kept).
int runSweep(const SweepCommandOptions& options);

/// Runs variant INDEX of the sweep in DIR (one Slurm array task); 0 when it succeeded.
int runSweepTask(const std::string& directory, std::size_t index);

struct SweepSummaryOptions {
    std::string directory;
    std::string format = "text"; // text | json | markdown
    std::optional<std::string> baseline;
    std::optional<std::string> maxCyclesIncrease;
    std::optional<std::string> maxMemoryIncrease;
    std::optional<std::string> maxTileMemoryIncrease;
};
/// The sweep table read from DIR's reports; kExitThresholdExceeded when a variant exceeds a
/// threshold relative to the baseline.
int runSweepSummary(const SweepSummaryOptions& options);

/// Exit status of `sweep` after Ctrl-C (128 + SIGINT, as a shell reports it).
constexpr int kExitInterrupted = 130;

} // namespace tilescope::cli
