// The sweep library without running programs: keys, axes, the grid and its names, variants
// files, the launch environment, statuses, the Pareto front, and the Slurm checks.

#include "tilescope/sweep/Executors.hpp"
#include "tilescope/sweep/SweepPlan.hpp"
#include "tilescope/sweep/SweepSummary.hpp"
#include "tilescope/sweep/VariantStatus.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace tilescope::sweep;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
    const auto dir =
        fs::temp_directory_path() / ("tilescope-sweep-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::map<std::string, std::string> envOf(const VariantLaunch& launch) {
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : launch.environment)
        out[k] = v;
    return out;
}

} // namespace

TEST_CASE("keys are engine options, PopLibs options, arguments or environment variables") {
    CHECK(parseSetting("opt.maxCopyMergeSize", "1").kind == SettingKind::EngineOption);
    CHECK(parseSetting("opt.maxCopyMergeSize", "1").key == "engine:opt.maxCopyMergeSize");
    CHECK(parseSetting("engine:debug.allowOutOfMemory", "true").name == "debug.allowOutOfMemory");
    const Setting p = parseSetting("matmul.availableMemoryProportion", "0.3");
    CHECK(p.kind == SettingKind::PoplibsOption);
    CHECK(p.key == "poplibs:matmul.availableMemoryProportion");
    CHECK(parseSetting("poplibs:convolution.partialsType", "half").kind ==
          SettingKind::PoplibsOption);
    CHECK(parseSetting("arg:tiles", "4").kind == SettingKind::Argument);
    CHECK(parseSetting("env:OMP_NUM_THREADS", "1").kind == SettingKind::Environment);
    CHECK_THROWS_WITH(parseSetting("poplibs:matmul", "1"), Catch::Contains("OPERATION.NAME"));
    CHECK_THROWS_WITH(parseSetting("bogus:x", "1"), Catch::Contains("unknown prefix"));
    CHECK_THROWS_WITH(parseSetting("arg:", "1"), Catch::Contains("no name"));
    CHECK_THROWS_WITH(parseSetting("env:A=B", "1"), Catch::Contains("'='"));
}

TEST_CASE("an axis is KEY=V1,V2 with distinct, non-empty values") {
    const SweepAxis a = parseAxis("arg:tiles=4,8,16");
    CHECK(a.key == "arg:tiles");
    CHECK(a.values == std::vector<std::string>{"4", "8", "16"});
    CHECK_THROWS_WITH(parseAxis("tiles"), Catch::Contains("KEY=V1,V2"));
    CHECK_THROWS_WITH(parseAxis("=1,2"), Catch::Contains("KEY=V1,V2"));
    CHECK_THROWS_WITH(parseAxis("arg:t=1,,2"), Catch::Contains("empty value"));
    CHECK_THROWS_WITH(parseAxis("arg:t=1,2,"), Catch::Contains("empty value"));
    CHECK_THROWS_WITH(parseAxis("arg:t="), Catch::Contains("empty value"));
    CHECK_THROWS_WITH(parseAxis("arg:t=1,1"), Catch::Contains("given twice"));
}

TEST_CASE("the grid is the cartesian product, last axis fastest, with readable stable names") {
    const auto variants =
        expandVariants({parseAxis("matmul.availableMemoryProportion=0.3,0.6"),
                        parseAxis("matmul.partialsType=float,half"), parseAxis("arg:tiles=4,8")},
                       {});
    REQUIRE(variants.size() == 8);
    CHECK(variants[0].name == "availableMemoryProportion-0.3_partialsType-float_tiles-4");
    CHECK(variants[1].name == "availableMemoryProportion-0.3_partialsType-float_tiles-8");
    CHECK(variants[7].name == "availableMemoryProportion-0.6_partialsType-half_tiles-8");
    CHECK(settingsJson(variants[7]) ==
          R"({"arg:tiles":"8","poplibs:matmul.availableMemoryProportion":"0.6",)"
          R"("poplibs:matmul.partialsType":"half"})");
    // The same input gives the same names (a resumed sweep finds its folders again).
    const auto again =
        expandVariants({parseAxis("matmul.availableMemoryProportion=0.3,0.6"),
                        parseAxis("matmul.partialsType=float,half"), parseAxis("arg:tiles=4,8")},
                       {});
    for (std::size_t i = 0; i < 8; ++i)
        CHECK(again[i].name == variants[i].name);

    // No axis: one variant.
    const auto single = expandVariants({}, {});
    REQUIRE(single.size() == 1);
    CHECK(single[0].name == "default");

    // Two keys with the same last part keep their full keys; odd characters are replaced.
    const auto clash = expandVariants({parseAxis("poplibs:matmul.partialsType=half"),
                                       parseAxis("poplibs:convolution.partialsType=float"),
                                       parseAxis("env:NAME=a/b")},
                                      {});
    CHECK(clash[0].name ==
          "poplibs-matmul.partialsType-half_poplibs-convolution.partialsType-float_NAME-a-b");

    // Values that become the same folder name are refused rather than overwritten.
    CHECK_THROWS_WITH(expandVariants({parseAxis("env:X=a/b,a:b")}, {}),
                      Catch::Contains("two variants are named"));
}

