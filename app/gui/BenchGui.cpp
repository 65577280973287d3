// tilescope-bench-gui: the app's performance figures on generated reports, as JSON (run under
// Xvfb, since the canvases need OpenGL):
//   open_first_paint_ms_big / _small  open to first painted Summary, 16x1472 tiles x 200,000 steps
//                                     and 1x1472 tiles x 200,000 steps
//   worst_frame_prep_ms               worst canvas frame preparation across zoom levels, breakdowns
//                                     and the three canvases (for Liveness and Execution Trace: the
//                                     window query plus the frame, since zooming waits for both;
//                                     Execution Trace in flat, flame and BSP modes, Liveness also
//                                     per IPU)
//   rss_mb, rss_peak_mb               resident memory with every view of the big report open

#include "BenchmarkProbes.hpp"
#include "DisplayCheck.hpp"
#include "ExecutionCanvas.hpp"
#include "ExecutionModel.hpp"
#include "ExecutionView.hpp"
#include "LivenessCanvas.hpp"
#include "LivenessModel.hpp"
#include "LivenessView.hpp"
#include "MainWindow.hpp"
#include "MemoryView.hpp"
#include "ReportPane.hpp"
#include "ReportSession.hpp"
#include "TileMemoryCanvas.hpp"
#include "TileMemoryModel.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

/// Milliseconds from asking the window to open `report` until the Summary has been painted.
double openToFirstPaint(MainWindow& window, const std::filesystem::path& report) {
    window.closeReport();
    QSignalSpy opened(&window, &MainWindow::reportOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);
    QElapsedTimer timer;
    timer.start();
    window.openReport(QString::fromStdString(report.string()));
    waitUntil([&] { return !opened.isEmpty() || !failed.isEmpty(); }, "the report to open");
    if (!failed.isEmpty())
        throw std::runtime_error(failed.front().front().toString().toStdString());
    window.pane()->showView(QStringLiteral("summary"));
    window.repaint(); // synchronous for widgets: returns once the Summary is painted
    return double(timer.nsecsElapsed()) / 1e6;
}

double worstMemoryFrame(MainWindow& window) {
    auto* view = static_cast<MemoryView*>(window.pane()->showView(QStringLiteral("memory")));
    waitUntil([&] { return view->isReady(); }, "the Memory view");
    TileMemoryCanvas& canvas = view->canvas();
    const double tiles = view->model().tileCount();
    double worst = 0;
    for (int b = 0; b < 4; ++b) {
        view->model().setBreakdown(TileMemoryModel::Breakdown(b));
        for (double span = tiles; span >= 8; span /= 4) {
            for (double at : {0.0, 0.5, 1.0}) {
                const double begin = (tiles - span) * at;
                canvas.showWindow(begin, begin + span);
                worst = std::max(worst, renderFrame(canvas));
            }
        }
    }
    return worst;
}

double worstLivenessFrame(MainWindow& window) {
    auto* view = static_cast<LivenessView*>(window.pane()->showView(QStringLiteral("liveness")));
    waitUntil([&] { return view->isReady(); }, "the Liveness view");
    LivenessCanvas& canvas = view->canvas();
    LivenessModel& model = view->model();
    const double steps = double(model.stepCount());
    double worst = 0;
    for (double span = steps; span >= 16; span /= 4) {
        for (double at : {0.0, 0.5, 1.0}) {
            const double begin = (steps - span) * at;
            canvas.showWindow(begin, begin + span);
            // The frame asks for the window; time the query the way the worker runs it.
            renderFrame(canvas);
            const auto& w = model.window();
            QElapsedTimer query;
            query.start();
            LivenessModel::fetchWindow(view->session(), std::int64_t(begin),
                                       std::int64_t(std::ceil(begin + span)),
                                       std::max(1, w.widthPx));
            const double queryMs = double(query.nsecsElapsed()) / 1e6;
            waitUntil(
                [&] {
                    return model.window().firstStep == std::int64_t(begin) &&
                           model.window().endStep == std::int64_t(std::ceil(begin + span));
                },
                "a liveness window");
            worst = std::max(worst, queryMs + renderFrame(canvas));
        }
    }
    return worst;
}

/// Liveness per IPU: the series is built once (timed apart), then every frame reads its
/// in-memory pyramid.
double worstLivenessGroupFrame(MainWindow& window, double* buildMs) {
    auto* view = static_cast<LivenessView*>(window.pane()->showView(QStringLiteral("liveness")));
    waitUntil([&] { return view->isReady(); }, "the Liveness view");
    LivenessCanvas& canvas = view->canvas();
    LivenessModel& model = view->model();
    QElapsedTimer build;
    build.start();
    model.setGrouping(LivenessModel::PerIpu);
    QElapsedTimer waited;
    waited.start();
    waitUntil(
        [&] {
            if (waited.elapsed() > 60000)
                throw std::runtime_error("per-IPU liveness series not built after 60 s");
            return model.groupSeries() != nullptr || !model.error().isEmpty();
        },
        "the per-IPU liveness series");
    if (!model.groupSeries())
        throw std::runtime_error("per-IPU liveness: " + model.error().toStdString());
    *buildMs = double(build.nsecsElapsed()) / 1e6;
    const double steps = double(model.stepCount());
    double worst = 0;
    for (double span = steps; span >= 16; span /= 4)
        for (double at : {0.0, 0.5, 1.0}) {
            const double begin = (steps - span) * at;
            canvas.showWindow(begin, begin + span);
            worst = std::max(worst, renderFrame(canvas));
        }
    model.setGrouping(LivenessModel::AllTiles);
    return worst;
}

