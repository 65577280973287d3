// tilescope-bench-heatmap: the system analyser's heatmap rows on a generated host trace with a
// heatmap of 1 M samples in 16 buckets over one second (and one thread of 10,000 events), as JSON
// (run under Xvfb, since the canvas needs OpenGL):
//   worst_frame_prep_ms   worst time from a zoom or pan to its frame: the window query (the
//                         worker's binning) plus the canvas's frame preparation, over zoom levels
//                         from the whole trace down to microseconds
//   worst_draw_ms         the frame preparation alone (the UI thread's share)
//   worst_window_query_ms the worker's share alone

#include "BenchmarkProbes.hpp"
#include "shell/DisplayCheck.hpp"
#include "system/SystemAnalyserView.hpp"
#include "system/SystemAnalyserWindow.hpp"
#include "system/TimelineModel.hpp"
#include "tilescope/report/HostTraceWriter.hpp"

#include <QApplication>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

constexpr std::int64_t kSamples = 1'000'000;
constexpr std::int64_t kStart = 1'700'000'000'000'000'000;
constexpr std::int64_t kSpanNs = 1'000'000'000;

std::filesystem::path ensureTrace(const std::filesystem::path& dir) {
    const auto path = dir / "heatmap.pvti";
    if (std::filesystem::exists(path))
        return path;
    std::filesystem::create_directories(dir);
    report::HostTraceWriter w(path);
    const auto p = w.addProcess(1, "bench", kStart);
    const auto t = w.addThread(p, 1, "main");
    const auto ch = w.addChannel("bench");
    const auto step = w.intern("step");
    for (std::int64_t i = 0; i < 10'000; ++i)
        w.addEvent(t, ch, step, kStart + i * 100'000, kStart + i * 100'000 + 60'000, 0);
    std::vector<std::string> edges;
    for (int e = 0; e < 15; ++e)
        edges.push_back(std::to_string(1 << e));
    const auto h = w.addHeatmap(p, "latency", "us", false, edges);
    std::uint64_t state = 1;
    for (std::int64_t i = 0; i < kSamples; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const double u = double(state >> 11) / double(std::uint64_t{1} << 53);
        const double centre = 7 + 4 * std::sin(double(i) / double(kSamples) * 12.0);
        const double v = std::exp2(centre + 3 * (u - 0.5));
        const int bucket = std::clamp(int(std::floor(std::log2(v))) + 1, 0, 15);
        w.addHeatmapSample(h, kStart + i * (kSpanNs / kSamples), v, bucket);
    }
    w.close();
    return path;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::printf("usage: tilescope-bench-heatmap [WORK_DIR]\nOpens a generated host trace "
                    "with a heatmap of 1 M samples (WORK_DIR/heatmap.pvti, generated when "
                    "missing), zooms the timeline through every level and prints the worst frame "
                    "as one JSON object. Needs a display: run it under 'xvfb-run -a'.\n");
        return 0;
    }
    if (!displayAvailable())
        return reportNoDisplay("tilescope-bench-heatmap");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const std::filesystem::path work =
        args.size() > 1 ? std::filesystem::path(args[1].toStdString())
                        : std::filesystem::temp_directory_path() / "tilescope-bench-heatmap";
    try {
        const auto trace = ensureTrace(work);
        SystemAnalyserWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        SystemAnalyserView& view = openTraceTimeline(window, trace);
        const TimelineModel& model = view.timelineModel();
        std::size_t heatmapRows = 0;
        const TimelineSweep sweep = sweepTimelineZoom(view, [&](double) {
            heatmapRows = std::max(heatmapRows, model.window().heatmaps.size());
        });
        if (heatmapRows == 0)
            throw std::runtime_error("no heatmap row was fetched");
        std::printf("{\n  \"worst_frame_prep_ms\": %.2f,\n  \"worst_draw_ms\": %.2f,\n"
                    "  \"worst_window_query_ms\": %.2f,\n  \"heatmap_samples\": %lld\n}\n",
                    sweep.worstFramePrepMs, sweep.worstDrawMs, sweep.worstQueryMs,
                    static_cast<long long>(kSamples));
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tilescope-bench-heatmap: %s\n", e.what());
        return 1;
    }
}
