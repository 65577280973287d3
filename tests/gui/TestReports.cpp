#include "TestReports.hpp"

#include "tilescope/report/SyntheticReport.hpp"

#include <QCoreApplication>
#include <unistd.h>

namespace tilescope::gui::test {
namespace {

/// Root of this process's files, deleted when the process exits.
struct ScratchRoot {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("tilescope-gui-test-" + std::to_string(::getpid()));
    ScratchRoot() { std::filesystem::create_directories(path); }
    ~ScratchRoot() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

ScratchRoot& root() {
    static ScratchRoot r;
    return r;
}

} // namespace

std::filesystem::path scratchDir(const std::string& name) {
    const auto dir = root().path / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

const std::filesystem::path& smallReport() {
    static const std::filesystem::path path = [] {
        report::SyntheticSpec spec;
        spec.ipus = 2;
        spec.tilesPerIpu = 64;
        spec.steps = 300;
        return report::generateSyntheticReport(root().path / "small", spec).profile;
    }();
    return path;
}

const std::filesystem::path& perIpuReport() {
    static const std::filesystem::path path = [] {
        report::SyntheticSpec spec;
        spec.ipus = 4;
        spec.tilesPerIpu = 16;
        spec.steps = 6000;
        spec.runs = 1;
        spec.perTileCycles = false;
        return report::generateSyntheticReport(root().path / "per-ipu", spec).profile;
    }();
    return path;
}

const std::filesystem::path& oomReport() {
    static const std::filesystem::path path = [] {
        report::SyntheticSpec spec;
        spec.ipus = 1;
        spec.tilesPerIpu = 32;
        spec.steps = 100;
        spec.outOfMemory = true;
        return report::generateSyntheticReport(root().path / "oom", spec).profile;
    }();
    return path;
}

std::shared_ptr<ReportSession> openSession(const std::filesystem::path& report) {
    return ReportSession::open(report.string(), {}, {});
}

bool waitFor(QSignalSpy& spy, int ms) {
    return spy.count() > 0 || spy.wait(ms);
}

} // namespace tilescope::gui::test
