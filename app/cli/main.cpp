// tilescope-cli: inspect, query and export TileScope reports from a terminal or a script.
// main() only builds the command line and maps failures to exit codes; the subcommands live in
// *Command.cpp.

#include "CliErrors.hpp"
#include "Commands.hpp"
#include "ReportOpening.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/Version.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <functional>

namespace {

using namespace tilescope::cli;

constexpr const char* kFooter =
    "FILE is a profile report (profile.pop), a host trace (*.pvti), or a report folder (its "
    "profile.pop);\nany of the files can be on another machine: ssh://[user@]host[:port]/path "
    "(read in place\nover SFTP; host aliases, keys, ssh-agent and ProxyJump from the SSH "
    "configuration).\n\n"
    "Exit status:\n"
    "  0  success\n"
    "  1  the file could not be opened or read (missing, not a report, damaged, newer format), "
    "the query\n"
    "     was refused or failed, or output could not be written; one line on stderr says why\n"
    "  2  usage error: bad option or value, unknown table, bad synthetic spec; for compare also "
    "an\n     input that is missing or not a report\n"
    "  3  compare, sweep-summary: a --max-*-increase threshold was exceeded (each one named on "
    "stderr)\n"
    "  130 sweep: interrupted by Ctrl-C (finished variants are kept; --resume finishes)";

// Exactly one line whatever the message holds: parts of it can come from the file (a tool
// version, an SQLite message), and scripts read the first line of stderr.
void printError(std::string message) {
    for (char& c : message)
        if (c == '\n' || c == '\r')
            c = ' ';
    fmt::print(stderr, "tilescope-cli: {}\n", message);
}

// CLI11 converts "-1" to an unsigned option by wrapping it to a huge count; refuse it with a
// plain message instead (CLI11's own NonNegativeNumber prints DBL_MAX in full).
const CLI::Validator nonNegative(
    [](std::string& value) {
        return !value.empty() && value.front() == '-' ? "must not be negative (got " + value + ")"
                                                      : std::string();
    },
    "", "non-negative");

CLI::Option* addFormatOption(CLI::App* command, std::string& format,
                             const std::vector<std::string>& allowed) {
    return command->add_option("--format", format, "Output format")
        ->check(CLI::IsMember(allowed))
        ->capture_default_str();
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Inspect, query and export TileScope profile reports and host traces.",
                 "tilescope-cli"};
    // Set before the subcommands are added: they inherit footer and failure message.
    app.footer(kFooter);
    app.failure_message([](const CLI::App*, const CLI::Error& e) {
        return fmt::format("tilescope-cli: {} (see --help)\n", e.what());
    });
    app.set_version_flag("--version", tilescope::report::kToolVersion);
    app.require_subcommand(1);
    // Remote reports (ssh://): options of the whole tool, accepted after the subcommand too.
    app.fallthrough();
    RemoteOpeningOptions remote;
    app.add_option("--ssh-config", remote.sshConfig,
                   "SSH configuration for ssh:// files (default: ~/.ssh/config)")
        ->type_name("FILE");
    app.add_option("--known-hosts", remote.knownHosts,
                   "known_hosts file for ssh:// files (default: ~/.ssh/known_hosts)")
        ->type_name("FILE");
    app.add_flag("--accept-new-host-key", remote.acceptNewHostKey,
                 "Trust and record the key of a host not yet in known_hosts (a changed key is "
                 "always refused)");
    app.add_flag("--stats", remote.stats,
                 "Print a last line 'bytes_read=N round_trips=M file_size=S' (ssh:// traffic)");

    std::function<int()> command;

    InfoOptions info;
    auto* infoCommand = app.add_subcommand(
        "info", "What a file is: kind, versions, writer state, engine, target and row counts");
    infoCommand->add_option("FILE", info.file, "Report, host trace or report folder")->required();
    addFormatOption(infoCommand, info.format, {"text", "json"});
    infoCommand->callback([&] { command = [&] { return runInfo(info); }; });

