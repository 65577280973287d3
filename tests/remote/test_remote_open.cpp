// tilescope-cli on ssh:// URLs against a real sshd: the same output as on the local file, the
// SSH configuration (keys, agent, aliases, ProxyJump), host-key checks and bad inputs.

#include "RemoteFixture.hpp"
#include "tilescope/report/RemoteStorage.hpp"
#include "tilescope/report/ReportError.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <sstream>

using namespace tilescope::testing;
namespace fs = std::filesystem;
namespace report = tilescope::report;

namespace {

// Every report-taking command gives the same output remotely as locally (apart from the
// location it names, and the --stats line).
void requireSameAsLocal(const RemoteFixture& f, const std::vector<std::string>& args,
                        const fs::path& file) {
    std::vector<std::string> local = args;
    std::vector<std::string> remote = args;
    local.insert(local.begin() + 1, file.string());
    remote.insert(remote.begin() + 1, f.url(file));
    remote.push_back("--stats");
    const CliResult l = runCli(local, f.scratch);
    const CliResult r = f.cli(remote);
    INFO(r.err);
    REQUIRE(l.exitCode == 0);
    REQUIRE(r.exitCode == 0);
    REQUIRE(r.err.empty());
    const RemoteStats stats = parseStats(r.out);
    REQUIRE(stats.found);
    CHECK(stats.fileSize == fs::file_size(file));
    CHECK(stats.bytesRead > 0);
    CHECK(stats.roundTrips > 0);
    CHECK(withoutStats(r.out, f.url(file), file.string()) == l.out);
}

} // namespace

TEST_CASE("every command reads ssh:// reports and host traces like local files (key file)") {
    RemoteFixture f;
    const fs::path profile = f.small.profile, trace = f.small.hostTrace;
    requireSameAsLocal(f, {"summary"}, profile);
    requireSameAsLocal(f, {"summary", "--format", "json"}, profile);
    requireSameAsLocal(f, {"info"}, profile);
    requireSameAsLocal(f, {"sql", "SELECT id, name_id FROM program ORDER BY id"}, profile);
    requireSameAsLocal(f, {"export", "--table", "tile_memory", "--format", "json"}, profile);
    requireSameAsLocal(f, {"summary"}, trace);
    requireSameAsLocal(f, {"info", "--format", "json"}, trace);

    // export-trace opens its input by location too.
    const auto local =
        runCli({"export-trace", trace.string(), "-o", (f.world / "l.json").string()}, f.scratch);
    const auto remote = f.cli({"export-trace", f.url(trace), "-o", (f.world / "r.json").string()});
    INFO(remote.err);
    REQUIRE(local.exitCode == 0);
    REQUIRE(remote.exitCode == 0);
    CHECK(readWholeFile(f.world / "l.json") == readWholeFile(f.world / "r.json"));
}

TEST_CASE("summary of a large 16-IPU report moves less than 1% of it") {
    RemoteFixture f;
    report::SyntheticSpec spec;
    spec.ipus = 16;
    spec.steps = 5000;
    spec.runs = 200;
    const auto big = report::generateSyntheticReport(f.world / "big", spec);
    REQUIRE(fs::file_size(big.profile) > 40u * 1024 * 1024);
    const CliResult local = runCli({"summary", big.profile.string()}, f.scratch);
    const CliResult remote = f.cli({"summary", f.url(big.profile), "--stats"});
    INFO(remote.err);
    REQUIRE(remote.exitCode == 0);
    CHECK(withoutStats(remote.out, f.url(big.profile), big.profile.string()) == local.out);
    const RemoteStats stats = parseStats(remote.out);
    REQUIRE(stats.found);
    CHECK(stats.fileSize == fs::file_size(big.profile));
    CHECK(stats.bytesRead * 100 < stats.fileSize);
}

