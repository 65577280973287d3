// tilescope-bench-import: Chrome trace import speed and memory, as JSON on stdout.
//   import_events_per_s           report::importChromeTrace of a generated file of N complete
//                                 events (default 1 M) on 16 threads, in producer order (time
//                                 order over all threads, as most tools write)
//   import_shuffled_events_per_s  the same events with each thread's events shuffled (the
//                                 threads still interleave), so that every thread is sorted
//   import_peak_rss_mb            peak resident memory of the process during each import (the
//                                 larger of the two)
// Each rate is the best of two runs: the first also warms the page cache with the input.

#include "tilescope/report/ChromeTrace.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using tilescope::report::importChromeTrace;

namespace {

constexpr int kThreads = 16;

/// Event `i` of thread `t`: outer/inner pairs of complete events, every 16th pair with an
/// instant inside; timestamps in microseconds with fractions, as profilers write them.
void writeEvent(std::ofstream& out, int t, std::uint64_t i) {
    const std::uint64_t pair = i / 2;
    const std::uint64_t ts = 1000 + std::uint64_t(t) + 12 * pair;
    if (i % 2 == 0)
        out << "{\"ph\":\"X\",\"cat\":\"app\",\"name\":\"outer" << pair % 7
            << "\",\"pid\":1,\"tid\":" << t << ",\"ts\":" << ts << ",\"dur\":10.5}";
    else
        out << "{\"ph\":\"X\",\"cat\":\"app\",\"name\":\"inner" << pair % 5
            << "\",\"pid\":1,\"tid\":" << t << ",\"ts\":" << ts + 1
            << ".125,\"dur\":4.25,\"args\":{\"n\":" << pair << "}}";
}

fs::path writeTrace(const fs::path& dir, std::uint64_t events, bool shuffled) {
    const fs::path path = dir / (shuffled ? "shuffled.json" : "ordered.json");
    std::ofstream out(path);
    out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    const std::uint64_t perThread = events / kThreads / 2 * 2;
    std::vector<std::uint64_t> order(perThread);
    std::iota(order.begin(), order.end(), 0);
    std::vector<std::vector<std::uint64_t>> orders(kThreads, order);
    if (shuffled) {
        std::mt19937_64 rng(42);
        for (auto& o : orders)
            std::shuffle(o.begin(), o.end(), rng);
    }
    bool first = true;
    for (std::uint64_t k = 0; k < perThread; ++k)
        for (int t = 0; t < kThreads; ++t) {
            out << (first ? "" : ",\n");
            first = false;
            writeEvent(out, t, orders[std::size_t(t)][k]);
        }
    out << "\n]}\n";
    return path;
}

/// Peak resident set since the last reset, in MB (VmHWM).
double peakRssMb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
    return 0;
}

void resetPeakRss() {
    std::ofstream("/proc/self/clear_refs") << "5";
}

struct Rate {
    double eventsPerS = 0;
    double peakRssMb = 0;
    std::uint64_t events = 0;
    std::uint64_t reordered = 0;
};

Rate measure(const fs::path& json, const fs::path& out) {
    Rate r;
    for (int run = 0; run < 2; ++run) {
        resetPeakRss();
        const auto start = std::chrono::steady_clock::now();
        const auto stats = importChromeTrace(json, out);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        r.eventsPerS = std::max(r.eventsPerS, double(stats.events) / s);
        r.peakRssMb = std::max(r.peakRssMb, peakRssMb());
        r.events = stats.events;
        r.reordered = stats.repairs.reordered;
    }
    return r;
}

} // namespace

int main(int argc, char** argv) {
    std::uint64_t events = 1'000'000;
    fs::path dir = fs::temp_directory_path() / "tilescope-bench-import";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--events" && i + 1 < argc)
            events = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else {
            std::printf("usage: tilescope-bench-import [--events N] [--dir DIR]\nImports a "
                        "generated Chrome trace of N events (default 1000000) in producer order "
                        "and shuffled per thread; prints events/s and peak resident memory as "
                        "JSON.\n");
            return a == "--help" || a == "-h" ? 0 : 2;
        }
    }
    try {
        fs::create_directories(dir);
        const auto ordered = writeTrace(dir, events, false);
        const auto shuffled = writeTrace(dir, events, true);
        const Rate a = measure(ordered, dir / "ordered.pvti");
        const Rate b = measure(shuffled, dir / "shuffled.pvti");
        std::printf("{\n  \"import_events\": %llu,\n  \"import_events_per_s\": %.0f,\n"
                    "  \"import_shuffled_events_per_s\": %.0f,\n"
                    "  \"import_shuffled_reordered\": %llu,\n  \"import_peak_rss_mb\": %.1f\n}\n",
                    static_cast<unsigned long long>(a.events), a.eventsPerS, b.eventsPerS,
                    static_cast<unsigned long long>(b.reordered),
                    std::max(a.peakRssMb, b.peakRssMb));
        fs::remove_all(dir);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tilescope-bench-import: %s\n", e.what());
        return 1;
    }
    return 0;
}