TEST_CASE("a variants file lists irregular variants, crossed with the --vary grid") {
    const auto dir = scratch("variants");
    std::ofstream(dir / "v.json") << R"([{"arg:tiles": 4}, {"name": "big", "settings": )"
                                     R"({"arg:tiles": "64", "matmul.partialsType": "half"}}])";
    const auto listed = readVariantsFile(dir / "v.json");
    REQUIRE(listed.size() == 2);
    CHECK(listed[0].settings[0].value == "4");
    const auto variants = expandVariants({parseAxis("env:A=1,2")}, listed);
    REQUIRE(variants.size() == 4);
    CHECK(variants[0].name == "tiles-4_A-1");
    CHECK(variants[2].name == "big_A-1");
    CHECK_THROWS_WITH(expandVariants({parseAxis("arg:tiles=1")}, listed),
                      Catch::Contains("both in a listed variant and in --vary"));

    std::ofstream(dir / "bad.json") << R"({"arg:tiles": 4})";
    CHECK_THROWS_WITH(readVariantsFile(dir / "bad.json"), Catch::Contains("JSON array"));
    std::ofstream(dir / "bad2.json") << R"([{"arg:tiles": [4]}])";
    CHECK_THROWS_WITH(readVariantsFile(dir / "bad2.json"),
                      Catch::Contains("strings, numbers or booleans"));
    std::ofstream(dir / "bad3.json") << R"([{"name": "a/b", "settings": {}}])";
    CHECK_THROWS_WITH(readVariantsFile(dir / "bad3.json"), Catch::Contains("only letters"));
    CHECK_THROWS_WITH(readVariantsFile(dir / "missing.json"), Catch::Contains("cannot open"));
    std::ofstream(dir / "broken.json") << "[{";
    CHECK_THROWS_WITH(readVariantsFile(dir / "broken.json"), Catch::Contains("not valid JSON"));
    fs::remove_all(dir);
}

TEST_CASE("a variant's launch merges engine and PopLibs options and substitutes arguments") {
    SweepPlan plan;
    plan.directory = "/sweeps/s1";
    plan.command = {"prog", "--tiles={tiles}", "x{tiles}y{tiles}"};
    plan.variants = expandVariants({parseAxis("opt.x=1"), parseAxis("matmul.partialsType=half"),
                                    parseAxis("arg:tiles=8"), parseAxis("env:FOO=bar")},
                                   {});
    validatePlan(plan);
    const auto launch = buildLaunch(plan, plan.variants[0],
                                    R"({"autoReport.outputExecutionProfile":"false","opt.x":"0"})",
                                    R"({"matmul":{"availableMemoryProportion":"0.2"}})");
    CHECK(launch.argv == std::vector<std::string>{"prog", "--tiles=8", "x8y8"});
    const auto env = envOf(launch);
    const auto engine = nlohmann::json::parse(env.at("POPLAR_ENGINE_OPTIONS"));
    CHECK(engine["autoReport.all"] == "true");
    CHECK(engine["autoReport.outputExecutionProfile"] == "false"); // inherited
    CHECK(engine["opt.x"] == "1");                                 // the variant's wins
    CHECK(engine["autoReport.directory"] == "/sweeps/s1/" + plan.variants[0].name);
    const auto poplibs = nlohmann::json::parse(env.at("TILESCOPE_POPLIBS_OPTIONS"));
    CHECK(poplibs["matmul"]["availableMemoryProportion"] == "0.2");
    CHECK(poplibs["matmul"]["partialsType"] == "half");
    CHECK(env.at("FOO") == "bar");
    CHECK(env.at("TILESCOPE_SWEEP_VARIANT") == plan.variants[0].name);
    CHECK(nlohmann::json::parse(env.at("TILESCOPE_SWEEP_SETTINGS"))["arg:tiles"] == "8");

    CHECK_THROWS_WITH(buildLaunch(plan, plan.variants[0], "[1]", nullptr),
                      Catch::Contains("POPLAR_ENGINE_OPTIONS in the environment"));
    plan.command = {"prog", "--tiles"};
    CHECK_THROWS_WITH(validatePlan(plan), Catch::Contains("{tiles}"));
    plan.command = {};
    CHECK_THROWS_WITH(validatePlan(plan), Catch::Contains("no program"));
}

