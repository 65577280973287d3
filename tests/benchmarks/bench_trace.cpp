// tilescope-bench-trace: cost of a pvti tracepoint (a begin+end pair through the RAII Tracepoint)
// with tracing enabled and disabled, and how many events per second the background flusher
// writes to the trace file. Prints one JSON object. Each figure is the best of several rounds,
// which keeps other processes on the machine from inflating it.

#include "pvti/pvti.hpp"
#include "tilescope/capture/HostTracer.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

using tilescope::capture::HostTracer;
using tilescope::capture::TraceOptions;
using Clock = std::chrono::steady_clock;

namespace {

double nsPerPair(pvti::TraceChannel& channel, long pairs, int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        const auto start = Clock::now();
        for (long i = 0; i < pairs; ++i)
            pvti::Tracepoint tracepoint(&channel, "pair");
        const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
        best = std::min(best, ns / static_cast<double>(pairs));
    }
    return best;
}

/// Cost of one read of the clock tracepoints use (the CPU's time-stamp counter on x86). An enabled
/// begin+end pair reads it twice, so twice this figure is the floor of `enabled_ns_per_pair` on
/// the machine at hand; a virtual machine can make it several times the bare-metal cost.
double nsPerTimestamp(long reads, int rounds) {
#if defined(__x86_64__) || defined(__i386__)
    double best = 1e300;
    volatile std::uint64_t sink = 0;
    for (int r = 0; r < rounds; ++r) {
        const auto start = Clock::now();
        std::uint64_t sum = 0;
        for (long i = 0; i < reads; ++i)
            sum += __rdtsc();
        sink = sum;
        const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
        best = std::min(best, ns / static_cast<double>(reads));
    }
    (void)sink;
    return best;
#else
    (void)reads;
    (void)rounds;
    return 0;
#endif
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Tracepoint cost and host-trace flush rate; prints one JSON object"};
    long pairs = 1'000'000;
    int rounds = 5;
    std::filesystem::path dir = std::filesystem::temp_directory_path() / "tilescope-bench-trace";
    app.add_option("--pairs", pairs, "begin+end pairs per round")->check(CLI::PositiveNumber);
    app.add_option("--rounds", rounds, "rounds; the best is reported")->check(CLI::PositiveNumber);
    app.add_option("--dir", dir, "where the trace file is written");
    CLI11_PARSE(app, argc, argv);

    std::filesystem::remove_all(dir);
    HostTracer::restart(TraceOptions{}); // tracing off
    pvti::TraceChannel offChannel = {"bench"};
    const double disabled = nsPerPair(offChannel, pairs * 10, rounds);

    TraceOptions on;
    on.enable = true;
    on.directory = dir;
    HostTracer& tracer = HostTracer::restart(on);
    pvti::TraceChannel channel = {"bench"};
    const auto start = Clock::now();
    const double enabled = nsPerPair(channel, pairs, rounds);
    tracer.flush();
    const double flushSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    const auto stats = tracer.stats();
    const auto file = tracer.file();
    const auto closeStart = Clock::now();
    tracer.close();
    const double closeMs =
        std::chrono::duration<double, std::milli>(Clock::now() - closeStart).count();
    const auto events = tilescope::report::HostTraceReader(file.string()).counts().events;

    nlohmann::json out = {
        {"enabled_ns_per_pair", enabled},
        {"disabled_ns_per_pair", disabled},
        {"timestamp_read_ns", nsPerTimestamp(pairs, rounds)},
        // Everything recorded was written by the time flush() returned.
        {"flushed_events_per_s", static_cast<double>(stats.eventsWritten) / flushSeconds},
        {"events_in_file", events},
        {"close_ms", closeMs},
        {"pairs_per_round", pairs},
        {"rounds", rounds},
    };
    std::cout << out.dump(2) << std::endl;
    std::filesystem::remove_all(dir);
    return events == static_cast<std::int64_t>(stats.eventsWritten) ? 0 : 1;
}
