// A variant's program as a child process (VariantProcess.hpp).

#include "tilescope/sweep/VariantProcess.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace tilescope::sweep {
namespace {

/// Lines of output kept in the status of a variant that did not succeed.
constexpr std::size_t kTailLines = 20;

std::string describeSignal(int sig) {
    const char* name = sigabbrev_np(sig);
    return name ? std::string("SIG") + name : "signal " + std::to_string(sig);
}

/// The environment of the child: ours with the launch's variables set.
std::vector<std::string> childEnvironment(const VariantLaunch& launch) {
    std::map<std::string, std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string entry = *e;
        const auto eq = entry.find('=');
        if (eq != std::string::npos)
            env[entry.substr(0, eq)] = entry.substr(eq + 1);
    }
    for (const auto& [k, v] : launch.environment)
        env[k] = v;
    std::vector<std::string> out;
    for (const auto& [k, v] : env)
        out.push_back(k + "=" + v);
    return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (auto& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

} // namespace

VariantProcess::VariantProcess(const SweepPlan& plan, const Variant& variant, std::string executor)
    : plan_(&plan), variant_(&variant), executor_(std::move(executor)) {}

VariantProcess::VariantProcess(VariantProcess&& o) noexcept
    : plan_(o.plan_), variant_(o.variant_), executor_(std::move(o.executor_)), pid_(o.pid_),
      started_(o.started_), startedUtc_(std::move(o.startedUtc_)), timedOut_(o.timedOut_) {
    o.pid_ = -1;
}

VariantProcess& VariantProcess::operator=(VariantProcess&& o) noexcept {
    std::swap(plan_, o.plan_);
    std::swap(variant_, o.variant_);
    std::swap(executor_, o.executor_);
    std::swap(pid_, o.pid_);
    std::swap(started_, o.started_);
    std::swap(startedUtc_, o.startedUtc_);
    std::swap(timedOut_, o.timedOut_);
    return *this;
}

VariantProcess::~VariantProcess() {
    if (pid_ > 0) { // never leave a program running behind the sweep
        ::kill(-pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

void VariantProcess::start() {
    const auto dir = plan_->variantDirectory(*variant_);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (ec)
        throw SweepError(dir.string() + ": cannot clear the variant's folder (" + ec.message() +
                         ")");
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw SweepError(dir.string() + ": cannot create the variant's folder (" + ec.message() +
                         ")");
    VariantLaunch launch = buildLaunch(*plan_, *variant_, std::getenv("POPLAR_ENGINE_OPTIONS"),
                                       std::getenv("TILESCOPE_POPLIBS_OPTIONS"));
    {
        nlohmann::json env = nlohmann::json::object();
        for (const auto& [k, v] : launch.environment)
            env[k] = v;
        std::ofstream out(dir / "variant.json");
        out << nlohmann::json{{"name", variant_->name},
                              {"settings", nlohmann::json::parse(settingsJson(*variant_))},
                              {"argv", launch.argv},
                              {"environment", env}}
                   .dump(2)
            << "\n";
    }
    std::vector<std::string> args = launch.argv;
    std::vector<std::string> env = childEnvironment(launch);
    auto argv = pointers(args);
    auto envp = pointers(env);
    const std::string output = (dir / kOutputFile).string();
    const std::string cwd = plan_->workingDirectory.string();

    startedUtc_ = utcNow();
    started_ = std::chrono::steady_clock::now();
    timedOut_ = false;
    const pid_t pid = ::fork();
    if (pid < 0)
        throw SweepError(std::string("cannot start a process: ") + std::strerror(errno));
    if (pid == 0) {
        // Child: only async-signal-safe calls. Its own process group, so that stopping the
        // variant stops whatever it started, and a terminal's Ctrl-C reaches the sweep only.
        ::setpgid(0, 0);
        ::signal(SIGINT, SIG_DFL);
        ::signal(SIGTERM, SIG_DFL);
        const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0 || null < 0)
            ::_exit(126);
        ::dup2(null, 0);
        ::dup2(fd, 1);
        ::dup2(fd, 2);
        if (::chdir(cwd.c_str()) != 0) {
            const char msg[] = "tilescope sweep: cannot enter the working directory\n";
            (void)!::write(2, msg, sizeof msg - 1);
            ::_exit(126);
        }
        ::execvpe(argv[0], argv.data(), envp.data());
        const char msg[] = "tilescope sweep: cannot run the program: ";
        (void)!::write(2, msg, sizeof msg - 1);
        const char* why = std::strerror(errno);
        (void)!::write(2, why, std::strlen(why));
        (void)!::write(2, "\n", 1);
        ::_exit(127);
    }
    ::setpgid(pid, pid); // also from here: no race with the first kill
    pid_ = pid;
}

VariantStatus VariantProcess::finish(int waitStatus, const std::string& forcedState,
                                     const std::string& forcedReason) {
    pid_ = -1;
    VariantStatus s;
    s.executor = executor_;
    s.startedUtc = startedUtc_;
    s.hostSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (WIFEXITED(waitStatus))
        s.exitCode = WEXITSTATUS(waitStatus);
    else if (WIFSIGNALED(waitStatus))
        s.signal = WTERMSIG(waitStatus);
    if (!forcedState.empty()) {
        s.state = forcedState;
        s.reason = forcedReason;
    } else if (timedOut_) {
        s.state = "failed";
        s.reason = "timed out after " + std::to_string(plan_->timeoutSeconds) + " s";
    } else if (s.exitCode && *s.exitCode == 0) {
        s.state = "succeeded";
    } else {
        s.state = "failed";
        s.reason = s.exitCode ? "exit status " + std::to_string(*s.exitCode)
                              : "killed by " + describeSignal(s.signal.value_or(0));
    }
    const auto dir = plan_->variantDirectory(*variant_);
    if (!s.succeeded())
        s.outputTail = fileTail(dir / kOutputFile, kTailLines);
    writeStatus(dir, s);
    return s;
}

std::optional<VariantStatus> VariantProcess::poll() {
    if (pid_ <= 0)
        return std::nullopt;
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_)
        return finish(status, "", "");
    if (r < 0 && errno != EINTR) // lost the child: nothing left to wait for
        return finish(0, "failed", std::string("lost the process: ") + std::strerror(errno));
    if (plan_->timeoutSeconds > 0 && !timedOut_ &&
        std::chrono::steady_clock::now() - started_ >
            std::chrono::duration<double>(plan_->timeoutSeconds)) {
        timedOut_ = true;
        ::kill(-pid_, SIGKILL);
    }
    return std::nullopt;
}

VariantStatus VariantProcess::stop(const std::string& state, const std::string& reason,
                                   std::chrono::milliseconds grace) {
    ::kill(-pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    int status = 0;
    while (true) {
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_ || (r < 0 && errno != EINTR))
            break;
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(-pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(-pid_, SIGKILL); // anything the program left in its group
    return finish(status, state, reason);
}

namespace {
std::atomic<int> taskSignal{0};
extern "C" void onTaskSignal(int sig) {
    taskSignal.store(sig);
}
} // namespace

VariantStatus runVariantToEnd(const SweepPlan& plan, const Variant& variant,
                              const std::string& executor) {
    struct sigaction action {};
    action.sa_handler = onTaskSignal;
    sigemptyset(&action.sa_mask);
    struct sigaction oldInt {
    }, oldTerm{};
    ::sigaction(SIGINT, &action, &oldInt);
    ::sigaction(SIGTERM, &action, &oldTerm);
    VariantProcess process(plan, variant, executor);
    process.start();
    std::optional<VariantStatus> status;
    while (!(status = process.poll())) {
        if (const int sig = taskSignal.load()) {
            status = process.stop("failed", "stopped by " + describeSignal(sig) +
                                                " (a Slurm time limit, scancel, or Ctrl-C)");
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::sigaction(SIGINT, &oldInt, nullptr);
    ::sigaction(SIGTERM, &oldTerm, nullptr);
    return *status;
}

} // namespace tilescope::sweep