TEST_CASE("ssh-agent authentication, without any key file") {
    RemoteFixture f;
    // The agent holds the key; the configuration names no key file and HOME has none.
    writeText(f.sshConfig, "# no key files: the agent only\n");
    const fs::path socket = f.world / "agent.sock";
    REQUIRE(runCommand({"ssh-agent", "-a", socket.string()}, f.world / "agent.log") == 0);
    ::setenv("SSH_AUTH_SOCK", socket.c_str(), 1);
    struct AgentStop {
        fs::path log;
        ~AgentStop() { runCommand({"ssh-agent", "-k"}, log); }
    } stop{f.world / "agent.log"};
    {
        // ssh-agent -k needs the agent's pid, which it printed.
        std::istringstream log(readWholeFile(f.world / "agent.log"));
        for (std::string word; log >> word;)
            if (word.starts_with("SSH_AGENT_PID="))
                ::setenv("SSH_AGENT_PID", word.substr(14, word.find(';') - 14).c_str(), 1);
    }
    // Without the key in the agent the login fails...
    const CliResult before = f.cli({"info", f.url(f.small.profile)});
    CHECK(before.exitCode == 1);
    CHECK(before.err.find("permission denied") != std::string::npos);
    CHECK(before.err.find("ssh-agent") != std::string::npos);
    // ...and with it, it works.
    REQUIRE(runCommand({"ssh-add", f.userKey.string()}, f.world / "agent.log") == 0);
    const CliResult after = f.cli({"info", f.url(f.small.profile)});
    INFO(after.err);
    CHECK(after.exitCode == 0);
    CHECK(after.out.find("profile report") != std::string::npos);
}

TEST_CASE("host aliases and ProxyJump from the SSH configuration") {
    RemoteFixture f;
    // A second server reached only through the first one (the jump host).
    SshTestServer target(f.world, "target", f.hostKey, f.authorizedKeys);
    f.server.reset();
    f.server =
        std::make_unique<SshTestServer>(f.world, "jump", f.hostKey, f.authorizedKeys, "DEBUG1");
    writeText(f.knownHosts, f.server->knownHostsLine() + "\n" + target.knownHostsLine() + "\n");
    const std::string user = currentUserName();
    writeText(f.sshConfig,
              "Host jumpbox\n  HostName 127.0.0.1\n  Port " + std::to_string(f.server->port()) +
                  "\n  User " + user + "\n  IdentityFile " + f.userKey.string() +
                  "\n\nHost inner\n  HostName 127.0.0.1\n  Port " + std::to_string(target.port()) +
                  "\n  User " + user + "\n  IdentityFile " + f.userKey.string() +
                  "\n  ProxyJump jumpbox\n");

    const std::string viaAlias = "ssh://jumpbox" + f.small.profile.string();
    const CliResult alias = f.cli({"summary", viaAlias});
    INFO(alias.err);
    REQUIRE(alias.exitCode == 0);
    CHECK(replaceAll(alias.out, viaAlias, f.small.profile.string()) ==
          runCli({"summary", f.small.profile.string()}, f.scratch).out);

    const std::string viaJump = "ssh://inner" + f.small.profile.string();
    const CliResult jumped = f.cli({"summary", viaJump, "--stats"});
    INFO(jumped.err);
    REQUIRE(jumped.exitCode == 0);
    CHECK(withoutStats(jumped.out, viaJump, f.small.profile.string()) ==
          runCli({"summary", f.small.profile.string()}, f.scratch).out);
    // The jump host forwarded the connection to the target's port.
    const std::string jumpLog = f.server->log();
    CHECK(jumpLog.find("direct-tcpip") != std::string::npos);
    CHECK(jumpLog.find("target 127.0.0.1 port " + std::to_string(target.port())) !=
          std::string::npos);
}

TEST_CASE("an unknown host is refused unless accepted, then recorded") {
    RemoteFixture f;
    writeText(f.knownHosts, "");
    const CliResult refused = f.cli({"info", f.url(f.small.profile)});
    CHECK(refused.exitCode == 1);
    CHECK(refused.errLines().size() == 1);
    CHECK(refused.err.find(f.url(f.small.profile)) != std::string::npos);
    CHECK(refused.err.find("unknown host") != std::string::npos);
    CHECK(refused.err.find("SHA256:") != std::string::npos);
    CHECK(refused.err.find("ssh-ed25519") != std::string::npos);
    CHECK(readWholeFile(f.knownHosts).empty());

    const CliResult accepted = f.cli({"info", f.url(f.small.profile), "--accept-new-host-key"});
    INFO(accepted.err);
    REQUIRE(accepted.exitCode == 0);
    CHECK(readWholeFile(f.knownHosts).find("127.0.0.1") != std::string::npos);
    const CliResult again = f.cli({"info", f.url(f.small.profile)});
    CHECK(again.exitCode == 0);
}

