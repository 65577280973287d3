#pragma once
// Remote storage: reports opened in place on another machine over SSH (SFTP), read page by page.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tilescope::report {

/// A parsed `ssh://[user@]host[:port]/path` location. `host` may be an alias of the SSH
/// configuration (resolved when connecting). The path is percent-decoded and may contain spaces;
/// `/~/rest` means `rest` relative to the remote user's home folder.
struct SshUrl {
    std::string user; ///< empty: from the SSH configuration or the local user name
    std::string host;
    std::optional<int> port; ///< empty: from the SSH configuration or 22
    std::string path;

    /// True when `location` starts with `ssh://` (any case): it names a remote file.
    static bool matches(std::string_view location);
    /// Parses a location; throws ReportError naming it when it is not a valid ssh:// URL.
    static SshUrl parse(const std::string& location);
};

/// Questions that opening a remote report may have to ask a person: the front end implements them
/// (the CLI on its terminal, the GUI in dialogs). Each may decline (an empty optional or false),
/// which ends that way of authenticating. Answers are secrets: implementations keep them in
/// memory only and the connection wipes them once used.
class SshInteraction {
public:
    virtual ~SshInteraction() = default;
    /// The passphrase of a private key file.
    virtual std::optional<std::string> passphrase(const std::string& keyFile) = 0;
    /// One prompt of password or keyboard-interactive authentication (`echo`: show the answer).
    virtual std::optional<std::string> answer(const std::string& destination,
                                              const std::string& prompt, bool echo) = 0;
    /// A host whose key is not in known_hosts: accept (and record) this key?
    virtual bool acceptNewHostKey(const std::string& host, const std::string& keyType,
                                  const std::string& fingerprint) = 0;
};

/// Traffic of remote reads, shared by every file opened with the same options. `fileSize` is the
/// sum of the sizes of the files opened.
struct RemoteReadCounters {
    std::atomic<std::uint64_t> bytesRead{0};
    std::atomic<std::uint64_t> roundTrips{0};
    std::atomic<std::uint64_t> fileSize{0};
};

/// How remote files are reached. Empty files mean OpenSSH's defaults (`~/.ssh/config` then
/// `/etc/ssh/ssh_config`; `~/.ssh/known_hosts`). An unknown host key is accepted when
/// `acceptNewHostKey` is set or `interaction` accepts it, and refused otherwise; a changed host
/// key is always refused. `timeoutSeconds` bounds connecting and every wait for the server.
struct SshOptions {
    std::string configFile;
    std::string knownHostsFile;
    bool acceptNewHostKey = false;
    std::shared_ptr<SshInteraction> interaction;
    int timeoutSeconds = 10;
    std::shared_ptr<RemoteReadCounters> counters; ///< optional: receives the traffic
};

/// Options used when a report is opened by location only (`ReportFile(location)`, the readers'
/// path constructors): a front end sets them once at start-up. Thread-safe.
void setDefaultSshOptions(const SshOptions& options);
SshOptions defaultSshOptions();

} // namespace tilescope::report
