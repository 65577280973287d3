// tilescope-bench-remote: what opening a large report over SSH costs. Generates a 16-IPU report
// once (default: 50,000 steps x 400 runs, about 1.1 GB, in /tmp/tilescope-bench-remote), starts
// an sshd on 127.0.0.1 as the remote tests do, runs `tilescope-cli summary` on the local file and
// on its ssh:// URL with --stats, and prints one JSON object: file size, bytes read, round trips,
// the fraction read, wall times, and whether both summaries are identical.
//
//   tilescope-bench-remote [--dir DIR] [--ipus N] [--steps N] [--runs N]

#include "RemoteFixture.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

using namespace tilescope::testing;
namespace fs = std::filesystem;
namespace report = tilescope::report;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) try {
    fs::path dir = "/tmp/tilescope-bench-remote";
    report::SyntheticSpec spec;
    spec.ipus = 16;
    spec.steps = 50'000;
    spec.runs = 400;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string name = argv[i], value = argv[i + 1];
        if (name == "--dir")
            dir = value;
        else if (name == "--ipus")
            spec.ipus = static_cast<std::uint32_t>(std::stoul(value));
        else if (name == "--steps")
            spec.steps = std::stoull(value);
        else if (name == "--runs")
            spec.runs = static_cast<std::uint32_t>(std::stoul(value));
        else
            throw std::invalid_argument("unknown option " + name);
    }
    if ((argc - 1) % 2 != 0)
        throw std::invalid_argument("options take a value");
    // The report is generated once per spec and kept: generating 1 GB takes minutes.
    const fs::path reportDir =
        dir / ("ipus" + std::to_string(spec.ipus) + "-steps" + std::to_string(spec.steps) +
               "-runs" + std::to_string(spec.runs));
    const fs::path profile = reportDir / "profile.pop";
    if (!fs::exists(profile))
        report::generateSyntheticReport(reportDir, spec);

    RemoteFixture f;
    const auto t0 = Clock::now();
    const CliResult local = runCli({"summary", profile.string()}, f.scratch);
    const double localMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    const auto t1 = Clock::now();
    const CliResult remote = f.cli({"summary", f.url(profile), "--stats"});
    const double remoteMs = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
    if (local.exitCode != 0 || remote.exitCode != 0)
        throw std::runtime_error("summary failed: " + local.err + remote.err);
    const RemoteStats stats = parseStats(remote.out);
    if (!stats.found)
        throw std::runtime_error("no --stats line in: " + remote.out);

    nlohmann::json out;
    out["report"] = profile.string();
    out["file_size"] = stats.fileSize;
    out["bytes_read"] = stats.bytesRead;
    out["round_trips"] = stats.roundTrips;
    out["read_percent"] =
        100.0 * static_cast<double>(stats.bytesRead) / static_cast<double>(stats.fileSize);
    out["local_summary_ms"] = localMs;
    out["remote_summary_ms"] = remoteMs;
    out["same_summary"] = withoutStats(remote.out, f.url(profile), profile.string()) == local.out;
    std::cout << out.dump(2) << "\n";
    return 0;
} catch (const std::exception& e) {
    std::cerr << "tilescope-bench-remote: " << e.what() << "\n";
    return 1;
}
