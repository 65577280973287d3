// tilescope-bench-compare-gui: compare mode's figures on two generated reports, as JSON (run
// under Xvfb, since the canvases need OpenGL):
//   open_first_paint_ms       one report opened in a MainWindow until its Summary is painted
//   compare_first_paint_ms    both reports opened in a CompareWindow until the compare Summary is
//                             painted (target: at most twice the single-report figure)
//   compare_to_single_ratio   the two above divided
//   memory_compare_ready_ms   Memory compare view shown until its per-tile series are loaded
//   worst_memory_compare_frame_prep_ms  worst frame of the memory overlay and difference
//                             canvases across zoom levels
//   execution_compare_ready_ms  Execution compare view shown until the runs are aligned
// Options: --ipus N (16), --steps N (200000), --dir DIR (where the reports are generated/kept).

#include "BenchmarkProbes.hpp"
#include "compare/ComparePane.hpp"
#include "compare/CompareSeriesCanvas.hpp"
#include "compare/CompareView.hpp"
#include "compare/CompareWindow.hpp"
#include "compare/MemoryCompareView.hpp"
#include "shell/DisplayCheck.hpp"
#include "shell/MainWindow.hpp"
#include "shell/ReportPane.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

using namespace tilescope;
using namespace tilescope::gui;

namespace {

struct Options {
    std::uint32_t ipus = 16;
    std::uint64_t steps = 200000;
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / "tilescope-bench-compare-gui";
};

std::filesystem::path ensureReport(const Options& o, const std::string& name, std::uint64_t seed) {
    const auto dir = o.dir / (name + "-" + std::to_string(o.ipus) + "x" + std::to_string(o.steps));
    const auto profile = dir / "profile.pop";
    if (std::filesystem::exists(profile))
        return profile;
    report::SyntheticSpec spec;
    spec.ipus = o.ipus;
    spec.tilesPerIpu = 1472;
    spec.steps = o.steps;
    spec.seed = seed;
    return report::generateSyntheticReport(dir, spec).profile;
}

double compareFirstPaint(const std::filesystem::path& a, const std::filesystem::path& b) {
    CompareWindow window;
    window.setInteractive(false);
    window.resize(1600, 1000);
    window.show();
    QSignalSpy opened(&window, &CompareWindow::comparisonOpened);
    QSignalSpy failed(&window, &CompareWindow::openFailed);
    QElapsedTimer timer;
    timer.start();
    window.openComparison(QString::fromStdString(a.string()), QString::fromStdString(b.string()));
    waitForOpen(opened, failed, "the comparison to open");
    window.pane()->showView(QStringLiteral("summary"));
    window.repaint();
    return double(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        try {
            if (arg == "--ipus" && hasValue)
                o.ipus = std::uint32_t(std::stoul(argv[++i]));
            else if (arg == "--steps" && hasValue)
                o.steps = std::stoull(argv[++i]);
            else if (arg == "--dir" && hasValue)
                o.dir = argv[++i];
            else if (arg == "--help" || arg == "-h") {
                std::printf(
                    "usage: tilescope-bench-compare-gui [--ipus N] [--steps N] [--dir DIR]\n"
                    "Generates two reports (kept in DIR), measures opening one report to "
                    "its painted Summary and the two compared to the painted compare "
                    "Summary, and prints one JSON object. Run it under 'xvfb-run -a'.\n");
                return 0;
            } else {
                std::fprintf(stderr,
                             "tilescope-bench-compare-gui: unknown or incomplete argument '%s'\n",
                             arg.c_str());
                return 2;
            }
        } catch (const std::exception&) {
            std::fprintf(stderr, "tilescope-bench-compare-gui: '%s' needs a number\n", arg.c_str());
            return 2;
        }
    }
    if (o.ipus == 0 || o.steps == 0) {
        std::fprintf(stderr, "tilescope-bench-compare-gui: --ipus and --steps must be positive\n");
        return 2;
    }
    if (!displayAvailable())
        return reportNoDisplay("tilescope-bench-compare-gui");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("TileScopeBench"));
    try {
        const auto source = ensureReport(o, "source", 1);
        const auto target = ensureReport(o, "target", 2);
        MainWindow single;
        single.setInteractive(false);
        single.resize(1600, 1000);
        single.show();
        // Warm the page cache and Qt's one-time setup so both figures measure the same thing.
        openReportToFirstPaint(single, source);
        compareFirstPaint(source, target);
        double singleMs = 1e300, compareMs = 1e300;
        for (int i = 0; i < 3; ++i) {
            singleMs = std::min(singleMs, openReportToFirstPaint(single, source));
            compareMs = std::min(compareMs, compareFirstPaint(source, target));
        }
        single.closeReport();

        CompareWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QSignalSpy opened(&window, &CompareWindow::comparisonOpened);
        window.openComparison(QString::fromStdString(source.string()),
                              QString::fromStdString(target.string()));
        waitUntil([&] { return !opened.isEmpty(); }, "the comparison to open");
        QElapsedTimer timer;
        timer.start();
        auto* memory = static_cast<MemoryCompareView*>(window.pane()->showView("memory"));
        waitUntil([&] { return memory->isReady(); }, "the Memory compare view");
        const double memoryReadyMs = double(timer.nsecsElapsed()) / 1e6;
        double worstFrame = 0;
        const double tiles = double(o.ipus) * 1472;
        for (CompareSeriesCanvas* canvas : {&memory->overlay(), &memory->difference()})
            for (double span = tiles; span >= 8; span /= 4)
                for (double at : {0.0, 0.5, 1.0}) {
                    const double begin = (tiles - span) * at;
                    canvas->showWindow(begin, begin + span);
                    worstFrame = std::max(worstFrame, renderFrame(*canvas));
                }
        timer.restart();
        CompareView* execution = window.pane()->showView("execution");
        waitUntil([&] { return execution->isReady(); }, "the Execution compare view");
        const double executionReadyMs = double(timer.nsecsElapsed()) / 1e6;
        std::printf("{\n  \"open_first_paint_ms\": %.1f,\n  \"compare_first_paint_ms\": %.1f,\n"
                    "  \"compare_to_single_ratio\": %.2f,\n  \"memory_compare_ready_ms\": %.1f,\n"
                    "  \"worst_memory_compare_frame_prep_ms\": %.2f,\n"
                    "  \"execution_compare_ready_ms\": %.1f,\n  \"tiles\": %.0f,\n"
                    "  \"steps\": %llu\n}\n",
                    singleMs, compareMs, compareMs / singleMs, memoryReadyMs, worstFrame,
                    executionReadyMs, tiles, static_cast<unsigned long long>(o.steps));
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tilescope-bench-compare-gui: %s\n", e.what());
        return 1;
    }
}
