#pragma once
// The subcommands of tilescope-cli. Each takes its parsed options, writes to standard output and
// returns an exit code; failures are thrown (ReportError, UsageError, OutputError) and turned into
// one line on standard error by main().

#include "tilescope/report/SyntheticReport.hpp"

#include <cstdint>
#include <optional>
#include <string>

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
};
/// Chrome trace-event JSON to a host trace.
int runImportTrace(const TraceConversionOptions& options);
/// A host trace to Chrome trace-event JSON.
int runExportTrace(const TraceConversionOptions& options);

} // namespace tilescope::cli
