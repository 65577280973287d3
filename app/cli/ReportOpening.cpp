#include "ReportOpening.hpp"

#include <filesystem>
#include <system_error>

namespace tilescope::cli {

std::string resolveReportPath(const std::string& argument) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(argument, ec))
        return argument;
    const fs::path profile = fs::path(argument) / "profile.pop";
    if (!fs::exists(profile, ec))
        throw report::ReportError(argument, "is a folder without a profile.pop report");
    return profile.string();
}

report::ReportFile openReportFile(const std::string& argument) {
    const std::string path = resolveReportPath(argument);
    return readingReport(path, [&] { return report::ReportFile(path); });
}

} // namespace tilescope::cli
