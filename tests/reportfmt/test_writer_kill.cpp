// A writer killed with SIGKILL at any moment leaves a profile and a host trace that open and hold
// everything it had committed. A forked child writes both files and appends a line to a progress
// log after each commit returns; the parent kills it after a random (seeded) delay, then checks
// the files against the log and against the deterministic data the child wrote.

#include "SmallReport.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <signal.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tilescope::report;
using tilescope::testing::CompileProfile;
using tilescope::testing::TempDir;
namespace fs = std::filesystem;

namespace {

constexpr int kRuns = 30;
constexpr std::int64_t kHostCommitEvery = 500;

std::int64_t stepsOfRun(int run) {
    return 150 + (run * 97) % 300;
}

/// What the child's progress log says was committed.
struct Progress {
    bool profileCreated = false, hostCreated = false, compiled = false, closed = false;
    int runsCommitted = 0;
    std::int64_t hostEventsCommitted = -1; // -1: nothing committed after the file was created
};

Progress readProgress(const fs::path& log) {
    std::ifstream in(log);
    std::stringstream all;
    all << in.rdbuf();
    std::string text = all.str();
    const auto lastNewline = text.find_last_of('\n'); // a kill can cut the last line short
    text.resize(lastNewline == std::string::npos ? 0 : lastNewline + 1);
    Progress p;
    std::istringstream lines(text);
    std::string word;
    while (lines >> word) {
        if (word == "profile-created") {
            p.profileCreated = true;
        } else if (word == "host-created") {
            p.hostCreated = true;
        } else if (word == "compiled") {
            p.compiled = true;
        } else if (word == "closed") {
            p.closed = true;
        } else if (word == "run") {
            int run = -1;
            lines >> run;
            p.runsCommitted = run + 1;
        } else if (word == "host") {
            lines >> p.hostEventsCommitted;
        }
    }
    return p;
}

/// The child: writes both files, logging each commit once it has returned. Never returns.
[[noreturn]] void writeAndLog(const fs::path& dir) {
    const int fd = ::open((dir / "progress.log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    auto log = [fd](const std::string& line) {
        const std::string s = line + "\n";
        if (::write(fd, s.data(), s.size()) != static_cast<ssize_t>(s.size()))
            _exit(3);
    };
    try {
        ProfileWriterOptions po;
        po.rowsPerTransaction = 1000; // batch commits inside runs too
        ProfileWriter profile(dir / "profile.pop", po);
        log("profile-created");
        HostTraceWriterOptions ho;
        ho.rowsPerTransaction = 1000;
        HostTraceWriter host(dir / "host.pvti", ho);
        log("host-created");
        const auto thread =
            host.addThread(host.addProcess(getpid(), "writer", 0), getpid(), "main");
        const auto channel = host.addChannel("runs");
        const auto name = host.intern("step");
        host.commit();
        log("host 0");

        const CompileProfile compiled = tilescope::testing::writeCompileProfile(profile);
        profile.finishCompilation();
        log("compiled");
        std::int64_t events = 0;
        for (int run = 0; run < kRuns; ++run) {
            const std::int64_t steps = stepsOfRun(run);
            const std::int64_t start = tilescope::testing::syntheticRunStartNs(run);
            profile.beginRun(0, start);
            for (std::int64_t seq = 0; seq < steps; ++seq) {
                profile.addRunStep(tilescope::testing::syntheticRunStep(compiled, run, seq));
                const auto e =
                    tilescope::testing::syntheticHostEvent(thread, channel, name, events);
                host.addEvent(thread, channel, name, e.startNs, *e.endNs, e.depth);
                if (++events % kHostCommitEvery == 0) {
                    host.commit();
                    log("host " + std::to_string(events));
                }
            }
            profile.endRun(start + 1000 * steps);
            log("run " + std::to_string(run));
        }
        host.close();
        profile.close();
        log("closed");
    } catch (const std::exception& e) {
        log(std::string("error ") + e.what());
        _exit(2);
    }
    _exit(0);
}

/// Forks the writer and kills it after `delay` (no delay: lets it finish); true if the kill
/// interrupted it.
bool runChild(const fs::path& dir, std::optional<std::chrono::microseconds> delay) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0)
        writeAndLog(dir);
    if (delay) {
        std::this_thread::sleep_for(*delay);
        ::kill(pid, SIGKILL);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    if (WIFEXITED(status)) {
        INFO("child exited with " << WEXITSTATUS(status));
        REQUIRE(WEXITSTATUS(status) == 0);
        return false;
    }
    REQUIRE(WIFSIGNALED(status));
    REQUIRE(WTERMSIG(status) == SIGKILL);
    return true;
}

void checkProfile(const fs::path& dir, const Progress& progress) {
    const std::string path = (dir / "profile.pop").string();
    if (!progress.profileCreated) {
        // Killed before the schema's first commit returned: no file, or a clear error about it.
        try {
            ProfileReader r(path);
        } catch (const ReportError& e) {
            CHECK(e.file() == path);
            CHECK_FALSE(e.problem().empty());
        }
        return;
    }
    const ReportFile file(path);
    CHECK(file.kind() == FileKind::Profile);
    if (progress.closed) // a file may also be complete before the log says so
        CHECK(file.complete());
    if (!progress.compiled) {
        try {
            ProfileReader r(path);
        } catch (const ReportError& e) {
            CHECK_THAT(e.what(), Catch::Contains("no target"));
        }
        return;
    }
    const ProfileReader r(path);
    REQUIRE(r.hasCompilation());
    static const CompileProfile expected = [] { // what the child gave the writer
        TempDir scratch("tilescope-kill-expected");
        ProfileWriter w(scratch / "profile.pop");
        return tilescope::testing::writeCompileProfile(w);
    }();
    const ProfileCounts counts = r.counts();
    CHECK(counts.programs == std::ssize(expected.programs));
    CHECK(counts.steps == std::ssize(expected.steps));
    CHECK(counts.variables == std::ssize(expected.variables));
    CHECK(r.tileMemoryTotal(true).size() == expected.target.numTiles());

    const auto runs = r.runs();
    REQUIRE(std::ssize(runs) >= progress.runsCommitted);
    std::int64_t rows = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunRecord& run = runs[i];
        const int index = static_cast<int>(i);
        INFO("run " << index);
        const bool finished = run.hostEndNs.has_value();
        // Every run but the last is finished; the committed ones are.
        REQUIRE((finished || i + 1 == runs.size()));
        if (index < progress.runsCommitted)
            REQUIRE(finished);
        REQUIRE(run.firstRow == rows + 1);
        REQUIRE(run.hostStartNs == tilescope::testing::syntheticRunStartNs(index));
        if (finished) {
            REQUIRE(run.numSteps == static_cast<std::uint64_t>(stepsOfRun(index)));
            REQUIRE(*run.hostEndNs == run.hostStartNs + 1000 * stepsOfRun(index));
            std::uint64_t lodSteps = 0;
            for (const auto& row : r.runLod(run, 0, 0, run.totalCycles))
                lodSteps += row.steps;
            REQUIRE(lodSteps == run.numSteps);
        } else {
            REQUIRE(run.numSteps <= static_cast<std::uint64_t>(stepsOfRun(index)));
        }
        // The steps present (all of a finished run, a prefix of an unfinished one) are intact.
        const auto steps = r.runSteps(run, 0, stepsOfRun(index), true);
        REQUIRE(steps.size() == run.numSteps);
        for (std::size_t seq = 0; seq < steps.size(); ++seq) {
            const auto want = tilescope::testing::syntheticRunStep(expected, index,
                                                                   static_cast<std::int64_t>(seq));
            REQUIRE(steps[seq].cycles == want.cycles);
            REQUIRE(steps[seq].startCycle == want.startCycle);
            REQUIRE(steps[seq].perIpu == want.perIpu);
            REQUIRE(steps[seq].perTile == want.perTile);
        }
        if (!steps.empty())
            REQUIRE(run.totalCycles == steps.back().startCycle + steps.back().cycles);
        rows += static_cast<std::int64_t>(run.numSteps);
    }
    // An unfinished run's rows may be committed before its run row is: never more than that.
    CHECK(counts.runSteps >= rows);
}

