#pragma once
// Sweep folders on other machines (`ssh://[user@]host[:port]/path/to/DIR`).

#include "tilescope/report/RemoteStorage.hpp"
#include "tilescope/sweep/SweepSummary.hpp"

#include <cstdint>
#include <string>

namespace tilescope::sweep {

/// The largest sweep.json or summary.json read over SSH (a summary of 1,000 variants is about
/// 1.5 MB; this leaves room for sweeps a hundred times larger).
constexpr std::uint64_t kMaxRemoteSweepFileBytes = 256ull << 20;

/// True when `location` is an ssh:// URL rather than a local folder.
bool isRemoteSweep(const std::string& location);

/// A sweep folder on another machine, shown from its summary.json (what `tilescope-cli sweep`
/// writes when it ends) without opening a report: the table's folder is the URL, so a variant's
/// report is `URL/<variant>/profile.pop`, opened through the SFTP VFS like any ssh:// report.
/// Reads `URL/sweep.json` (to say when the folder is not a sweep) and `URL/summary.json` over
/// one SSH connection. Throws SweepError naming the URL and what is wrong.
SweepSummary readRemoteSweep(const std::string& sshUrl, const report::SshOptions& options);

} // namespace tilescope::sweep
