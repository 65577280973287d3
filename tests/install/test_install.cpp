// The installed package works for a user: `cmake --install` into a fresh prefix, then the pva
// example (pva_example.cpp, libpva-style calls only) is built against that prefix twice, with
// `g++ ... $(pkg-config --cflags --libs tilescope-report)` and with a CMake project using
// find_package(TileScope) + TileScope::report. Both binaries must load the installed library and
// print exactly the figures of a report this test writes.

#include "tilescope/report/ProfileWriter.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace fs = std::filesystem;
using namespace tilescope::report;

namespace {

struct CommandResult {
    int status = -1;
    std::string output;
};

std::string quoted(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

/// Runs `command` with /bin/sh, capturing stdout and stderr together.
CommandResult run(const std::string& command, const fs::path& log) {
    const std::string full = "( " + command + " ) > " + quoted(log.string()) + " 2>&1";
    const int raw = std::system(full.c_str());
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    return {raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, text.str()};
}

/// A 1-IPU, 4-tile report whose figures the expected output below spells out.
void writeReport(const fs::path& path) {
    ProfileWriter w(path);
    w.setMetadata("poplar_version", "3.1.4");
    TargetInfo t;
    t.type = "IPU";
    t.numIpus = 1;
    t.tilesPerIpu = 4;
    t.bytesPerTile = 2048;
    t.clockHz = 1.85e9;
    w.setTarget(t);
    w.setTileMemory("vertex_code", "non_interleaved", {10, 20, 30, 40});
    w.setTileMemory("stack", "non_interleaved", {64, 64, 64, 64});
    w.setTileMemory("gap", "non_interleaved", {1, 0, 0, 1});
    const auto mul = w.addComputeSet({0, "mul", "", 3});
    const auto add = w.addComputeSet({0, "add", "", 2});
    ProgramRecord p;
    p.kind = "Sequence";
    p.name = "main";
    const auto main = w.addProgram(p);
    p.parentId = main;
    p.kind = "Execute";
    p.name = "mul_exec";
    p.computeSetId = mul;
    const auto mulExec = w.addProgram(p);
    p.position = 1;
    p.name = "add_exec";
    p.computeSetId = add;
    const auto addExec = w.addProgram(p);
    w.addControlProgram({0, main, false, "main"});
    StepRecord s;
    s.kind = "OnTileExecute";
    s.programId = mulExec;
    s.notAlwaysLiveBytes = 48;
    w.addStep(s);
    s.programId = addExec;
    s.notAlwaysLiveBytes = 16;
    w.addStep(s);
    VariableRecord v;
    v.name = "x";
    v.bytes = 64;
    v.categoryId = memoryCategoryId("always_live_variables");
    v.regionId = 1;
    v.perTile = {16, 16, 16, 16};
    w.addVariable(v);
    v.name = "y";
    v.bytes = 32;
    v.categoryId = memoryCategoryId("not_always_live_variables");
    v.alwaysLive = false;
    v.firstStep = 0;
    v.lastStep = 1;
    v.perTile = {8, 8, 8, 8};
    w.addVariable(v);
    w.finishCompilation();
    w.beginRun(0, 5'000'000'000);
    RunStepRecord r;
    r.stepId = 0;
    r.cycles = 120;
    r.perTile = {120, 110, 0, 100};
    w.addRunStep(r);
    r.stepId = 1;
    r.startCycle = 120;
    r.cycles = 30;
    r.perTile = {30, 30, 30, 30};
    w.addRunStep(r);
    w.endRun(5'000'250'000);
    w.close();
}

constexpr const char* kExpectedOutput = "poplar version: 3.1.4\n"
                                        "tiles: 4\n"
                                        "IPUs: 1\n"
                                        "tiles per IPU: 4\n"
                                        "bytes per tile: 2048\n"
                                        "clock frequency: 1850000000\n"
                                        "replicas: 1\n"
                                        "compute sets: 2\n"
                                        "vertex code bytes: 100\n"
                                        "memory including gaps: 358\n"
                                        "programs: main mul_exec add_exec\n"
                                        "compute set names: mul add\n"
                                        "variables: x=64 y=32\n"
                                        "liveness steps: 2, peak not-always-live bytes: 48\n"
                                        "run of main: 250 us\n"
                                        "  mul_exec cycles 0-120 by tile: 120 110 0 100\n"
                                        "  add_exec cycles 120-150 by tile: 30 30 30 30\n";

/// Runs a built example on the report; it must print the expected figures and load the
/// tilescope-report library from the installed prefix (not from the build tree).
void checkExample(const fs::path& binary, const fs::path& report, const fs::path& prefix,
                  const fs::path& work) {
    const auto result = run(quoted(binary.string()) + " " + quoted(report.string()),
                            work / (binary.filename().string() + ".out"));
    INFO(binary.string());
    REQUIRE(result.status == 0);
    CHECK(result.output == kExpectedOutput);
    const auto libs = run("ldd " + quoted(binary.string()), work / "ldd.out");
    INFO(libs.output);
    const auto line = libs.output.find("libtilescope-report");
    REQUIRE(line != std::string::npos);
    const auto end = libs.output.find('\n', line);
    CHECK(libs.output.substr(line, end - line).find(prefix.string()) != std::string::npos);
}

} // namespace

TEST_CASE("the pva example builds against the installed package and prints the figures") {
    const fs::path work = INSTALL_TEST_WORK_DIR;
    fs::remove_all(work);
    fs::create_directories(work);
    const fs::path prefix = work / "prefix";
    const fs::path report = work / "profile.pop";
    writeReport(report);

    const auto install =
        run(std::string(TILESCOPE_CMAKE_COMMAND) + " --install " + quoted(TILESCOPE_BINARY_DIR) +
                " --prefix " + quoted(prefix.string()),
            work / "install.log");
    INFO(install.output);
    REQUIRE(install.status == 0);
    const fs::path libdir = prefix / TILESCOPE_INSTALL_LIBDIR;
    REQUIRE(fs::exists(prefix / "include/pva/pva.hpp"));
    REQUIRE(fs::exists(libdir / "pkgconfig/tilescope-report.pc"));
    REQUIRE(fs::exists(libdir / "cmake/TileScope/TileScopeConfig.cmake"));

    // 1. g++ prog.cpp $(pkg-config --cflags --libs tilescope-report)
    const std::string pkgConfig = "PKG_CONFIG_PATH=" + quoted((libdir / "pkgconfig").string()) +
                                  " " + TILESCOPE_PKG_CONFIG + " --cflags --libs tilescope-report";
    const auto flags = run(pkgConfig, work / "pkg-config.out");
    INFO(flags.output);
    REQUIRE(flags.status == 0);
    const fs::path viaPkgConfig = work / "pva_example_pkgconfig";
    const auto compile = run(std::string(TILESCOPE_CXX) + " " + quoted(PVA_EXAMPLE_SOURCE) + " $(" +
                                 pkgConfig + ") -o " + quoted(viaPkgConfig.string()),
                             work / "compile-pkgconfig.log");
    INFO(compile.output);
    REQUIRE(compile.status == 0);
    checkExample(viaPkgConfig, report, prefix, work);

    // 2. find_package(TileScope) + target_link_libraries(... TileScope::report)
    const fs::path consumerBuild = work / "consumer-build";
    const auto configure =
        run(std::string(TILESCOPE_CMAKE_COMMAND) + " -S " + quoted(CONSUMER_SOURCE_DIR) + " -B " +
                quoted(consumerBuild.string()) + " -G " + quoted(TILESCOPE_CMAKE_GENERATOR) +
                " -DCMAKE_PREFIX_PATH=" + quoted(prefix.string()) + " -DCMAKE_CXX_COMPILER=" +
                quoted(TILESCOPE_CXX) + " -DPVA_EXAMPLE_SOURCE=" + quoted(PVA_EXAMPLE_SOURCE),
            work / "consumer-configure.log");
    INFO(configure.output);
    REQUIRE(configure.status == 0);
    std::ifstream cache(consumerBuild / "CMakeCache.txt");
    std::stringstream cacheText;
    cacheText << cache.rdbuf();
    CHECK(cacheText.str().find("TileScope_DIR:PATH=" + prefix.string()) != std::string::npos);
    const auto build =
        run(std::string(TILESCOPE_CMAKE_COMMAND) + " --build " + quoted(consumerBuild.string()),
            work / "consumer-build.log");
    INFO(build.output);
    REQUIRE(build.status == 0);
    checkExample(consumerBuild / "pva_example", report, prefix, work);
}