void checkHostTrace(const fs::path& dir, const Progress& progress) {
    const std::string path = (dir / "host.pvti").string();
    if (!progress.hostCreated) {
        if (!fs::exists(path))
            return;
        try {
            HostTraceReader r(path);
        } catch (const ReportError& e) {
            CHECK(e.file() == path);
            CHECK_FALSE(e.problem().empty());
        }
        return;
    }
    const HostTraceReader r(path);
    if (progress.closed)
        CHECK(r.hasLevelOfDetail());
    CHECK(r.hasLevelOfDetail() == r.file().complete()); // index and pyramids come with the end
    if (progress.hostEventsCommitted < 0)
        return;
    REQUIRE(r.threads().size() == 1);
    const auto thread = r.threads()[0].id;
    const HostTraceCounts counts = r.counts();
    REQUIRE(counts.events >= progress.hostEventsCommitted);
    // Event ids follow the order blocks were stored in, not the calls: each event's call index
    // is recovered from its start and depth (syntheticHostEvent's layout), and the committed
    // events must be exactly the first calls (every commit stores the partial blocks).
    std::vector<std::int64_t> calls;
    for (std::int32_t depth = 0; depth < 3; ++depth) {
        constexpr auto lo = std::numeric_limits<std::int64_t>::min();
        constexpr auto hi = std::numeric_limits<std::int64_t>::max();
        for (const HostEvent& e : r.events(thread, depth, lo, hi, 1'000'000)) {
            const std::int64_t frame =
                (e.startNs - e.depth * 1000 -
                 tilescope::testing::syntheticHostEvent(thread, 0, 0, 0).startNs) /
                10'000;
            const std::int64_t call = frame * 3 + e.depth;
            const auto want =
                tilescope::testing::syntheticHostEvent(thread, e.channelId, e.nameId, call);
            REQUIRE(e.startNs == want.startNs);
            REQUIRE(e.endNs == want.endNs);
            REQUIRE(e.depth == want.depth);
            REQUIRE(e.id >= 1);
            REQUIRE(e.id <= counts.events);
            calls.push_back(call);
        }
    }
    REQUIRE(static_cast<std::int64_t>(calls.size()) == counts.events);
    std::sort(calls.begin(), calls.end());
    for (std::size_t i = 0; i < calls.size(); ++i)
        REQUIRE(calls[i] == static_cast<std::int64_t>(i));
}

} // namespace