TEST_CASE("the plan and statuses round-trip through the sweep folder") {
    const auto dir = scratch("plan");
    SweepPlan plan;
    plan.directory = dir;
    plan.workingDirectory = "/tmp";
    plan.command = {"prog", "{n}"};
    plan.timeoutSeconds = 5;
    plan.variants = expandVariants({parseAxis("arg:n=1,2")}, {});
    writePlan(plan);
    const SweepPlan back = readPlan(dir);
    CHECK(back.command == plan.command);
    CHECK(back.timeoutSeconds == 5);
    REQUIRE(back.variants.size() == 2);
    CHECK(back.variants[1].name == "n-2");

    fs::create_directories(dir / "n-1");
    CHECK_FALSE(readStatus(dir / "n-1"));
    VariantStatus s;
    s.state = "failed";
    s.reason = "exit status 3";
    s.exitCode = 3;
    s.outputTail = "line";
    writeStatus(dir / "n-1", s);
    const auto read = readStatus(dir / "n-1");
    REQUIRE(read);
    CHECK(read->state == "failed");
    CHECK(read->exitCode == 3);
    CHECK_FALSE(read->signal);
    CHECK_FALSE(hasCompleteReport(dir / "n-1"));

    std::ofstream(dir / "sweep.json") << "{}";
    CHECK_THROWS_WITH(readPlan(dir), Catch::Contains("not a TileScope sweep file"));
    CHECK_THROWS_WITH(readPlan(dir / "nowhere"), Catch::Contains("cannot open"));
    fs::remove_all(dir);
}

TEST_CASE("a variant's report is its profile.pop, or that of its named engine's subfolder") {
    const auto dir = scratch("reports");
    const auto touch = [](const fs::path& file) {
        fs::create_directories(file.parent_path());
        std::ofstream(file) << "x";
    };
    CHECK(reportFileOf(dir).empty());
    // PopART and PopTorch sessions write to subfolders named after them.
    touch(dir / "inference" / kReportFile);
    CHECK(reportFileOf(dir) == dir / "inference" / kReportFile);
    touch(dir / "training" / kReportFile);
    CHECK(reportFileOf(dir) == dir / "training" / kReportFile);
    // An unnamed engine's report, in the folder itself, comes first.
    touch(dir / kReportFile);
    CHECK(reportFileOf(dir) == dir / kReportFile);
    CHECK_FALSE(hasCompleteReport(dir)); // not a report, so not complete
    fs::remove_all(dir);
}

TEST_CASE("the output tail keeps the last lines") {
    const auto dir = scratch("tail");
    {
        std::ofstream out(dir / "out.log");
        for (int i = 0; i < 100; ++i)
            out << "line " << i << "\n";
    }
    CHECK(fileTail(dir / "out.log", 3) == "line 97\nline 98\nline 99");
    CHECK(fileTail(dir / "none.log") == "");
    fs::remove_all(dir);
}

TEST_CASE("an unwritable sweep folder is refused with its name") {
    CHECK_THROWS_WITH(ensureWritableDirectory("/proc/tilescope-sweep"),
                      Catch::Contains("/proc/tilescope-sweep"));
    CHECK_THROWS_WITH(ensureWritableDirectory("/dev/null/sweep"),
                      Catch::Contains("/dev/null/sweep"));
}

TEST_CASE("the Pareto front holds the variants that fit and no other beats in both figures") {
    const auto row = [](std::string name, std::uint64_t cycles, std::uint64_t memory, bool fits) {
        VariantRow r;
        r.name = std::move(name);
        r.compiled = true;
        r.fits = fits;
        r.cyclesPerRun = {cycles};
        r.peakTileMemoryBytes = memory;
        return r;
    };
    std::vector<VariantRow> rows = {row("a", 100, 500, true), row("b", 200, 300, true),
                                    row("c", 150, 600, true), row("d", 50, 900, false),
                                    row("e", 300, 300, true), row("f", 100, 500, true)};
    rows.push_back(VariantRow{}); // never ran
    const auto front = paretoFront(rows);
    CHECK(front == std::vector<bool>{true, true, false, false, false, true, false});
}

TEST_CASE("without the Slurm client the Slurm executor fails at once naming sbatch") {
    const char* path = std::getenv("PATH");
    const std::string saved = path ? path : "";
    ::setenv("PATH", "/nonexistent", 1);
    CHECK_THROWS_WITH(checkSlurmReachable(), Catch::Contains("sbatch not found on PATH"));
    ::setenv("PATH", saved.c_str(), 1);
}
