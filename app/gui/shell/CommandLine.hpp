#pragma once
// The desktop app's command line (main.cpp): its options, parsed and checked before any window
// exists.

#include "core/ViewState.hpp"
#include "system/TimelineCanvas.hpp"
#include "system/TimelineModel.hpp"

#include <QCommandLineParser>
#include <QSize>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <utility>

namespace tilescope::gui {

/// What the command line asked for, validated before any window exists so that usage errors
/// need no display.
struct CommandLineOptions {
    QString file;
    QStringList traces; // system analyser: host traces (*.pvti) on one time axis
    // --compare: the source and target reports.
    QStringList compared;
    // --compare-trace: host traces A (the baseline) and B in the System Analyser's Compare view.
    QStringList comparedTraces;
    // --sweep, or FILE a folder holding sweep.json: the Sweep view of that folder.
    bool sweep = false;

    QString view;
    QString screenshot;
    // --range: the timeline's window, nanoseconds after the start of the traces.
    std::optional<std::pair<std::int64_t, std::int64_t>> range;
    // --flame, --chart: the timeline's flame graph and counter graph types.
    std::optional<TimelineModel::FlameMode> flame;
    std::optional<TimelineCanvas::ChartMode> chart;
    QSize size{1280, 800};
    // --tile-order: the Memory view's order (TileMemoryModel::TileOrder).
    std::optional<int> tileOrder;
    // --execution-mode: the Execution Trace's mode (ExecutionModel::Mode).
    std::optional<int> executionMode;
    // --always-live: whether the Liveness chart stacks on always-live memory.
    std::optional<bool> includeAlwaysLive;
    // --memory-tab: the Memory view's tab (MemoryView::tabNames() order).
    std::optional<int> memoryTab;
    // --cycle-range: the Execution Trace's selected range of the run, in cycles.
    std::optional<std::pair<double, double>> cycleRange;

    /// The view settings given on the command line, applied to a report's ViewState.
    void applyTo(ViewState& state) const {
        if (tileOrder)
            state.tileOrder = *tileOrder;
        if (executionMode)
            state.executionMode = *executionMode;
        if (includeAlwaysLive)
            state.includeAlwaysLive = *includeAlwaysLive;
        if (cycleRange)
            state.cycleRange = cycleRange;
        if (memoryTab)
            state.memoryTab = *memoryTab;
    }

    // ssh:// files: as tilescope-cli's options of the same names.
    QString sshConfig;
    QString knownHosts;
    bool acceptNewHostKey = false;
};

/// Parses `arguments` (argv, the program first) with `parser`: the options, or empty with
/// `error` set, or empty with `exitNow` set when --help or --version was asked (`parser` then
/// prints them).
std::optional<CommandLineOptions> parseCommandLine(const QStringList& arguments, QString* error,
                                                   bool* exitNow, QCommandLineParser& parser);

} // namespace tilescope::gui
