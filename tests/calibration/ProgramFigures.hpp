#pragma once
// Figures of a whole program run once on an IPU Model device, read the way Poplar's profile
// summary and PopVision's Summary, Memory and Operations views state them, for the tutorial rows
// of simcore/CALIBRATION.md.

#include <cstdint>
#include <functional>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Program.hpp>
#include <string>
#include <vector>

namespace tilescope::calibration {

/// What one run of a program measured. Tile averages split each tile's run into compute, IPU
/// exchange, host exchange (stream copies) and sync, where sync is the rest of the run: the
/// syncs themselves and the waits for slower tiles, as Poplar's summary counts them.
struct RunFigures {
    std::uint64_t runCycles = 0;
    double computeCycles = 0, exchangeCycles = 0, hostExchangeCycles = 0, syncCycles = 0;
    std::uint64_t computeSets = 0;
    std::uint64_t vertices = 0;
    std::uint64_t bytesExcludingGaps = 0, bytesIncludingGaps = 0;
    std::uint64_t interleavedBytes = 0, nonInterleavedBytes = 0; ///< excluding gaps
    /// Everything but not-always-live variables, the stack and gaps.
    std::uint64_t alwaysLiveBytes = 0;
    /// Cycles of the steps of operations whose debug path starts with a given prefix, summed
    /// over tiles: every tile spends each step's duration in it (operationCycles()).
    std::vector<std::pair<std::string, std::uint64_t>> operations;

    /// The cycles of the operation named `prefix`; throws std::runtime_error when absent.
    std::uint64_t operationCycles(const std::string& prefix) const;
};

/// Builds a program on a device made by `model` (PopLibs codelets added), compiles it, runs
/// program 0 once and reads the figures; `connect` connects the program's streams (may be
/// empty). `operationPrefixes` name the operations to total.
RunFigures runProgram(const poplar::IPUModel& model,
                      const std::function<poplar::program::Program(poplar::Graph&)>& build,
                      const std::function<void(poplar::Engine&)>& connect,
                      const std::vector<std::string>& operationPrefixes);

} // namespace tilescope::calibration
