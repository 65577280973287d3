#include "SshJumpTunnel.hpp"

#include "tilescope/report/ReportError.hpp"

#include <array>
#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tilescope::report::remote {
namespace {

bool writeAll(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

SshJumpTunnel::SshJumpTunnel(ssh_session via, const std::string& host, int port,
                             const std::string& location)
    : via_(via) {
    channel_ = ssh_channel_new(via_);
    if (!channel_ ||
        ssh_channel_open_forward(channel_, host.c_str(), port, "127.0.0.1", 0) != SSH_OK) {
        const std::string why = ssh_get_error(via_);
        if (channel_)
            ssh_channel_free(channel_);
        throw ReportError(location, fmt::format("the jump host could not connect to {}:{} ({})",
                                                host, port, why));
    }
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        ssh_channel_free(channel_);
        throw ReportError(location, "cannot create a socket pair for the jump host");
    }
    relayEnd_ = ends[0];
    sessionEnd_ = ends[1];
    thread_ = std::thread([this] { relay(); });
}

SshJumpTunnel::~SshJumpTunnel() {
    stop_ = true;
    if (thread_.joinable())
        thread_.join();
    if (sessionEnd_ >= 0)
        ::close(sessionEnd_);
    ::close(relayEnd_);
    ssh_channel_close(channel_);
    ssh_channel_free(channel_);
}

int SshJumpTunnel::takeSocket() {
    const int fd = sessionEnd_;
    sessionEnd_ = -1;
    return fd;
}

// Both directions on one thread: the jump session is used by this thread only.
void SshJumpTunnel::relay() {
    std::array<char, 64 * 1024> buffer;
    const int sshFd = ssh_get_fd(via_);
    while (!stop_) {
        std::array<pollfd, 2> fds{pollfd{relayEnd_, POLLIN, 0}, pollfd{sshFd, POLLIN, 0}};
        if (::poll(fds.data(), fds.size(), 100) < 0)
            break;
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::recv(relayEnd_, buffer.data(), buffer.size(), 0);
            if (n <= 0)
                break;
            if (ssh_channel_write(channel_, buffer.data(), static_cast<uint32_t>(n)) != n)
                break;
        }
        // libssh may hold decrypted data already, so read whatever is there every time.
        bool closed = false;
        for (;;) {
            const int n = ssh_channel_read_nonblocking(channel_, buffer.data(),
                                                       static_cast<uint32_t>(buffer.size()), 0);
            if (n < 0) {
                closed = true;
                break;
            }
            if (n == 0) {
                closed = ssh_channel_is_eof(channel_) || !ssh_channel_is_open(channel_);
                break;
            }
            if (!writeAll(relayEnd_, buffer.data(), static_cast<std::size_t>(n))) {
                closed = true;
                break;
            }
        }
        if (closed)
            break;
    }
    // The next session sees end of file and fails with its own clear error.
    ::shutdown(relayEnd_, SHUT_RDWR);
}

} // namespace tilescope::report::remote