double worstExecutionFrame(MainWindow& window, ExecutionModel::Mode mode = ExecutionModel::Flat) {
    auto* view = static_cast<ExecutionView*>(window.pane()->showView(QStringLiteral("execution")));
    waitUntil([&] { return view->isReady(); }, "the Execution Trace view");
    ExecutionCanvas& canvas = view->canvas();
    ExecutionModel& model = view->model();
    model.setMode(mode);
    const ExecutionModel::Layers layers{mode, model.firstTile(), model.tileCount(),
                                        &model.programs()};
    const report::RunRecord run = *model.run();
    const double cycles = double(run.totalCycles);
    double worst = 0;
    for (double span = cycles; span >= 256; span /= 4) {
        for (double at : {0.0, 0.5, 1.0}) {
            const double begin = (cycles - span) * at;
            canvas.showWindow(begin, begin + span);
            renderFrame(canvas); // asks for the window
            const auto first = std::uint64_t(std::floor(canvas.viewport().begin()));
            const auto end = std::uint64_t(std::ceil(canvas.viewport().end()));
            QElapsedTimer query;
            query.start();
            ExecutionModel::fetchWindow(view->session(), run, first, end,
                                        std::max(1, model.window().widthPx), layers);
            const double queryMs = double(query.nsecsElapsed()) / 1e6;
            waitUntil(
                [&] {
                    return model.window().firstCycle == first && model.window().endCycle == end &&
                           model.window().mode == mode;
                },
                "an execution window");
            worst = std::max(worst, queryMs + renderFrame(canvas));
        }
    }
    return worst;
}

std::filesystem::path ensureReport(const std::filesystem::path& dir, std::uint32_t ipus) {
    const auto profile = dir / "profile.pop";
    if (std::filesystem::exists(profile))
        return profile;
    report::SyntheticSpec spec;
    spec.ipus = ipus;
    spec.tilesPerIpu = 1472;
    spec.steps = 200000;
    return report::generateSyntheticReport(dir, spec).profile;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::printf("usage: tilescope-bench-gui [WORK_DIR]\nOpens a generated 16-IPU and 1-IPU "
                    "report, measures open to first paint, canvas frame preparation and resident "
                    "memory, and prints one JSON object. Needs a display: run it under "
                    "'xvfb-run -a'.\n");
        return 0;
    }
    if (!tilescope::gui::displayAvailable())
        return tilescope::gui::reportNoDisplay("tilescope-bench-gui");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("TileScopeBench"));
    const QStringList args = app.arguments();
    const std::filesystem::path work =
        args.size() > 1 ? std::filesystem::path(args[1].toStdString())
                        : std::filesystem::temp_directory_path() / "tilescope-bench-gui";
    try {
        const auto big = ensureReport(work / "big", 16);
        const auto small = ensureReport(work / "small", 1);
        MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        // Warm the page cache and Qt's one-time setup so both figures measure the same thing.
        openToFirstPaint(window, small);
        double firstSmall = 1e300, firstBig = 1e300;
        for (int i = 0; i < 3; ++i) {
            firstSmall = std::min(firstSmall, openToFirstPaint(window, small));
            firstBig = std::min(firstBig, openToFirstPaint(window, big));
        }
        double groupBuildMs = 0;
        double livenessGroupFrame = -1; // -1: the per-IPU series did not arrive
        try {
            livenessGroupFrame = worstLivenessGroupFrame(window, &groupBuildMs);
        } catch (const std::runtime_error& e) {
            std::fprintf(stderr, "tilescope-bench-gui: %s\n", e.what());
        }
        const double memoryFrame = worstMemoryFrame(window);
        const double livenessFrame = worstLivenessFrame(window);
        const double flatFrame = worstExecutionFrame(window);
        const double flameFrame = worstExecutionFrame(window, ExecutionModel::Flame);
        const double bspFrame = worstExecutionFrame(window, ExecutionModel::Bsp);
        const double executionFrame = std::max({flatFrame, flameFrame, bspFrame});
        window.pane()->showView(QStringLiteral("programs"));
        window.pane()->showView(QStringLiteral("insights"));
        QCoreApplication::processEvents();
        const auto [rss, peak] = residentMemoryMb();
        std::printf("{\n  \"open_first_paint_ms_big\": %.1f,\n"
                    "  \"open_first_paint_ms_small\": %.1f,\n"
                    "  \"worst_frame_prep_ms\": %.2f,\n"
                    "  \"worst_memory_frame_prep_ms\": %.2f,\n"
                    "  \"worst_liveness_frame_prep_ms\": %.2f,\n"
                    "  \"worst_execution_frame_prep_ms\": %.2f,\n"
                    "  \"worst_execution_flat_frame_prep_ms\": %.2f,\n"
                    "  \"worst_execution_flame_frame_prep_ms\": %.2f,\n"
                    "  \"worst_execution_bsp_frame_prep_ms\": %.2f,\n"
                    "  \"worst_liveness_per_ipu_frame_prep_ms\": %.2f,\n"
                    "  \"liveness_per_ipu_build_ms\": %.1f,\n"
                    "  \"rss_mb\": %.1f,\n  \"rss_peak_mb\": %.1f,\n"
                    "  \"tiles\": %u,\n  \"steps\": 200000\n}\n",
                    firstBig, firstSmall,
                    std::max({memoryFrame, livenessFrame, executionFrame, livenessGroupFrame}),
                    memoryFrame, livenessFrame, executionFrame, flatFrame, flameFrame, bspFrame,
                    livenessGroupFrame, groupBuildMs, rss, peak, 16u * 1472u);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tilescope-bench-gui: %s\n", e.what());
        return 1;
    }
}
