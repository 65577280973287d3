// tilescope-bench-trace: cost of a pvti tracepoint (a begin+end pair through the RAII Tracepoint)
// with tracing enabled and disabled, next to the floor of what an enabled pair must do (two
// timestamp reads and two 16-byte stores into a preallocated buffer, in the same loop shape)
// measured in the same run; page faults per million events after warm-up; the per-thread cost
// with 1, 2 and 4 producer threads; a pair carrying tracepoint metadata; and how many events per
// second reach a committed trace file.
// Prints one JSON object. Loop figures are thread CPU time per pair, the best of several rounds,
// which keeps other processes on the machine from inflating them.

#include "pvti/pvti.hpp"
#include "tilescope/capture/HostTracer.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <thread>
#include <vector>

using tilescope::capture::HostTracer;
using tilescope::capture::TraceOptions;
using Clock = std::chrono::steady_clock;

namespace {

double threadCpuNs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

/// One round of `pairs` RAII tracepoints: the calling thread's CPU time per pair. CPU time, not
/// wall time: on a loaded machine a round's wall time includes the time the thread waited for a
/// core, which is not the tracepoint's cost.
double pairRound(pvti::TraceChannel& channel, long pairs) {
    const double start = threadCpuNs();
    for (long i = 0; i < pairs; ++i)
        pvti::Tracepoint tracepoint(&channel, "pair");
    return (threadCpuNs() - start) / static_cast<double>(pairs);
}

/// One round of `pairs` tracepoints each carrying `metadata` at its begin (the out-of-line
/// metadata path: a copy of the blob under the session's lock and one more record): the calling
/// thread's CPU time per pair.
double metadataRound(pvti::TraceChannel& channel, long pairs, const pvti::Metadata& metadata) {
    const double start = threadCpuNs();
    for (long i = 0; i < pairs; ++i)
        pvti::Tracepoint tracepoint(&channel, "tagged", &metadata);
    return (threadCpuNs() - start) / static_cast<double>(pairs);
}

/// One round of the floor of an enabled pair: per pair, two clock reads (the clock tracepoints
/// use) and two 16-byte records stored into `buffer`, allocated and touched beforehand, as the
/// pair stores its begin and end into its thread's chunk.
double floorRound(std::vector<pvti::detail::EventRecord>& buffer, long pairs) {
    pvti::detail::EventRecord* out = buffer.data();
    const double start = threadCpuNs();
    for (long i = 0; i < pairs; ++i) {
        out[0] = {pvti::detail::ticksNow(), 1, 0, pvti::detail::kBeginEvent, 0};
        out[1] = {pvti::detail::ticksNow(), 1, 0, pvti::detail::kEndEvent, 0};
        out += 2;
        asm volatile("" ::: "memory"); // keep the stores, as the pair's are kept
    }
    return (threadCpuNs() - start) / static_cast<double>(pairs);
}

/// Cost of one read of the clock tracepoints use (the CPU's time-stamp counter on x86).
double nsPerTimestamp(long reads, int rounds) {
    double best = 1e300;
    volatile std::uint64_t sink = 0;
    for (int r = 0; r < rounds; ++r) {
        const auto start = Clock::now();
        std::uint64_t sum = 0;
        for (long i = 0; i < reads; ++i)
            sum += pvti::detail::ticksNow();
        sink = sum;
        const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
        best = std::min(best, ns / static_cast<double>(reads));
    }
    (void)sink;
    return best;
}

long minorFaultsOfThisThread() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt;
}

