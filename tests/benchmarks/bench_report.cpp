// tilescope-bench-report: write throughput of the report writers against a plain SQLite bulk
// insert of the same rows, in the same run and the same directory. Prints one JSON object.
//
//   execution trace: ProfileWriter::addRunStep, a small per-IPU and per-tile cycle series per row
//   host events:     HostTraceWriter::addEvent, nested events over several threads
//   baseline:        the same table DDL, one prepared INSERT, one transaction, WAL,
//                    synchronous=NORMAL; rows generated and blobs encoded exactly as for the writer
//
// Rows per second exclude close()/finalisation, reported separately as close_ms (the host trace
// builds its track index and level-of-detail pyramids there).

#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ProfileWriter.hpp"
#include "tilescope/report/Schema.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace tilescope::report;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::int64_t rows = 2'000'000; // per kind
    std::uint32_t ipus = 2;
    std::uint32_t tilesPerIpu = 16;
    std::int64_t stepsPerRun = 100'000;
    int repeat = 1;            // best of
    std::string kind = "both"; // execution | host | both
    fs::path dir;
};

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// CPU seconds of this (single-threaded) process: unlike wall time, not inflated when other
/// processes share the cores.
double cpuSeconds() {
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

void removeDb(const fs::path& p) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        fs::remove(p.string() + suffix);
}

std::uint64_t fileBytes(const fs::path& p) {
    std::uint64_t n = 0;
    for (const char* suffix : {"", "-wal"}) {
        std::error_code ec;
        const auto s = fs::file_size(p.string() + suffix, ec);
        n += ec ? 0 : s;
    }
    return n;
}

// --- rows -----------------------------------------------------------------------------------

constexpr int kSteps = 8; // lowered program steps the runs cycle through

/// Fills `s` with row `i` of the execution trace: most tiles run the same vertex for the same
/// cycles, a few groups differ and some idle, as in a real BSP compute step.
void makeRunStep(std::int64_t i, RunStepRecord& s) {
    s.stepId = i % kSteps;
    s.startCycle = static_cast<std::uint64_t>(i) * 2000;
    s.cycles = 500 + static_cast<std::uint64_t>(i * 7919) % 1400;
    for (std::size_t k = 0; k < s.perIpu.size(); ++k)
        s.perIpu[k] = s.cycles - 3 * k;
    const std::size_t n = s.perTile.size();
    for (std::size_t t = 0; t < n; ++t)
        s.perTile[t] = t < n / 8 ? 0 : t < n / 2 ? s.cycles : s.cycles - 40 - (i % 3);
}

/// Row `i` of the host trace: 4-deep nesting on one of 8 threads, 1 us per leaf.
struct HostRow {
    std::int64_t thread, name, start, end;
    std::int32_t depth;
};
HostRow makeHostEvent(std::int64_t i) {
    const std::int64_t frame = i / 32, thread = 1 + frame % 8, depth = i % 4;
    const std::int64_t start = 1'700'000'000'000'000'000 + frame * 10'000 + depth * 100;
    return {thread, 1 + i % 5, start, start + 8'000 - depth * 200,
            static_cast<std::int32_t>(depth)};
}

// --- the writers ------------------------------------------------------------------------------

struct Timing {
    double seconds = 0;
    double cpuSeconds = 0;
    double closeSeconds = 0;
    std::uint64_t bytes = 0;
};

Timing writeExecutionTrace(const Options& o, const fs::path& path) {
    removeDb(path);
    ProfileWriter w(path);
    TargetInfo target;
    target.numIpus = o.ipus;
    target.tilesPerIpu = o.tilesPerIpu;
    w.setTarget(target);
    ProgramRecord program;
    program.kind = "Sequence";
    program.name = "main";
    const auto programId = w.addProgram(program);
    for (int k = 0; k < kSteps; ++k) {
        StepRecord step;
        step.programId = programId;
        step.kind = k % 4 == 1 ? "DoExchange" : k % 4 == 3 ? "Sync" : "OnTileExecute";
        w.addStep(step);
    }
    w.finishCompilation();

    RunStepRecord s;
    s.perIpu.resize(o.ipus);
    s.perTile.resize(target.numTiles());
    const auto t0 = Clock::now();
    const double cpu0 = cpuSeconds();
    for (std::int64_t i = 0; i < o.rows;) {
        w.beginRun(0, i);
        const std::int64_t end = std::min(o.rows, i + o.stepsPerRun);
        for (std::int64_t first = i; i < end; ++i) {
            makeRunStep(i - first, s);
            w.addRunStep(s);
        }
        w.endRun(i);
    }
    Timing t;
    t.seconds = secondsSince(t0);
    t.cpuSeconds = cpuSeconds() - cpu0;
    const auto c0 = Clock::now();
    w.close();
    t.closeSeconds = secondsSince(c0);
    t.bytes = fileBytes(path);
    return t;
}