    SummaryOptions summary;
    auto* summaryCommand = app.add_subcommand(
        "summary", "Target, memory by category and region, liveness, cycles per run, engine "
                   "options (host trace: counts, time span, events per thread)");
    summaryCommand->add_option("FILE", summary.file, "Report, host trace or report folder")
        ->required();
    addFormatOption(summaryCommand, summary.format, {"text", "json"});
    summaryCommand->callback([&] { command = [&] { return runSummary(summary); }; });

    OperationsOptions operations;
    auto* operationsCommand = app.add_subcommand(
        "operations", "Operations with their own and inclusive totals (steps, cycles, code, "
                      "memory, FLOPs), nested by debug path as PopVision's Operations view");
    operationsCommand->add_option("FILE", operations.file, "Report or report folder")->required();
    addFormatOption(operationsCommand, operations.format, {"text", "csv", "json"});
    operationsCommand->callback([&] { command = [&] { return runOperations(operations); }; });

    SqlOptions sql;
    std::uint64_t sqlLimit = 0;
    auto* sqlCommand =
        app.add_subcommand("sql", "Run one read-only SQL query (writes, ATTACH and pragmas that "
                                  "change anything are refused)");
    sqlCommand->add_option("FILE", sql.file, "Report, host trace or report folder")->required();
    sqlCommand->add_option("QUERY", sql.query, "One SELECT statement")->required();
    addFormatOption(sqlCommand, sql.format, {"text", "csv", "json"});
    auto* limitOption = sqlCommand->add_option("--limit", sqlLimit, "Print at most N rows")
                            ->type_name("N")
                            ->check(nonNegative);
    sqlCommand->callback([&] {
        if (limitOption->count() > 0)
            sql.limit = sqlLimit;
        command = [&] { return runSql(sql); };
    });

    ExportOptions exportOptions;
    auto* exportCommand = app.add_subcommand(
        "export", "Stream one table of the format as CSV (RFC 4180) or JSON; blobs as hex");
    exportCommand->add_option("FILE", exportOptions.file, "Report, host trace or report folder")
        ->required();
    exportCommand->add_option("--table,-t", exportOptions.table, "Table to export")->required();
    addFormatOption(exportCommand, exportOptions.format, {"csv", "json"});
    exportCommand->add_option("--output,-o", exportOptions.output,
                              "Write to this file instead of standard output");
    exportCommand->add_flag("--decode-series", exportOptions.decodeSeries,
                            "Write per-tile blobs as arrays of one value per tile");
    exportCommand->callback([&] { command = [&] { return runExport(exportOptions); }; });

    SynthOptions synth;
    auto& spec = synth.spec;
    bool noPerTileCycles = false;
    auto* synthCommand = app.add_subcommand(
        "synth", "Write a synthetic, internally consistent report (DIR/profile.pop, and "
                 "DIR/host.pvti with --host-events)");
    synthCommand->add_option("DIR", synth.directory, "Folder to write (created if missing)")
        ->required();
    const auto addCount = [&](const char* name, auto& value, const char* description) {
        return synthCommand->add_option(name, value, description)
            ->check(nonNegative)
            ->capture_default_str();
    };
    synthCommand->add_option("--ipus", spec.ipus, "IPUs")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
    synthCommand->add_option("--tiles-per-ipu", spec.tilesPerIpu, "Tiles per IPU")
        ->check(CLI::Range(1, 65536))
        ->capture_default_str();
    synthCommand->add_option("--ipu-version", spec.ipuVersion, "IPU version (ipu1 or ipu2)")
        ->capture_default_str();
    addCount("--steps", spec.steps, "Program steps executed per run");
    addCount("--runs", spec.runs, "Engine runs");
    addCount("--variables", spec.variables, "Variables (0: chosen from the step count)");
    addCount("--host-events", spec.hostEvents, "Events in the host trace (0: no host trace)");
    synthCommand->add_option("--host-threads", spec.hostThreads, "Threads in the host trace")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    synthCommand->add_flag("--no-per-tile-cycles", noPerTileCycles,
                           "Do not store per-tile cycles of executed steps");
    synthCommand->add_flag("--out-of-memory", spec.outOfMemory,
                           "Make some tiles exceed their memory");
    addCount("--seed", spec.seed, "Random seed");
    synthCommand->callback([&] {
        spec.perTileCycles = !noPerTileCycles;
        command = [&] { return runSynth(synth); };
    });

