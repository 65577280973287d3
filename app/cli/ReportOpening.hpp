#pragma once

#include "CliErrors.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/ReportFile.hpp"

#include <exception>
#include <new>
#include <string>

namespace tilescope::cli {

/// How ssh:// arguments are reached, from the command line (--ssh-config, --known-hosts,
/// --accept-new-host-key, --stats).
struct RemoteOpeningOptions {
    std::string sshConfig;
    std::string knownHosts;
    bool acceptNewHostKey = false;
    bool stats = false;
};

/// Applies the options to every later open of an ssh:// argument (here and in the report
/// format's own opening by path), with questions asked on the terminal when there is one.
void configureRemoteOpening(const RemoteOpeningOptions& options);

/// With --stats, the traffic of the remote files opened so far as one line
/// `bytes_read=N round_trips=M file_size=S`; empty without --stats.
std::string remoteStatsLine();

/// The file a FILE argument names: the argument itself (an ssh:// URL is kept as it is), or
/// `DIR/profile.pop` for a local report folder.
std::string resolveReportPath(const std::string& argument);

/// Opens and validates a report or host trace named by a FILE argument.
report::ReportFile openReportFile(const std::string& argument);

/// Runs `read` and turns any failure other than a ReportError into one naming `path`. Readers
/// promise ReportErrors, but a damaged file must never surface as a bare "stoull" or
/// "vector::_M_default_append" without saying which file was being read.
template <class Read> auto readingReport(const std::string& path, Read&& read) -> decltype(read()) {
    try {
        return read();
    } catch (const report::ReportError&) {
        throw;
    } catch (const UsageError&) {
        throw;
    } catch (const OutputError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw report::ReportError(path, "file is damaged or too large (out of memory while "
                                        "reading it)");
    } catch (const std::exception& e) {
        throw report::ReportError(path, std::string("file is damaged (") + e.what() + ")");
    }
}

} // namespace tilescope::cli
