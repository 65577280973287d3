#include "tilescope/report/RemoteDirectory.hpp"

#include "SshConnection.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fcntl.h>
#include <fmt/format.h>
#include <libssh/sftp.h>
#include <mutex>
#include <sys/socket.h>
#include <thread>

namespace tilescope::report {
namespace {

std::string sftpProblem(sftp_session sftp, std::string_view missing = "no such folder") {
    switch (sftp_get_error(sftp)) {
    case SSH_FX_NO_SUCH_FILE:
    case SSH_FX_NO_SUCH_PATH:
        return std::string(missing);
    case SSH_FX_PERMISSION_DENIED:
        return "permission denied";
    default:
        return fmt::format("SFTP error: {}", ssh_get_error(sftp->session));
    }
}

// libssh's SFTP calls wait for the server without a limit. A silent server must not hold a
// listing forever: past the deadline the socket is shut down from this watchdog thread, which
// wakes the blocked call with an error (shutdown is safe while another thread polls the socket).
class ServerDeadline {
public:
    ServerDeadline(socket_t socket, int seconds)
        : watchdog_([this, socket, seconds] {
              std::unique_lock lock(mutex_);
              if (!done_.wait_for(lock, std::chrono::seconds(std::max(1, seconds)),
                                  [this] { return finished_; })) {
                  expired_ = true;
                  ::shutdown(socket, SHUT_RDWR);
              }
          }) {}
    ~ServerDeadline() {
        {
            std::lock_guard lock(mutex_);
            finished_ = true;
        }
        done_.notify_all();
        watchdog_.join();
    }
    ServerDeadline(const ServerDeadline&) = delete;
    ServerDeadline& operator=(const ServerDeadline&) = delete;

    bool expired() {
        std::lock_guard lock(mutex_);
        return expired_;
    }

private:
    std::mutex mutex_;
    std::condition_variable done_;
    bool finished_ = false;
    bool expired_ = false;
    std::thread watchdog_; // last: started once the members it uses exist
};

std::string::size_type pathStart(const std::string& sshUrl) {
    return sshUrl.find('/', 6); // after "ssh://"
}

// SFTP servers start in the user's home folder: relative paths are relative to it.
std::string serverPath(const std::string& path) {
    if (path.empty() || path == "~")
        return ".";
    if (path.starts_with("~/"))
        return path.substr(2);
    return path;
}

bool folderFirst(const RemoteEntry& a, const RemoteEntry& b) {
    if (a.isDirectory != b.isDirectory)
        return a.isDirectory;
    return a.name < b.name;
}

} // namespace

bool isReportFileName(std::string_view name) {
    return name.ends_with(".pop") || name.ends_with(".pvti");
}

std::string remoteFolderOf(const std::string& sshUrl) {
    if (!SshUrl::matches(sshUrl))
        throw ReportError(sshUrl, "not an ssh:// URL");
    std::string s = sshUrl;
    if (pathStart(s) == std::string::npos)
        s += "/~";
    const auto start = pathStart(s);
    while (s.size() > start + 1 && s.back() == '/')
        s.pop_back();
    // SshUrl::parse takes file URLs: the root is spelt "/." for it.
    const SshUrl url = SshUrl::parse(s.back() == '/' ? s + "." : s);
    if (url.path == "/.")
        return "/";
    if (url.path == "/~")
        return {};
    return url.path;
}

struct RemoteFolderBrowser::Connection {
    std::string urlBase; // ssh://[user@]host[:port], as given
    std::unique_ptr<remote::SshConnection> ssh;
    sftp_session sftp = nullptr;
    std::mutex mutex;
    std::string failure;

    ~Connection() {
        if (sftp)
            sftp_free(sftp);
    }

    std::string location(const std::string& folder) const {
        if (folder.empty() || folder.front() != '/')
            return urlBase + "/~/" + folder;
        return urlBase + folder;
    }

    [[noreturn]] void breakConnection(const std::string& folder, const std::string& why,
                                      std::string_view doing = "listing a folder") {
        failure =
            fmt::format("connection to {} lost while {} ({})", ssh->destination(), doing, why);
        throw ReportError(location(folder), failure);
    }