    TraceConversionOptions importTrace;
    auto* importCommand = app.add_subcommand(
        "import-trace", "Convert a Chrome trace-event JSON file into a host trace (.pvti)");
    importCommand->add_option("IN", importTrace.input, "Chrome trace JSON")->required();
    importCommand->add_option("-o,--output", importTrace.output, "Host trace to write")->required();
    importCommand->add_flag("--strict", importTrace.strict,
                            "Refuse a file that needs any repair (events out of order, an E "
                            "without B, a cut-off file, ...), naming its first such event");
    importCommand->callback([&] { command = [&] { return runImportTrace(importTrace); }; });

    TraceConversionOptions exportTrace;
    auto* exportTraceCommand = app.add_subcommand(
        "export-trace", "Convert a host trace (.pvti), with --profile also the device steps of "
                        "the same run, into Chrome trace-event JSON (Perfetto)");
    exportTraceCommand->add_option("IN", exportTrace.input, "Host trace")->required();
    exportTraceCommand->add_option("-o,--output", exportTrace.output, "JSON file to write")
        ->required();
    exportTraceCommand->add_option(
        "--profile", exportTrace.profiles,
        "Profile report (or report folder) of the same run: its engine runs and device steps "
        "join the trace as a device process on the same time axis (repeatable)");
    exportTraceCommand->callback([&] { command = [&] { return runExportTrace(exportTrace); }; });

    CompareOptions compare;
    std::string cycleLimit, memoryLimit, tileMemoryLimit;
    auto* compareCommand = app.add_subcommand(
        "compare", "What changed from report A (baseline) to report B: memory, cycles per run, "
                   "worst tiles, operations; a regression gate with --max-*-increase (exit 3)");
    compareCommand->add_option("A", compare.source, "Baseline report or report folder")->required();
    compareCommand->add_option("B", compare.target, "Changed report or report folder")->required();
    addFormatOption(compareCommand, compare.format, {"text", "json", "markdown"});
    auto* cycleLimitOption = compareCommand->add_option(
        "--max-cycles-increase", cycleLimit, "Fail (exit 3) if a run's cycles grow by more");
    auto* memoryLimitOption = compareCommand->add_option(
        "--max-memory-increase", memoryLimit, "Fail (exit 3) if total memory grows by more");
    auto* tileMemoryLimitOption =
        compareCommand->add_option("--max-tile-memory-increase", tileMemoryLimit,
                                   "Fail (exit 3) if the fullest tile's memory grows by more");
    for (auto* option : {cycleLimitOption, memoryLimitOption, tileMemoryLimitOption})
        option->type_name("P%");
    compareCommand->add_flag("--per-operation", compare.perOperation,
                             "Also match the program trees and list operations with deltas");
    compareCommand->add_option("--worst-tiles", compare.worstTiles, "Tiles to list")
        ->check(nonNegative)
        ->capture_default_str();
    compareCommand->callback([&] {
        if (cycleLimitOption->count() > 0)
            compare.maxCyclesIncrease = cycleLimit;
        if (memoryLimitOption->count() > 0)
            compare.maxMemoryIncrease = memoryLimit;
        if (tileMemoryLimitOption->count() > 0)
            compare.maxTileMemoryIncrease = tileMemoryLimit;
        command = [&] { return runCompare(compare); };
    });

