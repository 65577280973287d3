#pragma once

#include "TileSelection.hpp"

#include <QString>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tilescope::gui {

/// What the user has set up in the views of one report: the Memory view's breakdown, toggles,
/// visible tile window and selected tiles, the Liveness view's visible step window, selected step
/// and variable filter, the selected program. Views read it when they are created and write it
/// as the user changes things, so switching views (and reloading the report) keeps it.
struct ViewState {
    QString currentView = QStringLiteral("summary");

    // Memory.
    int memoryBreakdown = 0; // TileMemoryModel::Breakdown
    bool includeGaps = true;
    bool showMaxMemory = true;
    int tileOrder = 0; // TileMemoryModel::TileOrder
    std::optional<std::pair<double, double>> tileWindow;
    TileSelection selectedTiles;
    int memoryTab = 0;                          // MemoryView's tab (its Tab order)
    std::vector<std::int64_t> graphedVariables; // the Variables graph's variables (ids)

    // Liveness.
    std::optional<std::pair<double, double>> stepWindow;
    std::optional<std::int64_t> selectedStep;
    QString variableFilter;
    bool includeAlwaysLive = true; // the chart stacks not-always-live on always-live memory

    // Execution Trace: the mode (ExecutionModel::Mode); it opens on the flame, which names the
    // programs, rather than on the phase shares.
    int executionMode = 1;
    // Execution Trace: the cycle range selected by Shift+drag, for its Summary/Details panel.
    std::optional<std::pair<double, double>> cycleRange;

    // Program tree.
    std::optional<std::int64_t> selectedProgram;

    // Operations.
    std::optional<std::int64_t> selectedOperation;
};

} // namespace tilescope::gui
