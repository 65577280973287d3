// Readers may open a report while it is being written: a reader in this process sees exactly the
// runs a writer in another process has committed, whether the writer is between runs or in the
// middle of one, and the writer can finish while readers are open.

#include "SmallReport.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tilescope::report;
using tilescope::testing::CompileProfile;
using tilescope::testing::TempDir;

namespace {

constexpr int kRuns = 6;
constexpr std::int64_t kSteps = 400;

/// Lock-step protocol over two pipes: the writer reports where it is and waits for a go-ahead.
struct Pipes {
    int toParent[2];
    int toChild[2];

    Pipes() {
        REQUIRE(pipe(toParent) == 0);
        REQUIRE(pipe(toChild) == 0);
    }
    static char receive(int fd) {
        char c = 0;
        return ::read(fd, &c, 1) == 1 ? c : '\0';
    }
    static bool send(int fd, char c) { return ::write(fd, &c, 1) == 1; }
};

/// The writer process: 'c' after the compile profile is committed, 'm' in the middle of each run
/// (half its steps written, nothing of it committed), 'b' after each endRun, 'e' after close().
[[noreturn]] void writer(const std::filesystem::path& path, Pipes& p) {
    try {
        ProfileWriter w(path); // default batches: a 400-step run is one transaction
        const CompileProfile profile = tilescope::testing::writeCompileProfile(w);
        w.finishCompilation();
        auto handshake = [&](char c) {
            if (!Pipes::send(p.toParent[1], c) || Pipes::receive(p.toChild[0]) != 'k')
                _exit(3);
        };
        handshake('c');
        for (int run = 0; run < kRuns; ++run) {
            const auto start = tilescope::testing::syntheticRunStartNs(run);
            w.beginRun(0, start);
            for (std::int64_t seq = 0; seq < kSteps; ++seq) {
                if (seq == kSteps / 2)
                    handshake('m');
                w.addRunStep(tilescope::testing::syntheticRunStep(profile, run, seq));
            }
            w.endRun(start + 1000 * kSteps);
            handshake('b');
        }
        w.close();
        handshake('e');
    } catch (const std::exception&) {
        _exit(2);
    }
    _exit(0);
}

void checkCommittedRuns(const ProfileReader& r, int committed) {
    const auto runs = r.runs();
    REQUIRE(std::ssize(runs) == committed);
    for (const auto& run : runs) {
        REQUIRE(run.hostEndNs);
        REQUIRE(run.numSteps == static_cast<std::uint64_t>(kSteps));
        REQUIRE(r.runSteps(run, 0, kSteps, true).size() == static_cast<std::size_t>(kSteps));
    }
    REQUIRE(r.counts().runSteps == committed * kSteps);
}

} // namespace

TEST_CASE("readers see exactly the committed runs of a writer in another process") {
    TempDir dir("tilescope-concurrent");
    const auto path = dir / "profile.pop";
    Pipes pipes;
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0)
        writer(path, pipes);

    REQUIRE(Pipes::receive(pipes.toParent[0]) == 'c');
    // Opened once, kept open across the writer's commits and its close().
    const ProfileReader longLived(path.string());
    CHECK_FALSE(longLived.file().complete());
    checkCommittedRuns(longLived, 0);
    REQUIRE(Pipes::send(pipes.toChild[1], 'k'));

    int committed = 0;
    for (;;) {
        const char at = Pipes::receive(pipes.toParent[0]);
        REQUIRE((at == 'm' || at == 'b' || at == 'e'));
        if (at == 'b')
            ++committed;
        INFO("writer at '" << at << "', " << committed << " runs committed");
        {
            const ProfileReader fresh(path.string()); // opened while the writer is mid-file
            CHECK(fresh.hasCompilation());
            CHECK(fresh.file().complete() == (at == 'e'));
            checkCommittedRuns(fresh, committed);
        }
        checkCommittedRuns(longLived, committed);
        REQUIRE(Pipes::send(pipes.toChild[1], 'k'));
        if (at == 'e')
            break;
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0); // close() succeeded although a reader was open
    CHECK(committed == kRuns);
    checkCommittedRuns(ProfileReader(path.string()), kRuns);
}

TEST_CASE("a reader thread polls a report that a writer thread is appending to") {
    TempDir dir("tilescope-concurrent-thread");
    const auto path = dir / "profile.pop";
    ProfileWriter w(path);
    const CompileProfile profile = tilescope::testing::writeCompileProfile(w);
    w.finishCompilation();

    std::atomic<int> committed{0};
    std::atomic<bool> done{false};
    std::thread writerThread([&] {
        for (int run = 0; run < kRuns; ++run) {
            tilescope::testing::writeRun(w, profile, run, kSteps);
            committed = run + 1;
        }
        done = true;
    });
    // Whatever the reader sees is a whole number of finished runs, never fewer than were
    // committed before it looked, never more than were committed after.
    const ProfileReader r(path.string());
    int polls = 0;
    while (!done || polls == 0) {
        const int before = committed;
        const auto runs = r.runs();
        const int after = committed;
        REQUIRE(std::ssize(runs) >= before);
        REQUIRE(std::ssize(runs) <= after + 1);
        for (const auto& run : runs) { // runs commit whole: no batch ends inside one
            REQUIRE(run.hostEndNs);
            REQUIRE(run.numSteps == static_cast<std::uint64_t>(kSteps));
        }
        ++polls;
    }
    writerThread.join();
    w.close();
    checkCommittedRuns(r, kRuns);
}
