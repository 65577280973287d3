#pragma once

#include "tilescope/report/ProfileBlocks.hpp"
#include "tilescope/report/ProfileTypes.hpp"
#include "tilescope/report/TilePlacement.hpp"

#include <filesystem>
#include <memory>
#include <string_view>

namespace tilescope::report {

struct ProfileWriterOptions {
    bool replaceExisting = true;
    /// Rows per transaction: large batches are what makes SQLite fast; a killed writer loses at
    /// most the current batch, and every explicit commit point (end of compilation, end of run).
    std::size_t rowsPerTransaction = 1u << 18;
    /// Width in cycles of a level-0 bucket of the execution-trace pyramid; level L is 4^L wider.
    std::uint64_t lodBaseCycles = 4096;
};

/// Writes one profile report (`profile.pop`). Call order: metadata and target first, then the
/// compile profile (any order among its parts; ids returned by add* link the parts), then
/// finishCompilation(), then any number of runs (beginRun, addRunStep..., endRun), then close().
/// Every finishCompilation() and endRun() is a commit point: a reader, or the survivor of a killed
/// writer, sees everything up to the last one. Throws ReportError on any failure.
class ProfileWriter {
public:
    explicit ProfileWriter(const std::filesystem::path& path, ProfileWriterOptions options = {});
    ~ProfileWriter();
    ProfileWriter(const ProfileWriter&) = delete;
    ProfileWriter& operator=(const ProfileWriter&) = delete;

    void setMetadata(std::string_view key, std::string_view value);
    void setEngineOptions(const std::vector<EngineOption>& options);
    /// Also writes the standard memory categories and the target's regions (a single
    /// non-interleaved region covering the tile when the target lists none).
    void setTarget(const TargetInfo& target);
    /// Where each tile sits on its die (after setTarget; optional). Throws ReportError when it
    /// does not fit the target.
    void setTilePlacement(const TilePlacement& placement);

    /// Region by name as given in the target; category by standard name.
    void setTileMemory(std::string_view category, std::string_view region, const PerTile& bytes);

    /// One tile's memory map (format v6): its allocations, in any order. Regions and categories
    /// by the ids setTarget wrote, variables by addVariable's ids. Throws ReportError on a tile
    /// or region outside the target, an unknown category or an allocation past the tile's end.
    void setTileAllocations(std::uint32_t tile, const std::vector<TileAllocation>& allocations);

    std::int64_t addComputeSet(const ComputeSetRecord& cs);
    std::int64_t addVertexType(const VertexTypeRecord& vt);
    void addVertexInstances(const VertexInstancesRecord& vi);
    std::int64_t addProgram(const ProgramRecord& program);
    void addControlProgram(const ControlProgram& cp);
    std::int64_t addStep(const StepRecord& step);
    std::int64_t addVariable(const VariableRecord& variable);
    std::int64_t addOperation(const OperationRecord& operation);
    /// Commit point. `outOfMemory` marks the report as describing a failed compilation.
    void finishCompilation(bool outOfMemory = false);

    std::int64_t beginRun(std::int64_t programIndex, std::int64_t hostStartNs);
    /// Steps must come in execution order (non-decreasing startCycle). Computes active tiles and
    /// tile balance from perTile when given.
    void addRunStep(const RunStepRecord& step);
    /// Commit point; writes the run's level-of-detail pyramid. The run lasts until its last step
    /// ends, or `deviceCycles` when that is later: the device's own count, which includes the
    /// lightweight-profiling instrumentation (block exits, buffer flushes) after its last step.
    void endRun(std::int64_t hostEndNs, std::uint64_t deviceCycles = 0);

    /// Lightweight-profiling blocks recorded during Engine::run call `runIndex` (0-based; the
    /// run's steps need not be stored). Any time after setTarget(); committed with the next
    /// commit point.
    void addBlocks(std::int64_t runIndex, const std::vector<BlockRecord>& blocks);

    void commit();
    /// Final commit; the file leaves WAL mode and is marked complete.
    void close();

    const std::string& path() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace tilescope::report
