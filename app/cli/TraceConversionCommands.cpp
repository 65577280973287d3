// import-trace and export-trace: Chrome trace-event JSON to and from host traces (*.pvti).

#include "CliErrors.hpp"
#include "Commands.hpp"
#include "tilescope/report/ChromeTrace.hpp"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>

namespace tilescope::cli {
namespace {

void refuseSameFile(const std::string& in, const std::string& out) {
    std::error_code ec;
    if (std::filesystem::equivalent(in, out, ec))
        throw UsageError(fmt::format("{}: the output would overwrite the input", out));
}

void printStats(const char* verb, const report::ChromeTraceStats& s, const std::string& out,
                double seconds) {
    fmt::print("{} {} events and {} counter samples to {} ({:.2f} s, {:.0f} events/s)\n", verb,
               s.events, s.samples, out, seconds,
               seconds > 0 ? static_cast<double>(s.events + s.samples) / seconds : 0.0);
}

} // namespace

int runImportTrace(const TraceConversionOptions& o) {
    refuseSameFile(o.input, o.output);
    const auto start = std::chrono::steady_clock::now();
    report::ChromeTraceImportOptions options;
    options.strict = o.strict;
    const auto stats = report::importChromeTrace(o.input, o.output, options);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The one summary line of repairs, then where it went and how fast.
    fmt::print("{}\n", report::describeImport(stats));
    fmt::print("wrote {} ({:.2f} s, {:.0f} events/s)\n", o.output, seconds,
               seconds > 0 ? static_cast<double>(stats.events + stats.samples) / seconds : 0.0);
    return kExitOk;
}

int runExportTrace(const TraceConversionOptions& o) {
    refuseSameFile(o.input, o.output);
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::filesystem::path> profiles;
    for (const auto& p : o.profiles) {
        refuseSameFile(p, o.output);
        // A report folder stands for its profile.pop, as everywhere else.
        std::error_code ec;
        profiles.push_back(std::filesystem::is_directory(p, ec)
                               ? std::filesystem::path(p) / "profile.pop"
                               : std::filesystem::path(p));
    }
    const auto stats = report::exportChromeTrace(o.input, o.output, profiles);
    printStats("exported", stats, o.output,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return kExitOk;
}

} // namespace tilescope::cli
