// Engine::getReport: the engine's profile so far (compilation and the runs recorded in memory,
// lightweight-profiling blocks included) as a pva::Report, without autoReport. The report is
// written to a scratch file in a per-process temporary folder, removed when the process exits:
// pva objects read it lazily and may outlive the engine.
#include "poplar/Engine.hpp"

#include "poplar/exceptions.hpp"
#include "pva/pva.hpp"
#include "tilescope/capture/ProfileCapture.hpp"
#include "tilescope/capture/ProfileRecords.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <unistd.h>

namespace poplar {
namespace {

namespace fs = std::filesystem;

/// The process's folder of scratch reports; removed at exit.
class ScratchReports {
public:
    ScratchReports()
        : dir_(fs::temp_directory_path() /
               ("tilescope-getreport-" + std::to_string(::getpid()))) {}
    ~ScratchReports() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    fs::path next() {
        std::error_code ec;
        fs::create_directories(dir_, ec);
        if (ec)
            throw poplar_error("Engine::getReport: cannot create '" + dir_.string() +
                               "': " + ec.message());
        return dir_ / ("report" + std::to_string(counter_++) + ".pop");
    }

private:
    fs::path dir_;
    std::atomic<std::uint64_t> counter_{0};
};

ScratchReports& scratch() {
    static ScratchReports reports;
    return reports;
}

} // namespace

pva::Report Engine::getReport(bool reportExecution) const {
    const fs::path file = scratch().next();
    try {
        tilescope::capture::ProfileCaptureSettings s;
        s.file = file;
        s.engineName = "engine";
        s.poplarVersion = "TileScope simulator 0.1.0";
        s.graphProfile = true;
        s.executionProfile = reportExecution;
        s.variables = true;
        s.debugInfo = true;
        s.storedRuns = std::numeric_limits<std::uint32_t>::max();
        tilescope::capture::ProfileCapture capture(s);
        capture.writeCompilation(compileRecords());
        if (reportExecution)
            for (const auto& run : executionRecords().runs)
                capture.writeRun(run);
        capture.close();
    } catch (const poplar_error&) {
        throw;
    } catch (const std::exception& e) {
        throw poplar_error(std::string("Engine::getReport: ") + e.what());
    }
    try {
        return pva::openReport(file.string());
    } catch (const pva::error& e) {
        throw poplar_error(std::string("Engine::getReport: ") + e.what());
    }
}

} // namespace poplar
