// tilescope-bench-gui: the app's performance figures on generated reports, as JSON (run under
// Xvfb, since the canvases need OpenGL):
//   open_first_paint_ms_big / _small  open to first painted Summary, 16x1472 tiles x 200,000 steps
//                                     and 1x1472 tiles x 200,000 steps
//   worst_frame_prep_ms               worst canvas frame preparation across zoom levels,
//   breakdowns,
//                                     software and physical tile order (Memory)
//                                     and the three canvases (for Liveness and Execution Trace: the
//                                     window query plus the frame, since zooming waits for both;
//                                     Execution Trace in flat, flame, BSP and per-IPU modes,
//                                     Liveness also per IPU)
//   rss_mb, rss_peak_mb               resident memory with every view of the big report open
//   operations_graph_*                the Operations Graph of 10,368 generated operations (128
//                                     layers of 80, chained and in 8 branches): building it with
//                                     its layers closed and open, first paint, and the worst
//                                     paint of a zoom and pan sweep closed and open, against a
//                                     demo-sized graph in the same run (operations_graph_paint_
//                                     ratio, target at most 2). --operations-graph prints these
//                                     alone (needs a display, no report).
// With --vertices REPORT it only times the Memory view's Vertices tab (TileVerticesModel) for a
// few tile selections of REPORT and prints those figures (no display needed). With --step-filter
// REPORT it times the Execution Trace's step filter on REPORT's first run (resolving it, and the
// matching share of a 1,600-column window) and a per-IPU window of 2,000 steps. With --ipu-rows
// [WORK_DIR] it times only the Execution Trace in per-IPU mode on the 16-IPU report at every zoom
// level (window query plus frame), split into zoomed-out windows (run_ipu_lod columns) and
// zoomed-in ones (steps); needs a display like the full run.

#include "BenchmarkProbes.hpp"
#include "OperationsGraphBench.hpp"
#include "core/ReportSession.hpp"
#include "execution/ExecutionCanvas.hpp"
#include "execution/ExecutionModel.hpp"
#include "execution/ExecutionView.hpp"
#include "liveness/LivenessCanvas.hpp"
#include "liveness/LivenessModel.hpp"
#include "liveness/LivenessView.hpp"
#include "memory/MemoryView.hpp"
#include "memory/TileExchangesModel.hpp"
#include "memory/TileMemoryCanvas.hpp"
#include "memory/TileMemoryModel.hpp"
#include "memory/TileVerticesModel.hpp"
#include "shell/DisplayCheck.hpp"
#include "shell/MainWindow.hpp"
#include "shell/ReportPane.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QWheelEvent>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

// The Operations Graph's target: its worst paint at 10,368 operations at most twice that of the
// demo's 122 in the same run (level of detail keeps a frame's cost to what is on screen), the
// same "at most twice the baseline" as the compare window's first paint.
constexpr double kGraphPaintRatioTarget = 2.0;

