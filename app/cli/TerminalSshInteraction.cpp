#include "TerminalSshInteraction.hpp"

#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <string>
#include <termios.h>
#include <unistd.h>

namespace tilescope::cli {
namespace {

class TerminalSshInteraction final : public report::SshInteraction {
public:
    explicit TerminalSshInteraction(int fd) : fd_(fd) {}
    ~TerminalSshInteraction() override { ::close(fd_); }

    std::optional<std::string> passphrase(const std::string& keyFile) override {
        return ask(fmt::format("Enter passphrase for key '{}': ", keyFile), false);
    }

    std::optional<std::string> answer(const std::string& destination, const std::string& prompt,
                                      bool echo) override {
        return ask(fmt::format("({}) {}", destination, prompt), echo);
    }

    bool acceptNewHostKey(const std::string& host, const std::string& keyType,
                          const std::string& fingerprint) override {
        write(fmt::format("The authenticity of host '{}' can't be established.\n{} key "
                          "fingerprint is {}.\n",
                          host, keyType, fingerprint));
        for (;;) {
            auto reply = ask("Accept it and record it in known_hosts (yes/no)? ", true);
            if (!reply || *reply == "no")
                return false;
            if (*reply == "yes")
                return true;
        }
    }

private:
    void write(const std::string& text) {
        const char* p = text.data();
        std::size_t left = text.size();
        while (left > 0) {
            const ssize_t n = ::write(fd_, p, left);
            if (n <= 0)
                return;
            p += n;
            left -= static_cast<std::size_t>(n);
        }
    }

    // Reads one line; with echo off the terminal's echo is restored whatever happens. Echo goes
    // off before the prompt shows, so that nothing typed after the prompt is ever echoed, and
    // without flushing input, so that nothing typed early is lost.
    std::optional<std::string> ask(const std::string& prompt, bool echo) {
        termios saved{};
        const bool haveTermios = ::tcgetattr(fd_, &saved) == 0;
        if (!echo && haveTermios) {
            termios quiet = saved;
            quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
            quiet.c_lflag |= ECHONL;
            ::tcsetattr(fd_, TCSANOW, &quiet);
        }
        write(prompt);
        std::string line;
        bool ended = false;
        for (char c = 0;;) {
            const ssize_t n = ::read(fd_, &c, 1);
            if (n <= 0)
                break;
            if (c == '\n' || c == '\r') {
                ended = true;
                break;
            }
            line += c;
        }
        if (!echo && haveTermios)
            ::tcsetattr(fd_, TCSANOW, &saved);
        if (!ended) {
            explicit_bzero(line.data(), line.size());
            return std::nullopt;
        }
        return line;
    }

    int fd_;
};

} // namespace

std::shared_ptr<report::SshInteraction> openTerminalSshInteraction() {
    const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return nullptr;
    return std::make_shared<TerminalSshInteraction>(fd);
}

} // namespace tilescope::cli