/// Per-thread cost of a pair with `threads` producers tracing at once: the mean over threads of
/// each thread's CPU time per pair (CPU time, so that more threads than cores do not count the
/// time a thread waits for a core), best of `rounds`.
double nsPerPairWithThreads(pvti::TraceChannel& channel, int threads, long pairs, int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        std::vector<double> costs(static_cast<std::size_t>(threads));
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t)
            workers.emplace_back([&, t] {
                { pvti::Tracepoint warm(&channel, "pair"); } // registers the thread
                const double start = threadCpuNs();
                for (long i = 0; i < pairs; ++i)
                    pvti::Tracepoint tracepoint(&channel, "pair");
                costs[static_cast<std::size_t>(t)] =
                    (threadCpuNs() - start) / static_cast<double>(pairs);
            });
        for (auto& w : workers)
            w.join();
        double sum = 0;
        for (double c : costs)
            sum += c;
        best = std::min(best, sum / threads);
        HostTracer::instance().flush(); // the next round starts with the writer idle
    }
    return best;
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
    double disabled = 1e300;
    for (int r = 0; r < rounds; ++r)
        disabled = std::min(disabled, pairRound(offChannel, pairs * 10));

    TraceOptions on;
    on.enable = true;
    on.directory = dir;
    HostTracer& tracer = HostTracer::restart(on);
    pvti::TraceChannel channel = {"bench"};
    std::vector<pvti::detail::EventRecord> floorBuffer(static_cast<std::size_t>(2 * pairs));

    // Warm-up: the thread registers, its chunks are allocated once and handed back by the writer,
    // and the floor's buffer is touched. Then floor and enabled rounds alternate (so both see the
    // same machine), each enabled round followed by a flush outside the timed loop: the writer
    // drains and hands the chunks back, as it does when it keeps up with the producers.
    pairRound(channel, 2 * pairs); // a round's chunks and a round's worth to spare
    floorRound(floorBuffer, pairs);
    tracer.flush();
    double floor = 1e300, enabled = 1e300;
    long faults = 0;
    for (int r = 0; r < rounds; ++r) {
        floor = std::min(floor, floorRound(floorBuffer, pairs));
        const long faultsBefore = minorFaultsOfThisThread();
        enabled = std::min(enabled, pairRound(channel, pairs));
        faults += minorFaultsOfThisThread() - faultsBefore;
        tracer.flush();
    }

    const long threadPairs = std::max(1L, pairs / 10);
    const int threadRounds = std::min(rounds, 3);
    const pvti::Metadata metadata = pvti::createJsonMetadata(R"({"batch": 32, "step": 1})");
    double withMetadata = 1e300;
    for (int r = 0; r < threadRounds; ++r) {
        withMetadata = std::min(withMetadata, metadataRound(channel, threadPairs, metadata));
        tracer.flush();
    }
    const double threads1 = nsPerPairWithThreads(channel, 1, threadPairs, threadRounds);
    const double threads2 = nsPerPairWithThreads(channel, 2, threadPairs, threadRounds);
    const double threads4 = nsPerPairWithThreads(channel, 4, threadPairs, threadRounds);

    // Producers to a committed file: events recorded from now until flush() has committed them.
    const auto before = tracer.stats();
    const auto start = Clock::now();
    for (long i = 0; i < pairs; ++i)
        pvti::Tracepoint tracepoint(&channel, "flushed");
    tracer.flush();
    const double flushSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    const auto stats = tracer.stats();
    const auto file = tracer.file();
    const auto closeStart = Clock::now();
    tracer.close();
    const double closeMs =
        std::chrono::duration<double, std::milli>(Clock::now() - closeStart).count();
    const auto events = tilescope::report::HostTraceReader(file.string()).counts().events;
    const double recordsMeasured = 2.0 * static_cast<double>(pairs) * rounds;

    nlohmann::json out = {
        {"enabled_ns_per_pair", enabled},
        {"disabled_ns_per_pair", disabled},
        {"floor_ns_per_pair", floor},
        {"enabled_over_floor", enabled / floor},
        {"timestamp_read_ns", nsPerTimestamp(pairs, rounds)},
        // Faults of the tracing thread (RUSAGE_THREAD) over the measured rounds, per million
        // begin/end records; the writer thread's SQLite page cache is not the tracepoints' cost.
        {"minor_faults_per_million_events", static_cast<double>(faults) * 1e6 / recordsMeasured},
        {"ns_per_pair_threads_1", threads1},
        {"ns_per_pair_threads_2", threads2},
        {"ns_per_pair_threads_4", threads4},
        {"threads_2_over_1", threads2 / threads1},
        // A pair whose begin carries a 24-byte JSON metadata (pvti::createJsonMetadata).
        {"metadata_ns_per_pair", withMetadata},
        // Rows (complete events) from the first tracepoint to flush() returning with them
        // committed.
        {"flushed_events_per_s",
         static_cast<double>(stats.eventsWritten - before.eventsWritten) / flushSeconds},
        {"events_dropped", stats.eventsDropped},
        {"events_in_file", events},
        {"close_ms", closeMs},
        {"pairs_per_round", pairs},
        {"rounds", rounds},
    };
    std::cout << out.dump(2) << std::endl;
    std::filesystem::remove_all(dir);
    return events == static_cast<std::int64_t>(stats.eventsWritten) ? 0 : 1;
}