    // A failed call: the connection is gone (or the deadline cut it), or only this path failed.
    // `file` says what was being done with `path`: a failed file read is "no such file".
    [[noreturn]] void fail(const std::string& path, ServerDeadline& deadline, bool file = false) {
        const std::string_view doing = file ? "reading a file" : "listing a folder";
        ssh_session session = ssh->session();
        if (deadline.expired())
            breakConnection(
                path, fmt::format("no answer within {} s", ssh->options().timeoutSeconds), doing);
        const int code = sftp_get_error(sftp);
        if (!ssh_is_connected(session) || ssh_get_error_code(session) == SSH_FATAL ||
            code == SSH_FX_CONNECTION_LOST || code == SSH_FX_NO_CONNECTION)
            breakConnection(path, ssh_get_error(session), doing);
        throw ReportError(location(path),
                          sftpProblem(sftp, file ? "no such file" : "no such folder"));
    }
};

RemoteFolderBrowser::RemoteFolderBrowser(const std::string& sshUrl, const SshOptions& options)
    : connection_(std::make_unique<Connection>()) {
    if (!SshUrl::matches(sshUrl))
        throw ReportError(sshUrl, "not an ssh:// URL");
    const auto start = pathStart(sshUrl);
    connection_->urlBase = start == std::string::npos ? sshUrl : sshUrl.substr(0, start);
    // Any path makes the authority parse; the one given is not used here.
    const SshUrl url = SshUrl::parse(connection_->urlBase + "/.");
    connection_->ssh =
        std::make_unique<remote::SshConnection>(sshUrl, url.host, url.user, url.port, options);
    ssh_session session = connection_->ssh->session();
    connection_->sftp = sftp_new(session);
    if (!connection_->sftp || sftp_init(connection_->sftp) != SSH_OK)
        throw ReportError(sshUrl,
                          fmt::format("{}: the server does not offer SFTP ({})",
                                      connection_->ssh->destination(), ssh_get_error(session)));
}

RemoteFolderBrowser::~RemoteFolderBrowser() = default;

const std::string& RemoteFolderBrowser::destination() const {
    return connection_->ssh->destination();
}

bool RemoteFolderBrowser::connected() const {
    std::lock_guard lock(connection_->mutex);
    return connection_->failure.empty();
}

RemoteListing RemoteFolderBrowser::list(const std::string& folder) {
    Connection& c = *connection_;
    std::lock_guard lock(c.mutex);
    if (!c.failure.empty())
        throw ReportError(c.location(folder), c.failure);
    // SFTP servers start in the user's home folder: relative paths are relative to it.
    const std::string path = serverPath(folder);

    ServerDeadline deadline(ssh_get_fd(c.ssh->session()), c.ssh->options().timeoutSeconds);
    char* canonical = sftp_canonicalize_path(c.sftp, path.c_str());
    if (!canonical)
        c.fail(folder, deadline);
    RemoteListing listing;
    listing.folder = canonical;
    ssh_string_free_char(canonical);

    sftp_dir dir = sftp_opendir(c.sftp, listing.folder.c_str());
    if (!dir)
        c.fail(listing.folder, deadline);
    const std::string prefix = listing.folder == "/" ? "/" : listing.folder + "/";
    while (sftp_attributes a = sftp_readdir(c.sftp, dir)) {
        const std::string name = a->name ? a->name : "";
        RemoteEntry e;
        e.name = name;
        e.isDirectory = a->type == SSH_FILEXFER_TYPE_DIRECTORY;
        e.size = a->size;
        e.modified = static_cast<std::int64_t>(a->mtime);
        const bool link = a->type == SSH_FILEXFER_TYPE_SYMLINK;
        sftp_attributes_free(a);
        if (name.empty() || name == "." || name == "..")
            continue;
        if (listing.entries.size() == RemoteListing::kMaxEntries) {
            listing.truncated = true;
            break;
        }
        if (link) {
            e.size = 0;
            if (sftp_attributes target = sftp_stat(c.sftp, (prefix + name).c_str())) {
                e.isDirectory = target->type == SSH_FILEXFER_TYPE_DIRECTORY;
                e.size = target->size;
                sftp_attributes_free(target);
            } else if (deadline.expired() || !ssh_is_connected(c.ssh->session())) {
                sftp_closedir(dir);
                c.fail(listing.folder, deadline);
            }
        }
        e.isReport = !e.isDirectory && isReportFileName(e.name);
        listing.entries.push_back(std::move(e));
    }
    const bool complete = listing.truncated || sftp_dir_eof(dir);
    if (!complete && (deadline.expired() || !ssh_is_connected(c.ssh->session()))) {
        sftp_closedir(dir);
        c.fail(listing.folder, deadline);
    }
    sftp_closedir(dir);
    if (!complete)
        throw ReportError(c.location(listing.folder),
                          "cannot read the folder: " + sftpProblem(c.sftp));
    std::sort(listing.entries.begin(), listing.entries.end(), folderFirst);
    return listing;
}

std::string RemoteFolderBrowser::readFile(const std::string& file, std::uint64_t maxBytes) {
    Connection& c = *connection_;
    std::lock_guard lock(c.mutex);
    if (!c.failure.empty())
        throw ReportError(c.location(file), c.failure);
    ServerDeadline deadline(ssh_get_fd(c.ssh->session()), c.ssh->options().timeoutSeconds);
    sftp_file f = sftp_open(c.sftp, serverPath(file).c_str(), O_RDONLY, 0);
    if (!f)
        c.fail(file, deadline, true);
    std::unique_ptr<sftp_file_struct, int (*)(sftp_file)> open(f, sftp_close);
    if (sftp_attributes a = sftp_fstat(f)) {
        const bool folder = a->type == SSH_FILEXFER_TYPE_DIRECTORY;
        const std::uint64_t size = a->size;
        sftp_attributes_free(a);
        if (folder)
            throw ReportError(c.location(file), "a folder, not a file");
        if (size > maxBytes)
            throw ReportError(c.location(file),
                              fmt::format("{} bytes, more than the {} read here", size, maxBytes));
    }
    std::string text;
    char buffer[32768];
    for (;;) {
        const ssize_t n = sftp_read(f, buffer, sizeof buffer);
        if (n < 0)
            c.fail(file, deadline, true);
        if (n == 0)
            break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > maxBytes) // the file grew since its size was read
            throw ReportError(c.location(file), fmt::format("more than {} bytes", maxBytes));
    }
    return text;
}

std::string readRemoteFile(const std::string& sshUrl, const SshOptions& options,
                           std::uint64_t maxBytes) {
    const std::string file = remoteFolderOf(sshUrl);
    if (file.empty() || file == "/")
        throw ReportError(sshUrl, "names a folder, not a file");
    RemoteFolderBrowser browser(sshUrl, options);
    return browser.readFile(file, maxBytes);
}

RemoteListing listRemoteDirectory(const std::string& sshUrl, const SshOptions& options) {
    const std::string folder = remoteFolderOf(sshUrl);
    RemoteFolderBrowser browser(sshUrl, options);
    return browser.list(folder);
}

} // namespace tilescope::report