Timing writeHostEvents(const Options& o, const fs::path& path) {
    removeDb(path);
    HostTraceWriter w(path);
    const auto process = w.addProcess(1, "bench", 0);
    for (int t = 0; t < 8; ++t)
        w.addThread(process, 100 + t, "thread " + std::to_string(t));
    const auto channel = w.addChannel("bench");
    for (int n = 0; n < 5; ++n)
        w.intern("event " + std::to_string(n));

    const auto t0 = Clock::now();
    const double cpu0 = cpuSeconds();
    for (std::int64_t i = 0; i < o.rows; ++i) {
        const HostRow e = makeHostEvent(i);
        w.addEvent(e.thread, channel, e.name, e.start, e.end, e.depth);
    }
    Timing t;
    t.seconds = secondsSince(t0);
    t.cpuSeconds = cpuSeconds() - cpu0;
    const auto c0 = Clock::now();
    w.close();
    t.closeSeconds = secondsSince(c0);
    t.bytes = fileBytes(path);
    return t;
}

// --- the plain SQLite baseline -------------------------------------------------------------------

class PlainDb {
public:
    PlainDb(const fs::path& path, std::string_view table) {
        removeDb(path);
        check(sqlite3_open(path.c_str(), &db_));
        exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
        for (const auto& o : Schema::profile())
            if (o.name == table)
                exec(std::string(o.sql));
        for (const auto& o : Schema::hostTrace())
            if (o.name == table && o.type == "table")
                exec(std::string(o.sql));
    }
    ~PlainDb() {
        sqlite3_finalize(insert_);
        sqlite3_close(db_);
    }
    void exec(const std::string& sql) {
        check(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr));
    }
    sqlite3_stmt* prepare(const std::string& sql) {
        check(sqlite3_prepare_v2(db_, sql.c_str(), -1, &insert_, nullptr));
        return insert_;
    }
    void step() {
        if (sqlite3_step(insert_) != SQLITE_DONE)
            check(SQLITE_ERROR);
        sqlite3_reset(insert_);
    }

private:
    void check(int rc) {
        if (rc != SQLITE_OK)
            throw std::runtime_error(std::string("baseline: ") +
                                     (db_ ? sqlite3_errmsg(db_) : "open"));
    }
    sqlite3* db_ = nullptr;
    sqlite3_stmt* insert_ = nullptr;
};

