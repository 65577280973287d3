// tilescope-bench-import: Chrome trace import speed and memory, as JSON on stdout.
//   import_events_per_s           report::importChromeTrace of a generated file of N complete
//                                 events (default 1 M) on 16 threads, in producer order (time
//                                 order over all threads, as most tools write)
//   import_shuffled_events_per_s  the same events with each thread's events shuffled (the
//                                 threads still interleave), so that every thread is sorted
//   import_peak_rss_mb            peak resident memory of the process during each import (the
//                                 larger of the two)
//   import_events_per_cpu_s       the same imports per second of process CPU time (both threads),
//   import_shuffled_events_per_cpu_s  which a machine shared with other sessions disturbs less
//   scan_events_per_s             DIAGNOSTIC, not the target: the same imports with
//   scan_shuffled_events_per_s    ChromeTraceImportOptions::discardEventRows (scanning, ordering,
//                                 nesting; no event rows written), the import side's own speed
//   baseline_sqlite_rows_per_s    the floor any import pays, measured in the same run: the same
//                                 number of event rows inserted into the host-trace event table
//                                 with one reused prepared statement in one transaction, without
//                                 journal or syncs, then indexed (no JSON, no nesting, no pyramids)
//   import_vs_baseline            import_events_per_s / baseline_sqlite_rows_per_s (and shuffled):
//   import_shuffled_vs_baseline   the figure to compare across runs under different loads
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
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
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

/// CPU time of the whole process (every thread), in seconds.
double processCpuS() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto s = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
    return s(u.ru_utime) + s(u.ru_stime);
}

void exec(sqlite3* db, const char* sql) {
    char* error = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string what = error ? error : "sqlite error";
        sqlite3_free(error);
        throw std::runtime_error(what);
    }
}

/// Rows per second of the bare storage an import ends in (see the header comment); the best of
/// two runs, like the imports.
double baselineSqliteRowsPerS(const fs::path& dir, std::uint64_t rows) {
    double best = 0;
    for (int run = 0; run < 2; ++run) {
        const fs::path path = dir / "baseline.sqlite";
        fs::remove(path);
        const auto start = std::chrono::steady_clock::now();
        sqlite3* db = nullptr;
        if (sqlite3_open(path.c_str(), &db) != SQLITE_OK)
            throw std::runtime_error("cannot open " + path.string());
        try {
            exec(db, "PRAGMA page_size=16384; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                     "PRAGMA cache_size=-65536; BEGIN; CREATE TABLE event(id INTEGER PRIMARY KEY, "
                     "thread_id INTEGER NOT NULL, channel_id INTEGER NOT NULL, name_id INTEGER "
                     "NOT NULL, kind INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER, "
                     "depth INTEGER NOT NULL)");
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(db,
                               "INSERT INTO event(thread_id, channel_id, name_id, kind, start_ns, "
                               "end_ns, depth) VALUES(?,?,?,?,?,?,?)",
                               -1, &st, nullptr);
            const std::uint64_t perThread = rows / kThreads;
            for (std::uint64_t i = 0; i < rows; ++i) {
                const std::int64_t t = std::int64_t(i / perThread), k = std::int64_t(i % perThread);
                const std::int64_t ts = 1000000 + 12000 * (k / 2);
                const std::int64_t values[] = {t, 1, k % 7, 0, ts, ts + 10500, k % 2};
                for (int c = 0; c < 7; ++c)
                    sqlite3_bind_int64(st, c + 1, values[c]);
                sqlite3_step(st);
                sqlite3_reset(st);
            }
            sqlite3_finalize(st);
            exec(db, "CREATE INDEX event_by_track ON event(thread_id, depth, start_ns); COMMIT");
        } catch (...) {
            sqlite3_close(db);
            throw;
        }
        sqlite3_close(db);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        best = std::max(best, double(rows) / s);
    }
    fs::remove(dir / "baseline.sqlite");
    return best;
}

struct Rate {
    double eventsPerS = 0;
    double eventsPerCpuS = 0;
    double peakRssMb = 0;
    std::uint64_t events = 0;
    std::uint64_t reordered = 0;
};

Rate measure(const fs::path& json, const fs::path& out,
             const tilescope::report::ChromeTraceImportOptions& options = {}) {
    Rate r;
    for (int run = 0; run < 2; ++run) {
        resetPeakRss();
        const double cpu = processCpuS();
        const auto start = std::chrono::steady_clock::now();
        const auto stats = importChromeTrace(json, out, options);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        r.eventsPerS = std::max(r.eventsPerS, double(stats.events) / s);
        r.eventsPerCpuS = std::max(r.eventsPerCpuS, double(stats.events) / (processCpuS() - cpu));
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
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--events" && i + 1 < argc)
            events = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--dir" && i + 1 < argc)
            dir = argv[++i];
        else if (a == "--keep") // leave the generated traces in DIR (for a profiler)
            keep = true;
        else {
            std::printf(
                "usage: tilescope-bench-import [--events N] [--dir DIR] [--keep]\nImports a "
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
        tilescope::report::ChromeTraceImportOptions scanOnly;
        scanOnly.discardEventRows = true;
        const Rate scanA = measure(ordered, dir / "scan-ordered.pvti", scanOnly);
        const Rate scanB = measure(shuffled, dir / "scan-shuffled.pvti", scanOnly);
        const double baseline = baselineSqliteRowsPerS(dir, a.events);
        std::printf("{\n  \"import_events\": %llu,\n  \"import_events_per_s\": %.0f,\n"
                    "  \"import_shuffled_events_per_s\": %.0f,\n"
                    "  \"import_events_per_cpu_s\": %.0f,\n"
                    "  \"import_shuffled_events_per_cpu_s\": %.0f,\n"
                    "  \"scan_events_per_s\": %.0f,\n"
                    "  \"scan_shuffled_events_per_s\": %.0f,\n"
                    "  \"baseline_sqlite_rows_per_s\": %.0f,\n"
                    "  \"import_vs_baseline\": %.3f,\n  \"import_shuffled_vs_baseline\": %.3f,\n"
                    "  \"import_shuffled_reordered\": %llu,\n  \"import_peak_rss_mb\": %.1f\n}\n",
                    static_cast<unsigned long long>(a.events), a.eventsPerS, b.eventsPerS,
                    a.eventsPerCpuS, b.eventsPerCpuS, scanA.eventsPerS, scanB.eventsPerS, baseline,
                    a.eventsPerS / baseline, b.eventsPerS / baseline,
                    static_cast<unsigned long long>(b.reordered),
                    std::max(a.peakRssMb, b.peakRssMb));
        if (!keep)
            fs::remove_all(dir);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tilescope-bench-import: %s\n", e.what());
        return 1;
    }
    return 0;
}