/// The Operations Graph's figures as JSON members (each line ending ",\n"): the largest
/// generated model (128 layers of 80 operations, once chained one after the other as last
/// session measured it and once in 8 branches side by side), against a demo-sized one (2 layers
/// of 60, the demo report's 122 operations) painted through the same sweep in the same run.
std::string operationsGraphJson() {
    const auto chain = benchOperationsGraph(generatedOperations(128, 80, 1), 3);
    const auto wide = benchOperationsGraph(generatedOperations(128, 80, 8), 3);
    const auto demo = benchOperationsGraph(generatedOperations(2, 60, 8), 3);
    const double worst = std::max(chain.worstPaintMs(), wide.worstPaintMs());
    const double first = std::max(chain.firstPaintMs, wide.firstPaintMs);
    char text[2048];
    std::snprintf(text, sizeof text,
                  "  \"operations_graph_operations\": %zu,\n"
                  "  \"operations_graph_open_nodes\": %zu,\n"
                  "  \"operations_graph_wide_open_edges\": %zu,\n"
                  "  \"operations_graph_build_closed_ms\": %.1f,\n"
                  "  \"operations_graph_build_open_ms\": %.1f,\n"
                  "  \"operations_graph_first_paint_ms\": %.1f,\n"
                  "  \"operations_graph_closed_worst_paint_ms\": %.2f,\n"
                  "  \"operations_graph_open_worst_paint_ms\": %.2f,\n"
                  "  \"operations_graph_wide_closed_worst_paint_ms\": %.2f,\n"
                  "  \"operations_graph_wide_open_worst_paint_ms\": %.2f,\n"
                  "  \"worst_operations_graph_paint_ms\": %.2f,\n"
                  "  \"operations_graph_demo_operations\": %zu,\n"
                  "  \"operations_graph_demo_first_paint_ms\": %.1f,\n"
                  "  \"operations_graph_demo_worst_paint_ms\": %.2f,\n"
                  "  \"operations_graph_paint_ratio\": %.2f,\n"
                  "  \"operations_graph_paint_ratio_target\": %.1f,\n"
                  "  \"operations_graph_frames_painted\": %d,\n",
                  chain.operations, std::max(chain.openNodes, wide.openNodes), wide.edges,
                  std::max(chain.buildClosedMs, wide.buildClosedMs),
                  std::max(chain.buildOpenMs, wide.buildOpenMs), first, chain.closedWorstPaintMs,
                  chain.openWorstPaintMs, wide.closedWorstPaintMs, wide.openWorstPaintMs, worst,
                  demo.operations, demo.firstPaintMs, demo.worstPaintMs(),
                  worst / std::max(1e-3, demo.worstPaintMs()), kGraphPaintRatioTarget,
                  chain.framesPainted + wide.framesPainted + demo.framesPainted);
    return text;
}

