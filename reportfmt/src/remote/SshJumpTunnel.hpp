#pragma once
// A TCP connection made by a jump host (an SSH "direct-tcpip" channel), handed to libssh as a
// socket: libssh 0.10 turns ProxyJump into a ProxyCommand running the `ssh` binary, which would
// ignore our configuration file, known_hosts and prompts, so jumps are made here instead.

#include <atomic>
#include <libssh/libssh.h>
#include <string>
#include <thread>

namespace tilescope::report::remote {

/// Opens a channel from `via` (an authenticated session) to host:port and relays it to one end of
/// a socket pair on a thread; the other end (`socket()`) is given to the next session with
/// SSH_OPTIONS_FD, which then owns it. The relay owns `via` while it runs and stops when either
/// side closes or on destruction.
class SshJumpTunnel {
public:
    SshJumpTunnel(ssh_session via, const std::string& host, int port, const std::string& location);
    ~SshJumpTunnel();
    SshJumpTunnel(const SshJumpTunnel&) = delete;
    SshJumpTunnel& operator=(const SshJumpTunnel&) = delete;

    /// The end for the next session (-1 once taken).
    int takeSocket();

private:
    void relay();

    ssh_session via_;
    ssh_channel channel_ = nullptr;
    int relayEnd_ = -1;
    int sessionEnd_ = -1;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace tilescope::report::remote
