#pragma once
// A real OpenSSH server for the remote-storage tests: /usr/sbin/sshd on 127.0.0.1 with host and
// user keys made by ssh-keygen in a scratch folder, its own sshd_config (runs as the current
// user, root included), an ssh_config for the client and a known_hosts that trusts it.

#include <filesystem>
#include <string>
#include <sys/types.h>
#include <vector>

namespace tilescope::testing {

/// Runs a command (argv[0] looked up in PATH) and returns its exit status; output to `log`.
int runCommand(const std::vector<std::string>& argv, const std::filesystem::path& log);

/// The user the tests log in as.
std::string currentUserName();

/// A scratch folder laid out as a small SSH world: `home/` (HOME for the client, so that no key
/// of the person running the tests is used), key pairs, ssh_config, known_hosts.
class SshWorld {
public:
    SshWorld();
    ~SshWorld();
    SshWorld(const SshWorld&) = delete;
    SshWorld& operator=(const SshWorld&) = delete;

    const std::filesystem::path& dir() const { return dir_; }
    std::filesystem::path operator/(const std::string& name) const { return dir_ / name; }
    /// Makes an ed25519 key pair DIR/name, DIR/name.pub (with a passphrase when given).
    std::filesystem::path makeKey(const std::string& name, const std::string& passphrase = "");
    /// Points HOME at DIR/home, removes SSH_AUTH_SOCK and drops the controlling terminal, for
    /// the child processes.
    void isolateEnvironment() const;

private:
    std::filesystem::path dir_;
};

/// One sshd process (and the per-connection processes it forks).
class SshTestServer {
public:
    /// Starts sshd on 127.0.0.1 with the world's host key `hostKey` and `authorized_keys`.
    SshTestServer(const SshWorld& world, const std::string& name,
                  const std::filesystem::path& hostKey, const std::filesystem::path& authorizedKeys,
                  const std::string& logLevel = "ERROR");
    ~SshTestServer();
    SshTestServer(const SshTestServer&) = delete;
    SshTestServer& operator=(const SshTestServer&) = delete;

    int port() const { return port_; }
    /// `[127.0.0.1]:PORT <host public key>`: a known_hosts line for this server.
    std::string knownHostsLine() const;
    /// SIGKILL to sshd and every process it started (open connections drop at once).
    void kill();
    /// SIGSTOP / SIGCONT to the same processes: connections stay open but nothing answers.
    void freeze(bool frozen);
    std::string log() const;

private:
    std::vector<pid_t> processTree() const;

    std::filesystem::path hostKey_;
    std::filesystem::path logFile_;
    int port_ = 0;
    pid_t pid_ = -1;
};

} // namespace tilescope::testing