double worstMemoryFrame(MainWindow& window) {
    auto* view = static_cast<MemoryView*>(window.pane()->showView(QStringLiteral("memory")));
    waitUntil([&] { return view->isReady(); }, "the Memory view");
    TileMemoryCanvas& canvas = view->canvas();
    const double tiles = view->model().tileCount();
    double worst = 0;
    // Both tile orders: physical order reads each visible tile through the position map.
    for (auto order :
         {TileMemoryModel::TileOrder::Software, TileMemoryModel::TileOrder::Physical}) {
        view->model().setTileOrder(order);
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
    }
    if (view->model().tileOrder() != TileMemoryModel::TileOrder::Physical)
        throw std::runtime_error("the generated report has no tile placement");
    view->model().setTileOrder(TileMemoryModel::TileOrder::Software);
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

/// Worst per-IPU frames by how their rows were read.
struct IpuFrames {
    double pyramid = 0; // zoomed out: columns from run_ipu_lod
    double steps = 0;   // zoomed in: step by step
    int pyramidWindows = 0, stepWindows = 0;
};

double worstExecutionFrame(MainWindow& window, ExecutionModel::Mode mode = ExecutionModel::Flat,
                           IpuFrames* ipuFrames = nullptr) {
    auto* view = static_cast<ExecutionView*>(window.pane()->showView(QStringLiteral("execution")));
    waitUntil([&] { return view->isReady(); }, "the Execution Trace view");
    ExecutionCanvas& canvas = view->canvas();
    ExecutionModel& model = view->model();
    model.setMode(mode);
    const ExecutionModel::Layers layers{mode, model.firstTile(), model.tileCount(),
                                        &model.programs()};
    const report::RunRecord run = *model.run();
    const double cycles = double(run.totalCycles);
    // The chart takes the run's extent once its totals arrive; windows asked before would be
    // clamped to the initial one-cycle extent.
    waitUntil([&] { return canvas.viewport().extent() >= cycles; }, "the run's extent");
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
            const double frameMs = queryMs + renderFrame(canvas);
            worst = std::max(worst, frameMs);
            if (ipuFrames && model.window().ipu.lodLevel >= 0) {
                ipuFrames->pyramid = std::max(ipuFrames->pyramid, frameMs);
                ++ipuFrames->pyramidWindows;
            } else if (ipuFrames) {
                ipuFrames->steps = std::max(ipuFrames->steps, frameMs);
                ++ipuFrames->stepWindows;
            }
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

/// Milliseconds until the Vertices tab's rows for `tiles` have arrived, best of three.
double verticesMs(const std::shared_ptr<ReportSession>& session, const TileSelection& tiles,
                  int* rows) {
    double best = 1e300;
    for (int i = 0; i < 3; ++i) {
        TileVerticesModel model(session);
        QSignalSpy loaded(&model, &TileVerticesModel::loaded);
        QElapsedTimer timer;
        timer.start();
        model.setSelection(tiles);
        waitUntil([&] { return !loaded.isEmpty(); }, "the vertices of a selection");
        best = std::min(best, double(timer.nsecsElapsed()) / 1e6);
        *rows = model.rowCount();
    }
    return best;
}

double exchangesMs(const std::shared_ptr<ReportSession>& session, const TileSelection& tiles,
                   int* rows) {
    TileExchangesModel model(session, MemoryView::kTableRows);
    QSignalSpy loaded(&model, &TileExchangesModel::loaded);
    QElapsedTimer timer;
    timer.start();
    model.setSelection(tiles);
    waitUntil([&] { return !loaded.isEmpty(); }, "the exchanges of a selection");
    *rows = model.rowCount();
    return double(timer.nsecsElapsed()) / 1e6;
}

int benchVertices(const std::string& report) {
    const auto session = ReportSession::open(report, {}, {});
    const std::uint32_t tiles = session->target().numTiles();
    const std::uint32_t perIpu = session->target().tilesPerIpu;
    int allRows = 0, ipuRows = 0, fewRows = 0;
    const double all = verticesMs(session, {}, &allRows);
    const double ipu = verticesMs(session, TileSelection::range(perIpu, 2 * perIpu - 1), &ipuRows);
    TileSelection few = TileSelection::range(0, 15);
    few.add({tiles / 2, tiles / 2 + 63});
    const double some = verticesMs(session, few, &fewRows);
    // The Exchanges tab for the same selections (and one tile).
    int exAll = 0, exIpu = 0, exFew = 0, exOne = 0;
    const double exchangesAll = exchangesMs(session, {}, &exAll);
    const double exchangesIpu =
        exchangesMs(session, TileSelection::range(perIpu, 2 * perIpu - 1), &exIpu);
    const double exchangesFew = exchangesMs(session, few, &exFew);
    const double exchangesOne = exchangesMs(session, TileSelection::single(tiles / 2), &exOne);
    std::printf("{\n  \"vertices_all_tiles_ms\": %.1f,\n  \"vertices_one_ipu_ms\": %.1f,\n"
                "  \"vertices_80_tiles_ms\": %.1f,\n  \"rows_all\": %d,\n  \"rows_one_ipu\": %d,\n"
                "  \"rows_80_tiles\": %d,\n  \"exchanges_all_tiles_ms\": %.1f,\n"
                "  \"exchanges_one_ipu_ms\": %.1f,\n  \"exchanges_80_tiles_ms\": %.1f,\n"
                "  \"exchanges_one_tile_ms\": %.1f,\n  \"exchange_rows\": [%d, %d, %d, %d],\n"
                "  \"tiles\": %u\n}\n",
                all, ipu, some, allRows, ipuRows, fewRows, exchangesAll, exchangesIpu, exchangesFew,
                exchangesOne, exAll, exIpu, exFew, exOne, tiles);
    return 0;
}

double msSince(const QElapsedTimer& timer) {
    return double(timer.nsecsElapsed()) / 1e6;
}

int benchStepFilter(const std::string& report) {
    const auto session = ReportSession::open(report, {}, {});
    report::ProfileReader reader(report);
    const report::RunRecord run = reader.runs().at(0);
    struct Case {
        const char* name;
        StepFilter filter;
    };
    StepFilter exchange;
    exchange.phases = {false, true, false, false};
    StepFilter text;
    text.text = "cs1";
    std::printf("{\n");
    for (const Case& c : {Case{"exchange_phase", exchange}, Case{"text_cs1", text}}) {
        double build = 1e300, window = 1e300;
        std::uint64_t matched = 0;
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer timer;
            timer.start();
            const StepFilterIndex index = StepFilterIndex::build(reader, run, c.filter);
            build = std::min(build, msSince(timer));
            matched = index.figures().totalCycles();
            ExecutionModel::Layers layers;
            layers.filter = &index;
            timer.restart();
            ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 1600, layers);
            window = std::min(window, msSince(timer));
        }
        std::printf("  \"filter_%s_build_ms\": %.1f,\n  \"filter_%s_window_ms\": %.2f,\n"
                    "  \"filter_%s_matched_cycles\": %llu,\n",
                    c.name, build, c.name, window, c.name, (unsigned long long)matched);
    }
    double plain = 1e300, ipu = 1e300;
    const auto spans = reader.runStepSpans(run, 0, run.totalCycles, ExecutionModel::kMaxIpuSteps);
    const std::uint64_t end = spans.back().startCycle;
    const ExecutionModel::Layers rows{ExecutionModel::PerIpu, 0, 0, nullptr};
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer timer;
        timer.start();
        ExecutionModel::fetchWindow(*session, run, 0, run.totalCycles, 1600);
        plain = std::min(plain, msSince(timer));
        timer.restart();
        ExecutionModel::fetchWindow(*session, run, 0, end, 1600, rows);
        ipu = std::min(ipu, msSince(timer));
    }
    std::printf("  \"unfiltered_window_ms\": %.2f,\n  \"per_ipu_window_ms\": %.1f,\n"
                "  \"run_steps\": %llu\n}\n",
                plain, ipu, (unsigned long long)run.numSteps);
    return 0;
}

