// A passphrase-protected key: the CLI asks on its terminal (a pseudo-terminal here: CI has no
// terminal), does not echo the answer, logs in, and leaves the passphrase in no file it wrote
// and nowhere under HOME.

#include "RemoteFixture.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tilescope::testing;
namespace fs = std::filesystem;

namespace {

constexpr const char* kPassphrase = "tilescope-secret-passphrase-7c1e";

struct TerminalRun {
    int exitCode = -1;
    std::string screen; // everything the CLI showed on its terminal
    bool prompted = false;
};

// Runs tilescope-cli on a new pseudo-terminal (its controlling terminal) and types the
// passphrase when asked for it.
TerminalRun runOnTerminal(const std::vector<std::string>& args, const std::string& answer) {
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
    REQUIRE(pid >= 0);
    if (pid == 0) {
        std::vector<std::string> copy{TILESCOPE_CLI_PATH};
        copy.insert(copy.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : copy)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(TILESCOPE_CLI_PATH, argv.data());
        _exit(127);
    }
    TerminalRun run;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    char buffer[4096];
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{master, POLLIN, 0};
        if (::poll(&p, 1, 200) <= 0)
            continue;
        const ssize_t n = ::read(master, buffer, sizeof buffer);
        if (n <= 0)
            break; // the CLI exited and closed the terminal
        run.screen.append(buffer, static_cast<std::size_t>(n));
        if (!run.prompted && run.screen.find("passphrase") != std::string::npos) {
            run.prompted = true;
            const std::string line = answer + "\n";
            REQUIRE(::write(master, line.data(), line.size()) == static_cast<ssize_t>(line.size()));
        }
    }
    ::close(master);
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == 0) {
        ::kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

// Files under `root` whose bytes contain `secret`.
std::vector<std::string> filesContaining(const fs::path& root, const std::string& secret) {
    std::vector<std::string> found;
    for (const auto& entry :
         fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied))
        if (entry.is_regular_file() &&
            readWholeFile(entry.path()).find(secret) != std::string::npos)
            found.push_back(entry.path().string());
    return found;
}

} // namespace

TEST_CASE("a passphrase-protected key: asked on the terminal, never echoed, never written") {
    RemoteFixture f;
    const fs::path lockedKey = f.world.makeKey("locked_key", kPassphrase);
    writeText(f.authorizedKeys, readWholeFile(lockedKey.string() + ".pub"));
    writeText(f.sshConfig, "Host *\n  IdentityFile " + lockedKey.string() + "\n");
    const std::string url = f.url(f.small.profile);
    // A new host too, so that the CLI writes known_hosts: that file must not hold the secret.
    writeText(f.knownHosts, "");

    std::vector<std::string> args{"summary", url, "--accept-new-host-key"};
    for (const auto& a : f.sshArgs())
        args.push_back(a);
    const TerminalRun run = runOnTerminal(args, kPassphrase);
    INFO(run.screen);
    CHECK(run.prompted);
    CHECK(run.screen.find(lockedKey.string()) != std::string::npos);
    REQUIRE(run.exitCode == 0);
    CHECK(run.screen.find("Memory") != std::string::npos);
    CHECK(run.screen.find(kPassphrase) == std::string::npos);
    CHECK(readWholeFile(f.knownHosts).find("127.0.0.1") != std::string::npos);
    // Every file of the test world (known_hosts, HOME, logs, keys) and the CLI's scratch.
    CHECK(filesContaining(f.world.dir(), kPassphrase).empty());
    CHECK(filesContaining(f.scratch.path(), kPassphrase).empty());

    // A wrong passphrase: refused with one clear line.
    const TerminalRun wrong = runOnTerminal(args, "not-the-passphrase");
    CHECK(wrong.prompted);
    CHECK(wrong.exitCode == 1);
    CHECK(wrong.screen.find("permission denied") != std::string::npos);
}