    SweepCommandOptions sweepOptions;
    std::vector<std::string> sweepProgram; // the words after `--`
    unsigned cpusPerTask = 0;
    auto* sweepCommand = app.add_subcommand(
        "sweep", "What-if sweep: run a program over a grid of engine options, PopLibs options, "
                 "arguments and environment variables (locally or as a Slurm job array); one "
                 "report per variant in DIR/<variant>/, the table in DIR/summary.json");
    sweepCommand->add_option("-o,--output", sweepOptions.directory, "Sweep folder")
        ->required()
        ->type_name("DIR");
    sweepCommand
        ->add_option("--vary", sweepOptions.vary,
                     "An axis: KEY=V1,V2,... (repeatable; the grid is their product). "
                     "KEY is an engine option (engine:NAME or a bare name), a PopLibs "
                     "option (poplibs:matmul.NAME or matmul.NAME), arg:NAME (replaces "
                     "{NAME} in ARGS) or env:NAME")
        ->type_name("KEY=V1,V2");
    sweepCommand
        ->add_option("--variants", sweepOptions.variantsFile,
                     "JSON array of variants ({\"KEY\": \"VALUE\"} or {\"name\": N, "
                     "\"settings\": {...}}), combined with the --vary grid")
        ->type_name("FILE");
    auto* jobsOption = sweepCommand
                           ->add_option("--jobs,-j", sweepOptions.jobs,
                                        "Variants run at once locally (default: the core count)")
                           ->check(CLI::Range(1u, 4096u));
    sweepCommand
        ->add_option("--timeout", sweepOptions.timeoutSeconds,
                     "Seconds a variant may run before it is killed and recorded failed "
                     "(local; on Slurm use --time)")
        ->check(CLI::NonNegativeNumber)
        ->type_name("SECONDS");
    sweepCommand->add_flag("--resume", sweepOptions.resume,
                           "Finish a sweep in DIR: rerun only variants without a complete report");
    auto* slurmFlag = sweepCommand->add_flag(
        "--slurm", sweepOptions.slurm,
        "Run as one Slurm job array (sbatch; DIR must be on a filesystem the nodes share)");
    auto* partitionOption =
        sweepCommand->add_option("--partition", sweepOptions.partition, "sbatch --partition");
    auto* timeOption = sweepCommand->add_option("--time", sweepOptions.time,
                                                "sbatch --time: each variant's time limit");
    auto* accountOption =
        sweepCommand->add_option("--account", sweepOptions.account, "sbatch --account");
    auto* memOption = sweepCommand->add_option("--mem", sweepOptions.mem, "sbatch --mem");
    auto* cpusOption =
        sweepCommand->add_option("--cpus-per-task", cpusPerTask, "sbatch --cpus-per-task")
            ->check(CLI::Range(1u, 4096u));
    sweepCommand
        ->add_option("--poll-interval", sweepOptions.pollSeconds,
                     "Seconds between squeue polls (Slurm)")
        ->check(CLI::Range(0.1, 3600.0))
        ->capture_default_str();
    for (auto* option : {partitionOption, timeOption, accountOption, memOption, cpusOption})
        option->needs(slurmFlag);
    jobsOption->excludes(slurmFlag);
    addFormatOption(sweepCommand, sweepOptions.format, {"text", "json", "markdown"});
    // Everything after `--` is the program's (taken out before parsing below); a program whose
    // arguments hold no options may also be given without it.
    sweepCommand->add_option("COMMAND", sweepOptions.command,
                             "The program and its arguments, after --");
    sweepCommand->callback([&] {
        sweepOptions.command.insert(sweepOptions.command.end(), sweepProgram.begin(),
                                    sweepProgram.end());
        if (cpusOption->count() > 0)
            sweepOptions.cpusPerTask = cpusPerTask;
        command = [&] { return runSweep(sweepOptions); };
    });

