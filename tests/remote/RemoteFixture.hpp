#pragma once
// One SSH world per test case: an sshd on 127.0.0.1 that trusts a generated user key, an
// ssh_config naming that key, a known_hosts that trusts the server, and a small report to open.

#include "CliProcess.hpp"
#include "SshTestServer.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <string>
#include <vector>

namespace tilescope::testing {

inline void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

struct RemoteFixture {
    SshWorld world;
    ScratchDir scratch;
    std::filesystem::path hostKey, userKey, authorizedKeys, sshConfig, knownHosts;
    std::unique_ptr<SshTestServer> server;
    report::SyntheticOutput small;

    RemoteFixture() {
        world.isolateEnvironment();
        hostKey = world.makeKey("host_key");
        userKey = world.makeKey("user_key");
        authorizedKeys = world / "authorized_keys";
        std::filesystem::copy_file(userKey.string() + ".pub", authorizedKeys);
        server = std::make_unique<SshTestServer>(world, "main", hostKey, authorizedKeys);
        knownHosts = world / "known_hosts";
        writeText(knownHosts, server->knownHostsLine() + "\n");
        sshConfig = world / "ssh_config";
        writeText(sshConfig, "Host *\n  IdentityFile " + userKey.string() + "\n");
        report::SyntheticSpec spec;
        spec.ipus = 2;
        spec.tilesPerIpu = 16;
        spec.steps = 60;
        spec.hostEvents = 3000;
        spec.hostThreads = 4;
        spec.seed = 11;
        small = report::generateSyntheticReport(world / "reports", spec);
    }

    std::string url(const std::filesystem::path& file, int port = 0) const {
        return "ssh://" + currentUserName() +
               "@127.0.0.1:" + std::to_string(port ? port : server->port()) + file.string();
    }

    std::vector<std::string> sshArgs() const {
        return {"--ssh-config", sshConfig.string(), "--known-hosts", knownHosts.string()};
    }

    /// tilescope-cli ARGS... plus the world's --ssh-config and --known-hosts.
    CliResult cli(std::vector<std::string> args) const {
        for (const auto& a : sshArgs())
            args.push_back(a);
        return runCli(args, scratch);
    }
};

/// The figures of a `--stats` line (the last line of standard output).
struct RemoteStats {
    std::uint64_t bytesRead = 0, roundTrips = 0, fileSize = 0;
    bool found = false;
};

inline RemoteStats parseStats(const std::string& out) {
    static const std::regex line(R"(bytes_read=(\d+) round_trips=(\d+) file_size=(\d+)\n$)");
    std::smatch m;
    RemoteStats s;
    if (std::regex_search(out, m, line)) {
        s.bytesRead = std::stoull(m[1]);
        s.roundTrips = std::stoull(m[2]);
        s.fileSize = std::stoull(m[3]);
        s.found = true;
    }
    return s;
}

/// `out` with every `from` replaced by `to` (the URL by the local path it stands for).
inline std::string replaceAll(std::string out, const std::string& from, const std::string& to) {
    for (std::size_t at = out.find(from); at != std::string::npos;
         at = out.find(from, at + to.size()))
        out.replace(at, from.size(), to);
    return out;
}

/// Output without its last line (the --stats line) and with `from` replaced by `to`.
inline std::string withoutStats(std::string out, const std::string& from, const std::string& to) {
    if (out.size() > 1) {
        const auto cut = out.rfind('\n', out.size() - 2);
        out.erase(cut == std::string::npos ? 0 : cut + 1);
    }
    return replaceAll(out, from, to);
}

} // namespace tilescope::testing