Timing baselineExecutionTrace(const Options& o, const fs::path& path) {
    PlainDb db(path, "run_step");
    sqlite3_stmt* st = db.prepare("INSERT INTO run_step(id, run_id, step_id, start_cycle, cycles, "
                                  "active_tiles, tile_balance, per_ipu, per_tile) "
                                  "VALUES(?,?,?,?,?,?,?,?,?)");
    RunStepRecord s;
    s.perIpu.resize(o.ipus);
    s.perTile.resize(static_cast<std::size_t>(o.ipus) * o.tilesPerIpu);
    std::string perIpu, perTile;
    const auto t0 = Clock::now();
    const double cpu0 = cpuSeconds();
    db.exec("BEGIN");
    for (std::int64_t i = 0; i < o.rows; ++i) {
        makeRunStep(i % o.stepsPerRun, s);
        // The row's derived figures, as any producer of these rows computes them.
        std::uint64_t sum = 0, busiest = 0, active = 0;
        for (auto c : s.perTile) {
            active += c != 0;
            sum += c;
            busiest = std::max(busiest, c);
        }
        perIpu.clear();
        perTile.clear();
        TileSeries::encode(s.perIpu, perIpu);
        TileSeries::encode(s.perTile, perTile);
        sqlite3_bind_int64(st, 1, i + 1);
        sqlite3_bind_int64(st, 2, 1 + i / o.stepsPerRun);
        sqlite3_bind_int64(st, 3, s.stepId);
        sqlite3_bind_int64(st, 4, static_cast<std::int64_t>(s.startCycle));
        sqlite3_bind_int64(st, 5, static_cast<std::int64_t>(s.cycles));
        sqlite3_bind_int64(st, 6, static_cast<std::int64_t>(active));
        sqlite3_bind_double(st, 7,
                            static_cast<double>(sum) / static_cast<double>(active * busiest));
        sqlite3_bind_blob(st, 8, perIpu.data(), static_cast<int>(perIpu.size()), SQLITE_STATIC);
        sqlite3_bind_blob(st, 9, perTile.data(), static_cast<int>(perTile.size()), SQLITE_STATIC);
        db.step();
    }
    db.exec("COMMIT");
    Timing t;
    t.seconds = secondsSince(t0);
    t.cpuSeconds = cpuSeconds() - cpu0;
    t.bytes = fileBytes(path);
    return t;
}

Timing baselineHostEvents(const Options& o, const fs::path& path) {
    PlainDb db(path, "event");
    sqlite3_stmt* st = db.prepare("INSERT INTO event(thread_id, channel_id, name_id, kind, "
                                  "start_ns, end_ns, depth) VALUES(?,?,?,?,?,?,?)");
    const auto t0 = Clock::now();
    const double cpu0 = cpuSeconds();
    db.exec("BEGIN");
    for (std::int64_t i = 0; i < o.rows; ++i) {
        const HostRow e = makeHostEvent(i);
        sqlite3_bind_int64(st, 1, e.thread);
        sqlite3_bind_int64(st, 2, 1);
        sqlite3_bind_int64(st, 3, e.name);
        sqlite3_bind_int64(st, 4, 0);
        sqlite3_bind_int64(st, 5, e.start);
        sqlite3_bind_int64(st, 6, e.end);
        sqlite3_bind_int64(st, 7, e.depth);
        db.step();
    }
    db.exec("COMMIT");
    Timing t;
    t.seconds = secondsSince(t0);
    t.cpuSeconds = cpuSeconds() - cpu0;
    t.bytes = fileBytes(path);
    return t;
}

Timing best(int repeat, const std::function<Timing()>& run) {
    Timing b = run();
    for (int i = 1; i < repeat; ++i) {
        const Timing t = run();
        if (t.seconds < b.seconds)
            b = t;
    }
    return b;
}

/// The 1-minute load average, or -1 if unknown.
double loadAverage() {
    std::ifstream in("/proc/loadavg");
    double load = -1;
    in >> load;
    return load;
}

[[noreturn]] void usage(const std::string& problem) {
    std::cerr << "tilescope-bench-report: " << problem << "\n"
              << "usage: tilescope-bench-report [--rows N] [--ipus N] [--tiles-per-ipu N] "
                 "[--steps-per-run N] [--repeat N] [--kind execution|host|both] [--dir DIR]\n";
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h")
            usage("write-throughput benchmark of the report writers");
        if (i + 1 >= argc)
            usage("missing value after " + a);
        const std::string v = argv[++i];
        try {
            if (a == "--rows")
                o.rows = std::stoll(v);
            else if (a == "--ipus")
                o.ipus = static_cast<std::uint32_t>(std::stoul(v));
            else if (a == "--tiles-per-ipu")
                o.tilesPerIpu = static_cast<std::uint32_t>(std::stoul(v));
            else if (a == "--steps-per-run")
                o.stepsPerRun = std::stoll(v);
            else if (a == "--repeat")
                o.repeat = std::stoi(v);
            else if (a == "--kind" && (v == "execution" || v == "host" || v == "both"))
                o.kind = v;
            else if (a == "--dir")
                o.dir = v;
            else
                usage("unknown option " + a);
        } catch (const std::logic_error&) {
            usage("invalid value '" + v + "' for " + a);
        }
    }
    if (o.rows < 1 || o.ipus < 1 || o.tilesPerIpu < 1 || o.stepsPerRun < 1 || o.repeat < 1)
        usage("every figure must be positive");
    return o;
}

