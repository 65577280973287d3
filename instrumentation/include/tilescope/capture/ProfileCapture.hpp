#pragma once

#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/report/ProfileTypes.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace tilescope::capture {

/// What one engine's profile should contain, from the autoReport options in force.
struct ProfileCaptureSettings {
    std::filesystem::path file; ///< usually <autoReport.directory>/profile.pop
    std::string engineName;
    std::string commandLine;
    std::string poplarVersion;
    std::vector<report::EngineOption> options; ///< the options in force, stored in the report
    bool graphProfile = true;                  ///< autoReport.outputGraphProfile
    bool executionProfile = true;              ///< autoReport.outputExecutionProfile
    bool variables = true;                     ///< autoReport.outputLoweredVars
    bool debugInfo = false;                    ///< autoReport.outputDebugInfo: operations
    bool flopEstimates = false;                ///< profiler.includeFlopEstimates
    std::uint32_t storedRuns = 2;              ///< autoReport.executionProfileProgramRunCount
    /// "tile" stores cycles per tile and per IPU of every step; "ipu" per IPU only.
    std::string instrumentationLevel = "tile";
};

/// Writes the records of one compiled graph and its runs into a profile report. The compile
/// profile is committed as soon as writeCompilation() returns, also for a compilation that ran
/// out of memory, so that an OOM can be analysed; each stored run is committed when writeRun()
/// returns, so a report can be opened while the program goes on. Runs beyond `storedRuns` are
/// counted (metadata `runs_total`) but not stored.
class ProfileCapture {
public:
    explicit ProfileCapture(ProfileCaptureSettings settings);
    ~ProfileCapture();
    ProfileCapture(const ProfileCapture&) = delete;
    ProfileCapture& operator=(const ProfileCapture&) = delete;

    void writeCompilation(const CompileRecords& records);
    void writeRun(const RunRecord& run);
    /// Finishes the file (idempotent); also done by the destructor.
    void close();

    const std::filesystem::path& file() const { return settings_.file; }
    std::uint64_t runsSeen() const { return runsSeen_; }

private:
    struct Writer;
    ProfileCaptureSettings settings_;
    std::unique_ptr<Writer> writer_;
    std::vector<std::uint64_t> ipuOfTileStart_;
    std::uint32_t tilesPerIpu_ = 0;
    std::uint32_t numIpus_ = 0;
    std::uint64_t runsSeen_ = 0;
    bool compiled_ = false;
    /// Report ids of CompileRecords::programs (blocks refer to programs by these).
    std::vector<std::int64_t> programIds_;
};

} // namespace tilescope::capture