TEST_CASE("a changed host key is refused, also with --accept-new-host-key") {
    RemoteFixture f;
    const fs::path otherKey = f.world.makeKey("other_host_key");
    const std::string line = f.server->knownHostsLine();
    std::istringstream pub(readWholeFile(otherKey.string() + ".pub"));
    std::string type, key;
    pub >> type >> key;
    writeText(f.knownHosts, line.substr(0, line.find(' ')) + " " + type + " " + key + "\n");
    const std::string before = readWholeFile(f.knownHosts);
    for (const bool accept : {false, true}) {
        std::vector<std::string> args{"summary", f.url(f.small.profile)};
        if (accept)
            args.push_back("--accept-new-host-key");
        const CliResult r = f.cli(args);
        CHECK(r.exitCode == 1);
        CHECK(r.errLines().size() == 1);
        CHECK(r.err.find("CHANGED") != std::string::npos);
        CHECK(r.err.find("man-in-the-middle") != std::string::npos);
        CHECK(r.out.empty());
    }
    CHECK(readWholeFile(f.knownHosts) == before);
}

TEST_CASE("a key the server does not know is refused") {
    RemoteFixture f;
    const fs::path wrongKey = f.world.makeKey("wrong_key");
    writeText(f.sshConfig, "Host *\n  IdentityFile " + wrongKey.string() + "\n");
    const CliResult r = f.cli({"summary", f.url(f.small.profile)});
    CHECK(r.exitCode == 1);
    CHECK(r.errLines().size() == 1);
    CHECK(r.err.find(f.url(f.small.profile)) != std::string::npos);
    CHECK(r.err.find("permission denied") != std::string::npos);
}

TEST_CASE("paths with spaces, missing files, folders, files that are not reports, bad URLs") {
    RemoteFixture f;
    const fs::path spaced = f.world / "my reports" / "run 1.pop";
    fs::create_directories(spaced.parent_path());
    fs::copy_file(f.small.profile, spaced);
    const std::string local = runCli({"summary", spaced.string()}, f.scratch).out;
    for (const std::string& url :
         {f.url(spaced), "ssh://" + currentUserName() +
                             "@127.0.0.1:" + std::to_string(f.server->port()) +
                             f.world.dir().string() + "/my%20reports/run%201.pop"}) {
        const CliResult r = f.cli({"summary", url});
        INFO(url << ": " << r.err);
        REQUIRE(r.exitCode == 0);
        CHECK(replaceAll(r.out, url, spaced.string()) == local);
    }

    const auto failsWith = [&](const std::string& url, const std::string& problem) {
        const CliResult r = f.cli({"info", url});
        INFO(url << ": " << r.err);
        CHECK(r.exitCode == 1);
        CHECK(r.errLines().size() == 1);
        CHECK(r.err.find(url) != std::string::npos);
        CHECK(r.err.find(problem) != std::string::npos);
    };
    failsWith(f.url(f.world / "missing.pop"), "no such file");
    writeText(f.world / "notes.txt", "these are not the reports you are looking for\n");
    failsWith(f.url(f.world / "notes.txt"), "not a TileScope report");
    writeText(f.world / "empty.pop", "");
    failsWith(f.url(f.world / "empty.pop"), "file is empty");
    failsWith(f.url(f.world / "reports"), "is a directory");
    failsWith("ssh://127.0.0.1:99999/x.pop", "port");
    failsWith("ssh://127.0.0.1", "no file path");
}

TEST_CASE("ssh:// URLs: user, port, IPv6, percent-encoding, home-relative paths") {
    using tilescope::report::SshUrl;
    CHECK(SshUrl::matches("SSH://host/x"));
    CHECK_FALSE(SshUrl::matches("/tmp/ssh://x"));
    const SshUrl full = SshUrl::parse("ssh://alice@example.org:2222/data/run%201/profile.pop");
    CHECK(full.user == "alice");
    CHECK(full.host == "example.org");
    CHECK(full.port == 2222);
    CHECK(full.path == "/data/run 1/profile.pop");
    const SshUrl alias = SshUrl::parse("ssh://ipu-box/~/reports/profile.pop");
    CHECK(alias.user.empty());
    CHECK_FALSE(alias.port);
    CHECK(alias.path == "reports/profile.pop");
    const SshUrl v6 = SshUrl::parse("ssh://[::1]:22/p.pop");
    CHECK(v6.host == "::1");
    CHECK(v6.port == 22);
    for (const char* bad : {"ssh://host", "ssh://host/", "ssh://@host/x", "ssh://host:0/x",
                            "ssh://host:http/x", "ssh://:22/x", "ssh://host/a%2", "ssh://[::1/x"})
        CHECK_THROWS_AS(SshUrl::parse(bad), tilescope::report::ReportError);
}