TEST_CASE("a writer killed at random moments leaves files with everything it committed") {
    // One uninterrupted run first: it must finish, and it sets the range of kill delays.
    TempDir whole("tilescope-kill-whole");
    const auto t0 = std::chrono::steady_clock::now();
    REQUIRE_FALSE(runChild(whole.path(), std::nullopt));
    const auto duration = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - t0);
    {
        const Progress p = readProgress(whole / "progress.log");
        REQUIRE(p.closed);
        REQUIRE(p.runsCommitted == kRuns);
        checkProfile(whole.path(), p);
        checkHostTrace(whole.path(), p);
    }

    std::mt19937 rng(20261121);
    std::uniform_int_distribution<std::int64_t> delayUs(0, duration.count());
    int kills = 0, attempts = 0, killedAfterCompile = 0, killedBeforeSchema = 0;
    while ((kills < 24 || killedAfterCompile < 10) && attempts < 80) {
        ++attempts;
        TempDir dir("tilescope-kill");
        // The first attempts kill at once, to hit the window before the schema commit.
        const std::chrono::microseconds delay(attempts <= 2 ? 0 : delayUs(rng));
        const bool killed = runChild(dir.path(), delay);
        const Progress p = readProgress(dir / "progress.log");
        INFO("attempt " << attempts << ", delay " << delay.count() << " us, runs committed "
                        << p.runsCommitted << ", host events committed " << p.hostEventsCommitted);
        checkProfile(dir.path(), p);
        checkHostTrace(dir.path(), p);
        if (killed) {
            ++kills;
            killedAfterCompile += p.compiled && !p.closed;
            killedBeforeSchema += !p.profileCreated;
        }
    }
    WARN("whole run took " << duration.count() << " us; " << kills << " kills in " << attempts
                           << " attempts: " << killedBeforeSchema << " before the schema commit, "
                           << killedAfterCompile << " while writing runs");
    CHECK(kills >= 20);
    CHECK(killedAfterCompile >= 10); // most kills land while runs are being written
}
