#pragma once
// Remote folders: what a front end shows so that a person can pick a report on another machine.

#include "tilescope/report/RemoteStorage.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::report {

/// True for the names of files TileScope opens: `profile.pop`, `*.pop` and `*.pvti`.
bool isReportFileName(std::string_view name);

/// One entry of a remote folder. Symbolic links are followed for `isDirectory` and `size`
/// (a dangling link is listed as a file of size 0). `modified` is in seconds since the epoch.
struct RemoteEntry {
    std::string name;
    bool isDirectory = false;
    bool isReport = false; ///< a file named as isReportFileName says
    std::uint64_t size = 0;
    std::int64_t modified = 0;
};

/// A listed folder: its absolute path on the server (as the server resolved it: `~` and `..`
/// are gone) and its entries without `.` and `..`, folders first, then by name. A folder with
/// more than `kMaxEntries` entries is cut there and marked `truncated`.
struct RemoteListing {
    static constexpr std::size_t kMaxEntries = 20000;
    std::string folder;
    std::vector<RemoteEntry> entries;
    bool truncated = false;
};

/// One SSH connection kept open to browse the folders of a host, so that listing folder after
/// folder logs in (and asks its questions) once. Connecting works as for opening a report
/// (configuration, host key check, authentication through `SshOptions`). `list` bounds every
/// listing by the options' timeout; once the connection fails, every later call fails at once
/// with the same ReportError (connect again with a new browser). Thread-safe (one lock).
class RemoteFolderBrowser {
public:
    /// Connects to the host of `sshUrl` (`ssh://[user@]host[:port][/anything]`; the path is not
    /// used). Throws ReportError naming the URL.
    RemoteFolderBrowser(const std::string& sshUrl, const SshOptions& options);
    ~RemoteFolderBrowser();
    RemoteFolderBrowser(const RemoteFolderBrowser&) = delete;
    RemoteFolderBrowser& operator=(const RemoteFolderBrowser&) = delete;

    /// Lists `folder`: an absolute path, or a path relative to the remote user's home folder
    /// (empty or `~`: the home folder itself; `~/x` as `x`). Throws ReportError.
    RemoteListing list(const std::string& folder);
    /// The whole of the small file `file` (a path as for `list`), for sweep.json-like files.
    /// Throws ReportError naming the file's URL when it is missing, a folder, unreadable or
    /// larger than `maxBytes`.
    std::string readFile(const std::string& file, std::uint64_t maxBytes);
    /// user@host:port as resolved from the SSH configuration.
    const std::string& destination() const;
    /// False once a listing found the connection lost (every later call would fail).
    bool connected() const;

private:
    struct Connection;
    std::unique_ptr<Connection> connection_;
};

/// The folder path an `ssh://` folder URL names, for RemoteFolderBrowser::list: no path or `/~`
/// is the home folder (empty), `/` is the root, trailing slashes are ignored, `/~/x` is `x`.
/// Throws ReportError naming the URL when it is not a valid ssh:// URL.
std::string remoteFolderOf(const std::string& sshUrl);

/// Lists the folder named by an ssh:// URL over a connection of its own (see
/// RemoteFolderBrowser and remoteFolderOf). Throws ReportError naming the URL.
RemoteListing listRemoteDirectory(const std::string& sshUrl, const SshOptions& options);

/// Reads the small file an ssh:// URL names (`/~/x` is relative to the home folder) whole, over
/// a connection of its own (see RemoteFolderBrowser::readFile). Throws ReportError naming the URL.
std::string readRemoteFile(const std::string& sshUrl, const SshOptions& options,
                           std::uint64_t maxBytes);

} // namespace tilescope::report
