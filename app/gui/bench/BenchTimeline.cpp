// tilescope-bench-timeline: the system analyser's performance figures on a generated host trace
// of 10 M events over 64 threads, as JSON (run under Xvfb, since the canvas needs OpenGL):
//   open_first_paint_ms        open the trace until the timeline has painted its first window
//   worst_frame_prep_ms        worst time from a zoom or pan to its frame: the window query (the
//                              worker's own time) plus the canvas's frame preparation, over zoom
//                              levels from the whole trace down to microseconds
//   worst_draw_ms              the frame preparation alone (the UI thread's share)
//   zoomed_out_read_raw_events whether any fully zoomed-out window read raw events (must be false)
//   rss_mb                     resident memory with the trace open and the frames drawn
//   json_import_events_per_s   report::importChromeTrace of a generated Chrome JSON file of 1 M
//                              events on 8 threads, each thread's events in one block
//   json_import_interleaved_events_per_s  the same on 64 threads in time order over all threads

#include "BenchmarkProbes.hpp"
#include "shell/DisplayCheck.hpp"
#include "system/HostTraceSession.hpp"
#include "system/SystemAnalyserView.hpp"
#include "system/SystemAnalyserWindow.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

constexpr std::uint64_t kEvents = 10'000'000;
constexpr std::uint32_t kThreads = 64;
constexpr std::uint64_t kJsonEvents = 1'000'000;

std::filesystem::path ensureTrace(const std::filesystem::path& dir) {
    if (std::filesystem::exists(dir / "host.pvti"))
        return dir / "host.pvti";
    report::SyntheticSpec spec;
    spec.tilesPerIpu = 16;
    spec.steps = 100;
    spec.runs = 1;
    spec.hostEvents = kEvents;
    spec.hostThreads = kThreads;
    std::fprintf(stderr, "generating %s (10 M events, takes a few minutes)\n",
                 (dir / "host.pvti").string().c_str());
    return report::generateSyntheticReport(dir, spec).hostTrace;
}

/// A Chrome trace of kJsonEvents complete events (outer calls with one nested call each) on
/// `threads` threads. Sorted per thread (each thread's events in one block, as a per-thread
/// profiler dumps them), or interleaved: sorted by time over all threads, as most tools write.
std::filesystem::path ensureJson(const std::filesystem::path& dir, int threads, bool interleaved) {
    const auto path = dir / (interleaved ? "interleaved.json" : "trace.json");
    if (std::filesystem::exists(path))
        return path;
    std::filesystem::create_directories(dir);
    std::ofstream out(path);
    out << "{\"traceEvents\":[\n";
    bool first = true;
    const std::uint64_t perThread = kJsonEvents / 2 / std::uint64_t(threads);
    auto write = [&](int t, std::uint64_t i) {
        const std::uint64_t ts = 1000 + std::uint64_t(t) + 12 * i; // microseconds
        out << (first ? "" : ",\n") << "{\"ph\":\"X\",\"name\":\"outer" << i % 7
            << "\",\"pid\":1,\"tid\":" << t << ",\"ts\":" << ts << ",\"dur\":10.5},\n"
            << "{\"ph\":\"X\",\"name\":\"inner" << i % 5 << "\",\"pid\":1,\"tid\":" << t
            << ",\"ts\":" << ts + 1 << ",\"dur\":4.25}";
        first = false;
    };
    if (interleaved)
        for (std::uint64_t i = 0; i < perThread; ++i)
            for (int t = 0; t < threads; ++t)
                write(t, i);
    else
        for (int t = 0; t < threads; ++t)
            for (std::uint64_t i = 0; i < perThread; ++i)
                write(t, i);
    out << "\n]}\n";
    return path;
}

/// Events per second of importing `json` (the best of two runs: the first also warms the page
/// cache with the input).
double importRate(const std::filesystem::path& json, const std::filesystem::path& out,
                  std::uint64_t& events) {
    double best = 0;
    for (int run = 0; run < 2; ++run) {
        QElapsedTimer timer;
        timer.start();
        const report::ChromeTraceStats stats = report::importChromeTrace(json, out);
        best = std::max(best, double(stats.events) / (double(timer.nsecsElapsed()) / 1e9));
        events = stats.events;
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::printf("usage: tilescope-bench-timeline [WORK_DIR]\nOpens a generated host trace of "
                    "10 M events over 64 threads (WORK_DIR/host.pvti, generated when missing), "
                    "measures open to first paint, frame preparation over zoom levels, resident "
                    "memory and the Chrome JSON import rate, and prints one JSON object. Needs a "
                    "display: run it under 'xvfb-run -a'.\n");
        return 0;
    }
    if (!displayAvailable())
        return reportNoDisplay("tilescope-bench-timeline");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const std::filesystem::path work =
        args.size() > 1 ? std::filesystem::path(args[1].toStdString())
                        : std::filesystem::temp_directory_path() / "tilescope-bench-timeline";
    try {
        const auto trace = ensureTrace(work);
        const auto json = ensureJson(work / "json", 8, false);
        const auto interleavedJson = ensureJson(work / "json", kThreads, true);

        // The session's own share of opening (small tables, levels, overview), after a warm-up.
        HostTraceSession::open(trace.string());
        QElapsedTimer sessionTimer;
        sessionTimer.start();
        HostTraceSession::open(trace.string());
        const double sessionMs = double(sessionTimer.nsecsElapsed()) / 1e6;

        SystemAnalyserWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QElapsedTimer timer;
        timer.start();
        SystemAnalyserView& view = openTraceTimeline(window, trace);
        const double firstPaint = double(timer.nsecsElapsed()) / 1e6;

        const TimelineModel& model = view.timelineModel();
        const double span = double(model.endNs() - model.beginNs());
        bool zoomedOutRaw = false;
        const TimelineSweep sweep = sweepTimelineZoom(view, [&](double width) {
            if (width == span)
                zoomedOutRaw = zoomedOutRaw || model.window().readRawEvents;
        });
        const double rss = residentMemoryMb().first;

        const auto imported = work / "json" / "imported.pvti";
        std::uint64_t importedEvents = 0, interleavedEvents = 0;
        const double importRateSorted = importRate(json, imported, importedEvents);
        const double importRateInterleaved =
            importRate(interleavedJson, imported, interleavedEvents);

        std::printf("{\n  \"open_first_paint_ms\": %.1f,\n  \"worst_frame_prep_ms\": %.2f,\n"
                    "  \"session_open_ms\": %.1f,\n  \"worst_draw_ms\": %.2f,\n  "
                    "\"worst_window_query_ms\": %.2f,\n"
                    "  \"zoomed_out_read_raw_events\": %s,\n  \"rss_mb\": %.1f,\n"
                    "  \"json_import_events_per_s\": %.0f,\n  \"json_import_events\": %llu,\n"
                    "  \"json_import_interleaved_events_per_s\": %.0f,\n"
                    "  \"events\": %lld,\n  \"threads\": %zu\n}\n",
                    firstPaint, sweep.worstFramePrepMs, sessionMs, sweep.worstDrawMs,
                    sweep.worstQueryMs, zoomedOutRaw ? "true" : "false", rss, importRateSorted,
                    static_cast<unsigned long long>(importedEvents), importRateInterleaved,
                    static_cast<long long>(model.files()[0]->counts().events),
                    model.files()[0]->threads().size());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tilescope-bench-timeline: %s\n", e.what());
        return 1;
    }
}
