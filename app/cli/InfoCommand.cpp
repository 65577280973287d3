// `tilescope-cli info FILE`: what a file is, who wrote it, for which target, and how much is in
// it. Reads metadata, the target and row counts only (each count is a rowid bound), so it costs
// the same on a report of any size.

#include "CliErrors.hpp"
#include "Commands.hpp"
#include "ReportOpening.hpp"
#include "TableWriter.hpp"
#include "TargetDescription.hpp"
#include "Units.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <charconv>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tilescope::cli {
namespace {

using nlohmann::json;
using report::FileKind;

std::string compileStatusText(const std::string& status) {
    if (status == "ok")
        return "complete";
    if (status == "out_of_memory")
        return "OUT OF MEMORY (profile of a failed compilation)";
    return "not finished (the writer stopped before the end of compilation)";
}

json fileJson(const report::ReportFile& file) {
    return {{"file", file.path()},
            {"kind", file.kind() == FileKind::Profile ? "profile" : "host_trace"},
            {"format_version", file.formatVersion()},
            {"tool_version", file.metadataValue("tool_version")},
            {"created_utc", file.metadataValue("created_utc")},
            {"writer_state", file.complete() ? "complete" : "incomplete"},
            {"engine_name", file.metadataValue("engine_name")},
            {"command_line", file.metadataValue("command_line")}};
}

void printField(std::string_view label, std::string_view value) {
    fmt::print("{:<16}{}\n", label, value);
}

void printFileFields(const report::ReportFile& file) {
    printField("File", file.path());
    printField("Kind", file.kind() == FileKind::Profile ? "profile report" : "host trace (pvti)");
    printField("Format version", std::to_string(file.formatVersion()));
    printField("Tool version", file.metadataValue("tool_version", "(not recorded)"));
    printField("Created", file.metadataValue("created_utc", "(not recorded)"));
    printField("Writer state", file.complete()
                                   ? "complete"
                                   : "incomplete (still being written, or the writer stopped)");
    if (file.kind() == FileKind::Profile)
        printField("Engine", file.metadataValue("engine_name", "(not recorded)"));
    printField("Command line", file.metadataValue("command_line", "(not recorded)"));
}

int profileInfo(report::ReportFile file, bool asJson) {
    const std::string path = file.path();
    readingReport(path, [&] {
        const report::ProfileReader reader(std::move(file));
        const auto counts = reader.counts();
        const std::string status = reader.file().metadataValue("compile_status");
        if (asJson) {
            json j = fileJson(reader.file());
            j["target"] = targetJson(reader.target());
            j["compile_status"] = status.empty() ? "unfinished" : status;
            j["counts"] = {
                {"programs", counts.programs},        {"steps", counts.steps},
                {"compute_sets", counts.computeSets}, {"vertex_types", counts.vertexTypes},
                {"vertices", counts.vertices},        {"variables", counts.variables},
                {"operations", counts.operations},    {"runs", counts.runs},
                {"run_steps", counts.runSteps}};
            fmt::print("{}", dumpJson(j));
            return;
        }
        printFileFields(reader.file());
        printField("Target", describeTarget(reader.target()));
        printField("Compilation", compileStatusText(status));
        printField("Programs", groupDigits(counts.programs));
        printField("Steps", groupDigits(counts.steps));
        printField("Compute sets", groupDigits(counts.computeSets));
        printField("Vertices", fmt::format("{} ({} vertex types)", groupDigits(counts.vertices),
                                           groupDigits(counts.vertexTypes)));
        printField("Variables", groupDigits(counts.variables));
        printField("Operations", groupDigits(counts.operations));
        printField("Runs", fmt::format("{} ({} executed steps)", groupDigits(counts.runs),
                                       groupDigits(counts.runSteps)));
    });
    return kExitOk;
}

int hostTraceInfo(report::ReportFile file, bool asJson) {
    const std::string path = file.path();
    readingReport(path, [&] {
        const report::HostTraceReader reader(std::move(file));
        const auto counts = reader.counts();
        const auto span = reader.timeSpan();
        if (asJson) {
            json j = fileJson(reader.file());
            j["counts"] = {{"processes", counts.processes}, {"threads", counts.threads},
                           {"channels", counts.channels},   {"events", counts.events},
                           {"graphs", counts.graphs},       {"series", counts.series},
                           {"samples", counts.samples}};
            j["time_span"] = span ? json{{"start_ns", span->first},
                                         {"end_ns", span->second},
                                         {"duration_ns", span->second - span->first}}
                                  : json(nullptr);
            // A Chrome trace import records where from and what it repaired.
            const auto& meta = reader.file().metadata();
            if (meta.count("imported_from")) {
                json imported = {{"from", meta.at("imported_from")}};
                for (const auto& [key, value] : meta)
                    if (key.rfind("import_", 0) == 0 && key != "import_summary") {
                        std::int64_t n = 0;
                        const auto [end, ec] =
                            std::from_chars(value.data(), value.data() + value.size(), n);
                        if (ec == std::errc() && end == value.data() + value.size())
                            imported[key.substr(7)] = n;
                        else
                            imported[key.substr(7)] = value;
                    }
                j["import"] = imported;
            }
            fmt::print("{}", dumpJson(j));
            return;
        }
        printFileFields(reader.file());
        if (const std::string from = reader.file().metadataValue("imported_from"); !from.empty())
            printField("Imported from", from);
        if (const std::string summary = reader.file().metadataValue("import_summary");
            !summary.empty())
            printField("Import", summary);
        printField("Processes", groupDigits(counts.processes));
        printField("Threads", groupDigits(counts.threads));
        printField("Channels", groupDigits(counts.channels));
        printField("Events", groupDigits(counts.events));
        printField("Series", fmt::format("{} (in {} graphs)", groupDigits(counts.series),
                                         groupDigits(counts.graphs)));
        printField("Samples", groupDigits(counts.samples));
        printField(
            "Time span",
            span ? fmt::format("{} from {} to {}",
                               formatDurationNs(static_cast<double>(span->second - span->first)),
                               formatUtcNs(span->first), formatUtcNs(span->second))
                 : std::string("(no events)"));
    });
    return kExitOk;
}

} // namespace

int runInfo(const InfoOptions& options) {
    const bool asJson = parseTableFormat(options.format) == TableFormat::Json;
    report::ReportFile file = openReportFile(options.file);
    return file.kind() == FileKind::Profile ? profileInfo(std::move(file), asJson)
                                            : hostTraceInfo(std::move(file), asJson);
}

} // namespace tilescope::cli
