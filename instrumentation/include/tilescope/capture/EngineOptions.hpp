#pragma once

#include "tilescope/capture/TraceOptions.hpp"
#include "tilescope/report/ProfileTypes.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::capture {

/// Validated engine options: those given to the Engine (its OptionFlags) overridden by the
/// POPLAR_ENGINE_OPTIONS environment variable (a JSON object of string values), as in Poplar.
/// Every option of engineOptionTable() is accepted with the SDK's value checks; those the
/// simulator cannot honour are recorded as not applying. A malformed variable, a non-string value,
/// an unknown name or an invalid value throws OptionsError naming the variable (or the API), the
/// option and what was expected. `inForce` lists every option that was given plus the defaults of
/// those that shape a report, with where each value came from: it is what the report stores.
struct EngineOptions {
    // autoReport
    bool graphProfile = false;     ///< autoReport.all / autoReport.outputGraphProfile
    bool executionProfile = false; ///< autoReport.all / autoReport.outputExecutionProfile
    bool debugInfo = false;        ///< autoReport.all / autoReport.outputDebugInfo
    bool loweredVars = false;      ///< autoReport.all / autoReport.outputLoweredVars
    std::string directory = ".";   ///< autoReport.directory
    std::uint32_t storedRuns = 2;  ///< autoReport.executionProfileProgramRunCount
    bool streamAtEachRun = false;  ///< autoReport.streamAtEachRun
    // debug
    bool instrument = false;                   ///< debug.instrument
    bool instrumentCompute = false;            ///< debug.instrumentCompute
    std::string instrumentationLevel = "tile"; ///< debug.computeInstrumentationLevel
    bool allowOutOfMemory = false;             ///< debug.allowOutOfMemory
    bool retainDebugInformation = false;       ///< debug.retainDebugInformation
    bool includeFlopEstimates = false;         ///< profiler.includeFlopEstimates
    std::string saveArchive;                   ///< target.saveArchive: "" = none
    std::string loweredVarDumpFile;            ///< debug.loweredVarDumpFile: "" = none
    /// exchange.enablePrefetch, off also with streamCallbacks.maxLookahead 0: stream callbacks
    /// are asked to prefetch() the next transfer after each one completes.
    bool streamPrefetch = true;
    // lightweight profiling (profiler.blocks.*, profiler.programs.filter)
    std::string blocksFilter;                ///< profiler.blocks.filter: "" = no Block selected
    std::string programsFilter;              ///< profiler.programs.filter: "" = no implicit blocks
    unsigned blocksTile = 0;                 ///< profiler.blocks.tile, on every IPU
    bool blocksImplicitFlush = true;         ///< profiler.blocks.implicitFlush
    unsigned blocksBufferSize = 1000;        ///< profiler.blocks.bufferSize, bytes per tile
    bool instrumentExternalExchange = false; ///< debug.instrumentExternalExchange
    unsigned replicaToProfile = 0; ///< profiler.replicaToProfile: the replica the report shows
    // TileScope
    unsigned hostThreads = 0; ///< tilescope.hostThreads: 0 = all hardware threads

    std::vector<report::EngineOption> inForce;

    bool autoReport() const { return graphProfile || executionProfile; }

    /// `environmentJson` is the value of POPLAR_ENGINE_OPTIONS, or null when unset; empty or
    /// whitespace-only counts as unset (shells export it empty).
    static EngineOptions parse(const std::vector<std::pair<std::string, std::string>>& api,
                               const char* environmentJson);
};

} // namespace tilescope::capture
