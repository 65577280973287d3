#pragma once
// An authenticated SSH connection for remote reports, private to reportfmt.

#include "tilescope/report/RemoteStorage.hpp"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <memory>
#include <optional>
#include <string>

namespace tilescope::report::remote {

class SshJumpTunnel;

/// One blocking libssh session to a host named as in ssh_config (alias, HostName, User, Port,
/// IdentityFile, ProxyJump), with the host key checked against known_hosts and the user
/// authenticated by ssh-agent, key files, keyboard-interactive, then password. Jump hosts are
/// SshConnections of their own, owned by the connection that goes through them. Every failure is
/// a ReportError naming `location` (the URL being opened).
class SshConnection {
public:
    SshConnection(const std::string& location, const std::string& host, const std::string& user,
                  std::optional<int> port, const SshOptions& options,
                  std::unique_ptr<SshConnection> via = nullptr);
    ~SshConnection();
    SshConnection(const SshConnection&) = delete;
    SshConnection& operator=(const SshConnection&) = delete;

    ssh_session session() const { return session_.get(); }
    /// user@host:port, as resolved from the configuration.
    const std::string& destination() const { return destination_; }
    const std::string& location() const { return location_; }
    const SshOptions& options() const { return options_; }

private:
    void verifyHostKey();
    void authenticate();
    bool tryKeyboardInteractive();
    bool tryPassword();
    [[noreturn]] void fail(const std::string& what) const;
    static int passphraseCallback(const char* prompt, char* buf, size_t len, int echo, int verify,
                                  void* userdata);

    std::string location_;
    SshOptions options_;
    std::string destination_;
    std::unique_ptr<SshConnection> jump_;
    std::unique_ptr<SshJumpTunnel> tunnel_;
    ssh_callbacks_struct callbacks_{};
    struct SessionDeleter {
        void operator()(ssh_session s) const;
    };
    // Last: closed first, while the callbacks and the tunnel it talks through still exist.
    std::unique_ptr<ssh_session_struct, SessionDeleter> session_;
};

} // namespace tilescope::report::remote
