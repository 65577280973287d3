#include "ReportOpening.hpp"

#include "TerminalSshInteraction.hpp"
#include "tilescope/report/RemoteStorage.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <system_error>

namespace tilescope::cli {
namespace {

std::shared_ptr<report::RemoteReadCounters> statsCounters;

} // namespace

void configureRemoteOpening(const RemoteOpeningOptions& options) {
    report::SshOptions ssh;
    ssh.configFile = options.sshConfig;
    ssh.knownHostsFile = options.knownHosts;
    ssh.acceptNewHostKey = options.acceptNewHostKey;
    ssh.interaction = openTerminalSshInteraction();
    if (options.stats) {
        statsCounters = std::make_shared<report::RemoteReadCounters>();
        ssh.counters = statsCounters;
    }
    report::setDefaultSshOptions(ssh);
}

std::string remoteStatsLine() {
    if (!statsCounters)
        return {};
    return fmt::format("bytes_read={} round_trips={} file_size={}", statsCounters->bytesRead.load(),
                       statsCounters->roundTrips.load(), statsCounters->fileSize.load());
}

std::string resolveReportPath(const std::string& argument) {
    namespace fs = std::filesystem;
    if (report::SshUrl::matches(argument))
        return argument;
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