    std::string taskDirectory;
    std::size_t taskIndex = 0;
    auto* taskCommand = app.add_subcommand("sweep-task", "Run one variant of a sweep (a Slurm "
                                                         "array task; used by sweep --slurm)");
    taskCommand->group(""); // hidden from --help
    taskCommand->add_option("DIR", taskDirectory, "Sweep folder")->required();
    taskCommand->add_option("INDEX", taskIndex, "Variant index")->required()->check(nonNegative);
    taskCommand->callback(
        [&] { command = [&] { return runSweepTask(taskDirectory, taskIndex); }; });

    SweepSummaryOptions sweepSummary;
    std::string sweepBaseline, sweepCycles, sweepMemory, sweepTileMemory;
    auto* sweepSummaryCommand = app.add_subcommand(
        "sweep-summary", "The table of a sweep folder: per variant compiled/fits, memory, cycles, "
                         "time by phase, host time and differences from the baseline; a gate "
                         "with --max-*-increase (exit 3)");
    sweepSummaryCommand->add_option("DIR", sweepSummary.directory, "Sweep folder")->required();
    addFormatOption(sweepSummaryCommand, sweepSummary.format, {"text", "json", "markdown"});
    auto* baselineOption = sweepSummaryCommand->add_option(
        "--baseline", sweepBaseline, "Variant to compare with (default: the first that compiled)");
    auto* sweepCyclesOption =
        sweepSummaryCommand->add_option("--max-cycles-increase", sweepCycles,
                                        "Fail (exit 3) if a variant's cycles exceed the "
                                        "baseline's by more");
    auto* sweepMemoryOption =
        sweepSummaryCommand->add_option("--max-memory-increase", sweepMemory,
                                        "Fail (exit 3) if a variant's total memory "
                                        "exceeds the baseline's by more");
    auto* sweepTileOption = sweepSummaryCommand->add_option(
        "--max-tile-memory-increase", sweepTileMemory,
        "Fail (exit 3) if a variant's fullest tile exceeds the baseline's by more");
    for (auto* option : {sweepCyclesOption, sweepMemoryOption, sweepTileOption})
        option->type_name("P%");
    sweepSummaryCommand->callback([&] {
        if (baselineOption->count() > 0)
            sweepSummary.baseline = sweepBaseline;
        if (sweepCyclesOption->count() > 0)
            sweepSummary.maxCyclesIncrease = sweepCycles;
        if (sweepMemoryOption->count() > 0)
            sweepSummary.maxMemoryIncrease = sweepMemory;
        if (sweepTileOption->count() > 0)
            sweepSummary.maxTileMemoryIncrease = sweepTileMemory;
        command = [&] { return runSweepSummary(sweepSummary); };
    });

    // `sweep ... -- PROGRAM ARGS`: the program's words go to the sweep untouched (CLI11 would
    // read options among them).
    std::vector<std::string> words(argv + 1, argv + argc);
    const auto sweepWord = std::find(words.begin(), words.end(), "sweep");
    const auto marker = std::find(sweepWord, words.end(), "--");
    if (sweepWord != words.end() && marker != words.end()) {
        sweepProgram.assign(marker + 1, words.end());
        words.erase(marker, words.end());
    }
    std::reverse(words.begin(), words.end()); // CLI11 takes the arguments last first

    try {
        app.parse(words);
    } catch (const CLI::ParseError& e) {
        // --help and --version are "errors" with exit code 0.
        return app.exit(e) == 0 ? kExitOk : kExitUsage;
    }

    try {
        configureRemoteOpening(remote);
        const int status = command();
        if (remote.stats)
            fmt::print("{}\n", remoteStatsLine());
        if (std::fflush(stdout) != 0 || std::ferror(stdout))
            throw OutputError("standard output",
                              std::string("cannot write: ") + std::strerror(errno));
        return status;
    } catch (const UsageError& e) {
        printError(e.what());
        return kExitUsage;
    } catch (const tilescope::report::ReportError& e) {
        printError(e.what());
        return kExitReportError;
    } catch (const std::exception& e) {
        printError(e.what());
        return kExitReportError;
    } catch (...) {
        printError("unexpected failure");
        return kExitReportError;
    }
}
