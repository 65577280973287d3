// Sweep folders read over SSH: sweep.json and summary.json through reportfmt's SFTP access.

#include "tilescope/sweep/RemoteSweep.hpp"

#include "tilescope/report/RemoteDirectory.hpp"
#include "tilescope/report/ReportError.hpp"

#include <nlohmann/json.hpp>

namespace tilescope::sweep {

bool isRemoteSweep(const std::string& location) {
    return report::SshUrl::matches(location);
}

SweepSummary readRemoteSweep(const std::string& sshUrl, const report::SshOptions& options) {
    std::string url = sshUrl;
    while (url.size() > 1 && url.back() == '/' && url[url.size() - 2] != '/')
        url.pop_back();
    try {
        const std::string folder = report::remoteFolderOf(url);
        const auto inFolder = [&folder](const char* name) {
            if (folder.empty())
                return std::string(name);
            return folder.back() == '/' ? folder + name : folder + "/" + name;
        };
        report::RemoteFolderBrowser browser(url, options);
        std::string planText;
        try {
            planText = browser.readFile(inFolder("sweep.json"), kMaxRemoteSweepFileBytes);
        } catch (const report::ReportError& e) {
            throw SweepError(std::string(e.what()) + " (is " + url + " a sweep folder?)");
        }
        const auto plan = nlohmann::json::parse(planText, nullptr, false);
        if (plan.is_discarded() || !plan.is_object() ||
            plan.value("format", "") != "tilescope-sweep")
            throw SweepError(url + "/sweep.json: not a TileScope sweep file");
        std::string summaryText;
        try {
            summaryText = browser.readFile(inFolder("summary.json"), kMaxRemoteSweepFileBytes);
        } catch (const report::ReportError& e) {
            // Summarizing would open every report over the network: the host does it instead.
            throw SweepError(std::string(e.what()) +
                             " (a sweep on another machine is shown from the summary.json "
                             "that `tilescope-cli sweep` writes when it ends)");
        }
        auto summary = parseSummaryJson(summaryText, url);
        if (!summary)
            throw SweepError(url + "/summary.json: not a TileScope sweep summary");
        return std::move(*summary);
    } catch (const report::ReportError& e) { // connecting, authentication, a bad URL
        throw SweepError(e.what());
    }
}

} // namespace tilescope::sweep