nlohmann::json figures(std::int64_t rows, const Timing& writer, const Timing& baseline) {
    const double w = static_cast<double>(rows) / writer.seconds;
    const double b = static_cast<double>(rows) / baseline.seconds;
    return {
        {"writer_rows_per_s", std::llround(w)},
        {"baseline_rows_per_s", std::llround(b)},
        {"writer_vs_baseline", std::round(w / b * 1000) / 1000},
        {"writer_s", writer.seconds},
        {"baseline_s", baseline.seconds},
        {"writer_cpu_s", writer.cpuSeconds},
        {"baseline_cpu_s", baseline.cpuSeconds},
        {"writer_rows_per_cpu_s", std::llround(static_cast<double>(rows) / writer.cpuSeconds)},
        {"baseline_rows_per_cpu_s", std::llround(static_cast<double>(rows) / baseline.cpuSeconds)},
        {"close_ms", writer.closeSeconds * 1000},
        {"writer_rows_per_s_including_close",
         std::llround(static_cast<double>(rows) / (writer.seconds + writer.closeSeconds))},
        {"writer_file_bytes", writer.bytes},
        {"baseline_file_bytes", baseline.bytes}};
}

} // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    const bool ownDir = o.dir.empty();
    const fs::path dir =
        ownDir ? fs::temp_directory_path() / ("tilescope-bench-" + std::to_string(::getpid()))
               : o.dir;
    try {
        fs::create_directories(dir);
        // Interleaved so that both sides see the same machine state.
        Timing baseExec, exec, baseHost, host;
        const bool doExec = o.kind != "host", doHost = o.kind != "execution";
        if (doExec) {
            baseExec = best(o.repeat, [&] { return baselineExecutionTrace(o, dir / "base.pop"); });
            exec = best(o.repeat, [&] { return writeExecutionTrace(o, dir / "profile.pop"); });
        }
        if (doHost) {
            baseHost = best(o.repeat, [&] { return baselineHostEvents(o, dir / "base.pvti"); });
            host = best(o.repeat, [&] { return writeHostEvents(o, dir / "host.pvti"); });
        }
        const double rows = static_cast<double>(o.rows) * (doExec + doHost);
        const double writer = rows / (exec.seconds + host.seconds);
        const double baseline = rows / (baseExec.seconds + baseHost.seconds);
        nlohmann::json out = {
            {"benchmark", "tilescope-bench-report"},
            {"rows_per_kind", o.rows},
            {"ipus", o.ipus},
            {"tiles_per_ipu", o.tilesPerIpu},
            {"steps_per_run", o.stepsPerRun},
            {"writer_rows_per_s", std::llround(writer)},
            {"baseline_rows_per_s", std::llround(baseline)},
            {"writer_vs_baseline", std::round(writer / baseline * 1000) / 1000},
            {"writer_rows_per_cpu_s", std::llround(rows / (exec.cpuSeconds + host.cpuSeconds))},
            {"baseline_rows_per_cpu_s",
             std::llround(rows / (baseExec.cpuSeconds + baseHost.cpuSeconds))},
            {"close_ms", (exec.closeSeconds + host.closeSeconds) * 1000},
            {"meets_target", writer >= 2e6 && writer >= 0.8 * baseline},
            {"load_average_1m", loadAverage()}, // wall-clock figures assume an idle machine
            {"baseline", "plain SQLite: same table DDL, one prepared single-row INSERT, one "
                         "transaction, WAL, synchronous=NORMAL; rows generated and per-tile "
                         "blobs encoded exactly as for the writer"},
        };
        if (doExec)
            out["execution_trace"] = figures(o.rows, exec, baseExec);
        if (doHost)
            out["host_events"] = figures(o.rows, host, baseHost);
        std::cout << out.dump(2) << std::endl;
    } catch (const std::exception& e) {
        std::cerr << "tilescope-bench-report: " << e.what() << "\n";
        if (ownDir)
            fs::remove_all(dir);
        return 1;
    }
    if (ownDir)
        fs::remove_all(dir);
    return 0;
}
