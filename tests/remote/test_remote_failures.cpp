// A remote report whose server goes away or stops answering in the middle of reading: a
// ReportError naming the URL within the timeout, no crash, no hang. Through the library API, so
// that the server can be stopped at a known point of the read.

#include "RemoteFixture.hpp"
#include "tilescope/report/RemoteStorage.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/ReportFile.hpp"

#include <catch2/catch.hpp>
#include <chrono>

using namespace tilescope::testing;
namespace report = tilescope::report;

namespace {

struct ReadOutcome {
    std::uint64_t rows = 0;
    std::string error;
    double secondsAfterStop = 0;
};

// Streams a table much larger than the cache; `stop` runs after the first rows have arrived.
ReadOutcome readWhileStopping(const report::ReportFile& file, const std::function<void()>& stop) {
    ReadOutcome outcome;
    std::chrono::steady_clock::time_point stoppedAt;
    try {
        file.query(
            "SELECT * FROM run_step", [](const std::vector<std::string>&) {},
            [&](const report::ReportFile::Row&) {
                if (++outcome.rows == 1000) {
                    stop();
                    stoppedAt = std::chrono::steady_clock::now();
                }
                return true;
            });
    } catch (const report::ReportError& e) {
        outcome.error = e.what();
    }
    outcome.secondsAfterStop =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stoppedAt).count();
    return outcome;
}

report::SshOptions optionsOf(const RemoteFixture& f, int timeoutSeconds) {
    report::SshOptions options;
    options.configFile = f.sshConfig.string();
    options.knownHostsFile = f.knownHosts.string();
    options.timeoutSeconds = timeoutSeconds;
    return options;
}

report::SyntheticOutput largeReport(const RemoteFixture& f) {
    report::SyntheticSpec spec;
    spec.ipus = 4;
    spec.tilesPerIpu = 64;
    spec.steps = 5000;
    spec.runs = 40;
    return report::generateSyntheticReport(f.world / "large", spec);
}

} // namespace

TEST_CASE("the server killed in the middle of a read: a clear error at once, then every read") {
    RemoteFixture f;
    const auto large = largeReport(f);
    const std::string url = f.url(large.profile);
    report::ReportFile file(url, optionsOf(f, 10));
    const ReadOutcome outcome = readWhileStopping(file, [&] { f.server->kill(); });
    INFO(outcome.error);
    CHECK(outcome.rows >= 1000);
    REQUIRE_FALSE(outcome.error.empty());
    CHECK(outcome.error.starts_with(url + ": "));
    CHECK(outcome.error.find("connection to") != std::string::npos);
    CHECK(outcome.error.find("lost") != std::string::npos);
    CHECK(outcome.secondsAfterStop < 10.0);
    // Later reads fail the same way without waiting.
    const auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(file.query(
                        "SELECT * FROM step", [](const std::vector<std::string>&) {},
                        [](const report::ReportFile::Row&) { return true; }),
                    report::ReportError);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("a server that stops answering: an error after the timeout, not a hang") {
    RemoteFixture f;
    const auto large = largeReport(f);
    const std::string url = f.url(large.profile);
    report::ReportFile file(url, optionsOf(f, 2));
    const ReadOutcome outcome = readWhileStopping(file, [&] { f.server->freeze(true); });
    f.server->freeze(false);
    INFO(outcome.error);
    REQUIRE_FALSE(outcome.error.empty());
    CHECK(outcome.error.starts_with(url + ": "));
    CHECK(outcome.error.find("no answer within 2 s") != std::string::npos);
    CHECK(outcome.secondsAfterStop >= 1.5);
    CHECK(outcome.secondsAfterStop < 6.0);
}

TEST_CASE("the CLI reports a server that is gone as one line naming the URL") {
    RemoteFixture f;
    const std::string url = f.url(f.small.profile);
    f.server->kill();
    const auto start = std::chrono::steady_clock::now();
    const CliResult r = f.cli({"summary", url});
    CHECK(r.exitCode == 1);
    CHECK(r.errLines().size() == 1);
    CHECK(r.err.find(url) != std::string::npos);
    CHECK(r.err.find("cannot connect") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(12));
}

TEST_CASE("a server that accepts but never answers: connecting fails after the timeout") {
    RemoteFixture f;
    const std::string url = f.url(f.small.profile);
    f.server->freeze(true);
    const auto start = std::chrono::steady_clock::now();
    std::string error;
    try {
        report::ReportFile file(url, optionsOf(f, 2));
    } catch (const report::ReportError& e) {
        error = e.what();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    f.server->freeze(false);
    INFO(error);
    CHECK(error.starts_with(url + ": "));
    CHECK(error.find("cannot connect") != std::string::npos);
    CHECK(seconds < 6.0);
}
