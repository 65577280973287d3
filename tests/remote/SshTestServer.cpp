#include "SshTestServer.hpp"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <netinet/in.h>
#include <pwd.h>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace tilescope::testing {
namespace fs = std::filesystem;
namespace {

pid_t spawn(const std::vector<std::string>& args, const fs::path& log) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    std::vector<std::string> copy = args;
    std::vector<char*> argv;
    for (auto& a : copy)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
        throw std::runtime_error("cannot start " + args[0]);
    return pid;
}

int freeLocalPort() {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof addr;
    if (::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::getsockname(s, reinterpret_cast<sockaddr*>(&addr), &length) != 0) {
        ::close(s);
        throw std::runtime_error("cannot find a free port");
    }
    ::close(s);
    return ntohs(addr.sin_port);
}

bool accepts(int port) {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(s);
    return ok;
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

int runCommand(const std::vector<std::string>& argv, const fs::path& log) {
    const pid_t pid = spawn(argv, log);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string currentUserName() {
    const passwd* pw = getpwuid(getuid());
    return pw ? pw->pw_name : "root";
}

SshWorld::SshWorld() {
    std::string pattern = (fs::temp_directory_path() / "tilescope-remote-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    fs::create_directories(dir_ / "home");
    fs::permissions(dir_ / "home", fs::perms::owner_all, fs::perm_options::replace);
}

SshWorld::~SshWorld() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
}

fs::path SshWorld::makeKey(const std::string& name, const std::string& passphrase) {
    const fs::path key = dir_ / name;
    if (runCommand({"ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", "tilescope-test",
                    "-f", key.string()},
                   dir_ / "keygen.log") != 0)
        throw std::runtime_error("ssh-keygen failed: " + readFile(dir_ / "keygen.log"));
    return key;
}

void SshWorld::isolateEnvironment() const {
    // No controlling terminal for the CLI runs either (as in CI), even when a person runs the
    // tests from a shell: otherwise the CLI would ask its questions there.
    if (const int tty = ::open("/dev/tty", O_RDWR | O_NOCTTY); tty >= 0) {
        ::ioctl(tty, TIOCNOTTY);
        ::close(tty);
    }
    ::setenv("HOME", (dir_ / "home").c_str(), 1);
    ::unsetenv("SSH_AUTH_SOCK");
    ::unsetenv("SSH_AGENT_PID");
}

SshTestServer::SshTestServer(const SshWorld& world, const std::string& name,
                             const fs::path& hostKey, const fs::path& authorizedKeys,
                             const std::string& logLevel)
    : hostKey_(hostKey), logFile_(world / ("sshd-" + name + ".log")), port_(freeLocalPort()) {
    // sshd's privilege separation folder; a system service would have made it.
    if (geteuid() == 0 && !fs::exists("/run/sshd")) {
        fs::create_directories("/run/sshd");
        ::chmod("/run/sshd", 0755);
    }
    const fs::path config = world / ("sshd-" + name + ".conf");
    {
        std::ofstream out(config);
        out << "ListenAddress 127.0.0.1\n"
            << "HostKey " << hostKey.string() << "\n"
            << "PidFile " << (world / ("sshd-" + name + ".pid")).string() << "\n"
            << "AuthorizedKeysFile " << authorizedKeys.string() << "\n"
            << "StrictModes no\n"
            << "PermitRootLogin yes\n"
            << "PubkeyAuthentication yes\n"
            << "PasswordAuthentication no\n"
            << "KbdInteractiveAuthentication no\n"
            << "UsePAM no\n"
            << "AllowTcpForwarding yes\n"
            << "Subsystem sftp internal-sftp\n"
            << "LogLevel " << logLevel << "\n";
    }
    pid_ = spawn({"/usr/sbin/sshd", "-D", "-e", "-f", config.string(), "-p", std::to_string(port_)},
                 logFile_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (!accepts(port_)) {
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            throw std::runtime_error("sshd exited: " + log());
        }
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error("sshd does not accept connections: " + log());
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

SshTestServer::~SshTestServer() {
    if (pid_ > 0)
        kill();
}

std::string SshTestServer::knownHostsLine() const {
    std::istringstream pub(readFile(hostKey_.string() + ".pub"));
    std::string type, key;
    pub >> type >> key;
    return "[127.0.0.1]:" + std::to_string(port_) + " " + type + " " + key;
}

std::string SshTestServer::log() const {
    return readFile(logFile_);
}

std::vector<pid_t> SshTestServer::processTree() const {
    std::map<pid_t, pid_t> parentOf;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::string stat = readFile(entry.path() / "stat");
        const auto close = stat.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream rest(stat.substr(close + 2));
        char state = 0;
        pid_t parent = 0;
        rest >> state >> parent;
        parentOf[std::stoi(name)] = parent;
    }
    std::vector<pid_t> tree{pid_};
    for (std::size_t i = 0; i < tree.size(); ++i)
        for (const auto& [pid, parent] : parentOf)
            if (parent == tree[i])
                tree.push_back(pid);
    return tree;
}

void SshTestServer::kill() {
    if (pid_ <= 0)
        return;
    for (pid_t p : processTree())
        ::kill(p, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
}

void SshTestServer::freeze(bool frozen) {
    for (pid_t p : processTree())
        ::kill(p, frozen ? SIGSTOP : SIGCONT);
}

} // namespace tilescope::testing
