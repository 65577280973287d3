#pragma once
// Small, fully known reports for the report-format tests, the fuzz seed corpus and the writer
// kill test. Everything is deterministic, so a reader's answers can be compared with what the
// writer was given, field by field.

#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ProfileWriter.hpp"
#include "tilescope/report/SyntheticReport.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::testing {

using namespace tilescope::report;

/// Everything writeCompileProfile() gave the writer, with the ids the writer returned.
struct CompileProfile {
    TargetInfo target;
    std::vector<EngineOption> engineOptions;
    /// (category name, region name) -> bytes per tile.
    std::map<std::pair<std::string, std::string>, PerTile> tileMemory;
    std::vector<ComputeSetRecord> computeSets;
    std::vector<VertexTypeRecord> vertexTypes;
    std::vector<VertexInstancesRecord> vertexInstances;
    std::vector<ProgramRecord> programs;
    std::vector<ControlProgram> controlPrograms;
    std::vector<StepRecord> steps;
    std::vector<VariableRecord> variables;
    std::vector<OperationRecord> operations;
};

/// One operation of a nested-operations report: its debug path and what its single program (one
/// step) and its single always-live variable cost.
struct NestedOperation {
    const char* name;
    const char* path;
    std::uint64_t cycles, code, bytes;
    std::optional<std::uint64_t> flops;
};

/// Writes a closed report of one IPU with `tilesPerIpu` tiles whose operations are `ops`, in
/// order, each owning one Execute program under "main" and one variable on tile 0: the
/// operations roll-up tests check their nesting and totals against these figures.
void writeNestedOperationsReport(const std::filesystem::path& path,
                                 const std::vector<NestedOperation>& ops,
                                 std::uint32_t tilesPerIpu);

/// Writes metadata, target and a compile profile with every record kind (not finishCompilation).
CompileProfile writeCompileProfile(ProfileWriter& writer, std::uint32_t ipus = 2,
                                   std::uint32_t tilesPerIpu = 8);

/// The `seq`-th executed step of run `runIndex`: deterministic, with per-IPU and per-tile cycles
/// (some tiles idle). Steps are 1000 cycles apart and last less, so they never overlap.
RunStepRecord syntheticRunStep(const CompileProfile& profile, std::int64_t runIndex,
                               std::int64_t seq);
/// Start time of a run (host ns); its end is start + 1000 * steps.
std::int64_t syntheticRunStartNs(std::int64_t runIndex);

/// beginRun, `steps` synthetic steps, endRun.
void writeRun(ProfileWriter& writer, const CompileProfile& profile, std::int64_t runIndex,
              std::int64_t steps);

/// A finished profile with `runs` runs of `stepsPerRun` steps.
CompileProfile writeSmallProfile(const std::filesystem::path& path, int runs = 2,
                                 std::int64_t stepsPerRun = 300, ProfileWriterOptions options = {});

/// What writeSmallHostTrace() wrote.
struct HostTraceContent {
    std::int64_t processId = 0;
    std::vector<std::int64_t> threadIds;
    std::vector<std::int64_t> channelIds;
    std::vector<HostEvent> events; // in writing order, ids 1..n
    std::int64_t graphId = 0;
    std::vector<std::int64_t> seriesIds;
    std::vector<std::vector<std::pair<std::int64_t, double>>> samples; // per series
};

/// The `i`-th synthetic host event of a thread: nests `i % 3` levels deep inside a 10 us frame.
HostEvent syntheticHostEvent(std::int64_t threadId, std::int64_t channelId, std::int64_t nameId,
                             std::int64_t i);

/// A finished host trace: 2 threads, nested complete events, instants, one unfinished event per
/// thread, one graph with 2 series.
HostTraceContent writeSmallHostTrace(const std::filesystem::path& path,
                                     std::int64_t eventsPerThread = 400,
                                     HostTraceWriterOptions options = {});

/// A fresh empty directory under the system temp dir, removed by the destructor.
class TempDir {
public:
    explicit TempDir(const std::string& prefix);
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

/// Runs SQL on a report file read-write, as damage or an older writer would leave it; throws
/// std::runtime_error with SQLite's message when a statement fails.
void execSql(const std::filesystem::path& path, const std::string& sql);

/// A file's bytes, to check that a reader left it unchanged.
std::string fileBytes(const std::filesystem::path& path);

/// The spec every tests/data/format-vN fixture was generated with (see their READMEs).
SyntheticSpec formatFixtureSpec();

} // namespace tilescope::testing