/// The per-IPU rows of the 16-IPU report at every zoom level, best and worst of three passes.
int benchIpuRows(const std::filesystem::path& work) {
    const auto big = ensureReport(work / "big", 16);
    MainWindow window;
    window.setInteractive(false);
    window.resize(1600, 1000);
    window.show();
    openReportToFirstPaint(window, big);
    worstExecutionFrame(window); // warms up the run's pages as a user's first look would
    std::vector<IpuFrames> passes(3);
    for (IpuFrames& pass : passes)
        worstExecutionFrame(window, ExecutionModel::PerIpu, &pass);
    auto best = passes.front(), worst = passes.front();
    for (const IpuFrames& p : passes) {
        best.pyramid = std::min(best.pyramid, p.pyramid);
        best.steps = std::min(best.steps, p.steps);
        worst.pyramid = std::max(worst.pyramid, p.pyramid);
        worst.steps = std::max(worst.steps, p.steps);
    }
    std::printf("{\n  \"ipu_rows_zoomed_out_worst_frame_ms\": %.2f,\n"
                "  \"ipu_rows_zoomed_out_worst_frame_ms_worst_pass\": %.2f,\n"
                "  \"ipu_rows_zoomed_in_worst_frame_ms\": %.2f,\n"
                "  \"ipu_rows_zoomed_in_worst_frame_ms_worst_pass\": %.2f,\n"
                "  \"zoomed_out_windows\": %d,\n  \"zoomed_in_windows\": %d,\n"
                "  \"report_bytes\": %llu,\n  \"tiles\": %u,\n  \"steps\": 200000\n}\n",
                best.pyramid, worst.pyramid, best.steps, worst.steps, best.pyramidWindows,
                best.stepWindows, (unsigned long long)std::filesystem::file_size(big), 16u * 1472u);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc > 2 && std::string(argv[1]) == "--step-filter") {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        try {
            return benchStepFilter(argv[2]);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "tilescope-bench-gui: %s\n", e.what());
            return 1;
        }
    }
    if (argc > 2 && std::string(argv[1]) == "--vertices") {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        try {
            return benchVertices(argv[2]);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "tilescope-bench-gui: %s\n", e.what());
            return 1;
        }
    }
    if (argc > 1 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
        std::printf("usage: tilescope-bench-gui [WORK_DIR]\n       tilescope-bench-gui --vertices "
                    "REPORT\n       tilescope-bench-gui --step-filter REPORT\n"
                    "       tilescope-bench-gui --ipu-rows [WORK_DIR]\n"
                    "       tilescope-bench-gui --operations-graph\nOpens a generated "
                    "16-IPU and 1-IPU "
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
    if (args.size() > 1 && args[1] == QStringLiteral("--operations-graph")) {
        std::string members = operationsGraphJson();
        members.resize(members.size() - 2); // the last member's ",\n"
        std::printf("{\n%s\n}\n", members.c_str());
        return 0;
    }
    if (args.size() > 1 && args[1] == QStringLiteral("--ipu-rows")) {
        try {
            return benchIpuRows(args.size() > 2 ? std::filesystem::path(args[2].toStdString())
                                                : std::filesystem::temp_directory_path() /
                                                      "tilescope-bench-gui");
        } catch (const std::exception& e) {
            std::fprintf(stderr, "tilescope-bench-gui: %s\n", e.what());
            return 1;
        }
    }
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
        openReportToFirstPaint(window, small);
        double firstSmall = 1e300, firstBig = 1e300;
        for (int i = 0; i < 3; ++i) {
            firstSmall = std::min(firstSmall, openReportToFirstPaint(window, small));
            firstBig = std::min(firstBig, openReportToFirstPaint(window, big));
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
        const double ipuFrame = worstExecutionFrame(window, ExecutionModel::PerIpu);
        const double executionFrame = std::max({flatFrame, flameFrame, bspFrame, ipuFrame});
        window.pane()->showView(QStringLiteral("programs"));
        window.pane()->showView(QStringLiteral("insights"));
        window.pane()->showView(QStringLiteral("operations-graph"));
        QCoreApplication::processEvents();
        const auto [rss, peak] = residentMemoryMb();
        const std::string graph = operationsGraphJson();
        std::printf("{\n  \"open_first_paint_ms_big\": %.1f,\n"
                    "  \"open_first_paint_ms_small\": %.1f,\n"
                    "  \"worst_frame_prep_ms\": %.2f,\n"
                    "  \"worst_memory_frame_prep_ms\": %.2f,\n"
                    "  \"worst_liveness_frame_prep_ms\": %.2f,\n"
                    "  \"worst_execution_frame_prep_ms\": %.2f,\n"
                    "  \"worst_execution_flat_frame_prep_ms\": %.2f,\n"
                    "  \"worst_execution_flame_frame_prep_ms\": %.2f,\n"
                    "  \"worst_execution_bsp_frame_prep_ms\": %.2f,\n"
                    "  \"worst_execution_per_ipu_frame_prep_ms\": %.2f,\n"
                    "  \"worst_liveness_per_ipu_frame_prep_ms\": %.2f,\n"
                    "  \"liveness_per_ipu_build_ms\": %.1f,\n"
                    "  \"rss_mb\": %.1f,\n  \"rss_peak_mb\": %.1f,\n"
                    "%s"
                    "  \"tiles\": %u,\n  \"steps\": 200000\n}\n",
                    firstBig, firstSmall,
                    std::max({memoryFrame, livenessFrame, executionFrame, livenessGroupFrame}),
                    memoryFrame, livenessFrame, executionFrame, flatFrame, flameFrame, bspFrame,
                    ipuFrame, livenessGroupFrame, groupBuildMs, rss, peak, graph.c_str(),
                    16u * 1472u);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tilescope-bench-gui: %s\n", e.what());
        return 1;
    }
}
