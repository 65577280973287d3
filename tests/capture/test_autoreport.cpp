// Profiling an unchanged program through POPLAR_ENGINE_OPTIONS: each honoured option, checked in
// the report through the reader (not just that a file exists), a second process reading the report
// between runs, an out-of-memory program, and the errors for malformed options.

#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ProfileSummary.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tilescope::report;
namespace fs = std::filesystem;

namespace {

struct Outcome {
    int status = -1;
    std::string output; // stdout and stderr
};

std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs a program in `dir` with the given environment assignments (shell syntax).
Outcome runIn(const fs::path& dir, const std::string& env, const std::string& program,
              const std::string& args) {
    const std::string cmd = "cd " + quote(dir.string()) + " && env " + env + " " + quote(program) +
                            " " + args + " 2>&1";
    Outcome o;
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), p))
        o.output.append(buf.data(), n);
    const int raw = pclose(p);
    o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    return o;
}

fs::path freshDir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "tilescope-autoreport-tests" / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string options(const std::string& json) {
    return "POPLAR_ENGINE_OPTIONS=" + quote(json);
}

Outcome profile(const fs::path& dir, const std::string& json, const std::string& args = "") {
    return runIn(dir, options(json), AUTOREPORT_PROGRAM,
                 quote(BASIC_CODELETS) + (args.empty() ? "" : " " + args));
}

std::string optionValue(const ProfileReader& r, const std::string& name) {
    for (const auto& o : r.engineOptions())
        if (o.name == name)
            return o.value + "/" + o.source;
    return "absent";
}

} // namespace

TEST_CASE("autoReport.all writes a complete profile that matches the program") {
    const fs::path dir = freshDir("all");
    const auto run = profile(
        dir, R"({"autoReport.all":"true","autoReport.directory":"out/nested"})", "--runs 3");
    INFO(run.output);
    REQUIRE(run.status == 0);
    // The directory did not exist: it is created.
    ProfileReader r((dir / "out/nested/profile.pop").string());
    CHECK(r.file().complete());
    CHECK(r.target().numTiles() == 16);
    CHECK(r.target().numIpus == 2);
    // The simulated target's floor plan (TargetSpec::tilesPerColumn) is in the report.
    const auto placement = r.tilePlacement();
    const auto expected = tilescope::report::TilePlacement::spineColumns(2, 8, 32);
    CHECK(placement.columns == expected.columns);
    CHECK(placement.rows == expected.rows);
    CHECK(placement.x == expected.x);
    CHECK(placement.y == expected.y);

    // Per-tile memory for every tile, and categories adding up to the totals.
    const auto summary = summarize(r);
    const PerTile total = r.tileMemoryTotal(true);
    REQUIRE(total.size() == 16);
    for (auto bytes : total)
        CHECK(bytes > 0);
    CHECK(std::accumulate(total.begin(), total.end(), std::uint64_t{0}) ==
          summary.totalBytesIncludingGaps);
    std::uint64_t byCategory = 0;
    for (const auto& c : summary.categories)
        byCategory += c.bytes;
    CHECK(byCategory == summary.totalBytesIncludingGaps);

    // Liveness: the scratch tensor is written and read inside the program, so it is not always
    // live and appears at the steps where it is live.
    bool scratchLive = false;
    for (std::int64_t s = 0; s < r.counts().steps; ++s)
        for (const auto& v : r.variablesLiveAt(s))
            scratchLive |= v.name == "scratch";
    CHECK(scratchLive);
    CHECK(summary.peakNotAlwaysLiveBytes > 0);

    // Runs: the default executionProfileProgramRunCount stores 2 of the 3.
    const auto runs = r.runs();
    REQUIRE(runs.size() == 2);
    CHECK(r.file().metadataValue("runs_total") == "3");
    for (const auto& run : runs) {
        CHECK(run.numSteps == static_cast<std::uint64_t>(r.counts().steps));
        CHECK(run.totalCycles > 0);
        CHECK(run.hostEndNs.value() > run.hostStartNs);
        const auto steps = r.runSteps(run, 0, 100, true);
        REQUIRE_FALSE(steps.empty());
        CHECK(steps.front().perTile.size() == 16);
    }

    // The options in force, with their sources.
    CHECK(optionValue(r, "autoReport.all") == "true/env");
    CHECK(optionValue(r, "autoReport.executionProfileProgramRunCount") == "2/default");
    CHECK(optionValue(r, "debug.computeInstrumentationLevel") == "tile/default");

    // The host trace is beside the report, with the engine's own events.
    fs::path trace;
    for (const auto& e : fs::directory_iterator(dir / "out/nested"))
        if (e.path().extension() == ".pvti")
            trace = e.path();
    REQUIRE_FALSE(trace.empty());
    HostTraceReader t(trace.string());
    CHECK(t.counts().events >= 3 * 2); // each run and its profile write, at least
    bool sawRun = false;
    for (const auto& th : t.threads())
        for (const auto& e : t.events(th.id, 0, 0, std::numeric_limits<std::int64_t>::max(), 1000))
            sawRun |= t.name(e.nameId) == "Engine::run";
    CHECK(sawRun);
}

TEST_CASE("the output options choose what the report holds") {
    const fs::path dir = freshDir("outputs");
    SECTION("executionProfileProgramRunCount") {
        REQUIRE(
            profile(dir,
                    R"({"autoReport.all":"true","autoReport.executionProfileProgramRunCount":"3"})",
                    "--runs 5")
                .status == 0);
        ProfileReader r((dir / "profile.pop").string());
        CHECK(r.runs().size() == 3);
        CHECK(r.file().metadataValue("runs_total") == "5");
    }
    SECTION("graph profile only") {
        REQUIRE(profile(dir, R"({"autoReport.outputGraphProfile":"true"})", "--runs 2").status ==
                0);
        ProfileReader r((dir / "profile.pop").string());
        CHECK(r.runs().empty());
        CHECK(r.counts().steps > 0);
        CHECK(r.counts().variables == 0); // outputLoweredVars is off
    }
    SECTION("lowered variables on request") {
        REQUIRE(
            profile(
                dir,
                R"({"autoReport.outputGraphProfile":"true","autoReport.outputLoweredVars":"true"})")
                .status == 0);
        ProfileReader r((dir / "profile.pop").string());
        CHECK(r.counts().variables >= 3);
    }
    SECTION("instrumentation level ipu stores cycles per IPU only") {
        REQUIRE(
            profile(dir, R"({"autoReport.all":"true","debug.computeInstrumentationLevel":"ipu"})")
                .status == 0);
        ProfileReader r((dir / "profile.pop").string());
        const auto steps = r.runSteps(r.runs().at(0), 0, 100, true);
        REQUIRE_FALSE(steps.empty());
        CHECK(steps.front().perTile.empty());
        CHECK(steps.front().perIpu.size() == 2);
        CHECK(optionValue(r, "debug.computeInstrumentationLevel") == "ipu/env");
    }
    SECTION("options that do not apply to a simulator are recorded as such") {
        REQUIRE(profile(dir, R"({"autoReport.all":"true","debug.verify":"true"})").status == 0);
        ProfileReader r((dir / "profile.pop").string());
        bool found = false;
        for (const auto& o : r.engineOptions())
            if (o.name == "debug.verify") {
                found = true;
                CHECK_FALSE(o.applies);
            }
        CHECK(found);
    }
}

TEST_CASE("a program calling a Graph::addFunction twice is captured with the function once") {
    const fs::path dir = freshDir("function");
    const auto run =
        profile(dir, R"({"autoReport.all":"true","autoReport.directory":"out"})", "--function 1");
    INFO(run.output);
    REQUIRE(run.status == 0);
    ProfileReader r((dir / "out/profile.pop").string());
    CHECK(r.file().complete());

    // One entry point (Engine::run(0)) and one function, numbered after the entry points.
    std::vector<ControlProgram> entries, functions;
    for (const auto& c : r.controlPrograms())
        (c.isFunction ? functions : entries).push_back(c);
    REQUIRE(entries.size() == 1);
    REQUIRE(functions.size() == 1);
    CHECK(entries[0].index == 0);
    CHECK(functions[0].index == 1);

    // The function's body is one tree of its own: an Execute of the compute set.
    const auto body = r.program(functions[0].programId);
    REQUIRE(body);
    CHECK_FALSE(body->parentId);
    const auto bodyChildren = r.children(body->id);
    const bool bodyIsExecute = body->kind == "Execute";
    const bool bodyHoldsExecute = bodyChildren.size() == 1 && bodyChildren[0].kind == "Execute";
    CHECK((bodyIsExecute || bodyHoldsExecute));

    // The entry point copies, then calls the function twice; both Calls refer to that tree.
    const auto main = r.children(entries[0].programId);
    std::vector<ProgramRecord> calls;
    for (const auto& p : main)
        if (p.kind == "Call")
            calls.push_back(p);
    REQUIRE(calls.size() == 2);
    for (const auto& c : calls) {
        CHECK(c.calleeId == body->id);
        CHECK(r.children(c.id).empty()); // the body is not copied under each Call
    }
    int executes = 0;
    std::vector<std::optional<std::int64_t>> pending = {std::nullopt};
    while (!pending.empty()) {
        const auto parent = pending.back();
        pending.pop_back();
        for (const auto& p : r.children(parent)) {
            executes += p.kind == "Execute";
            pending.push_back(p.id);
        }
    }
    CHECK(executes == 1);
    const auto runs = r.runs();
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].totalCycles > 0);
}

TEST_CASE("several engines in one process write one report folder each") {
    const fs::path dir = freshDir("engines");
    REQUIRE(profile(dir, R"({"autoReport.all":"true","autoReport.directory":"r"})", "--engines 2")
                .status == 0);
    CHECK(ProfileReader((dir / "r/profile.pop").string()).file().metadataValue("engine_name") ==
          "engine1");
    CHECK(ProfileReader((dir / "r/engine2/profile.pop").string())
              .file()
              .metadataValue("engine_name") == "engine2");
}

TEST_CASE("a second process sees each completed run while the program is between runs") {
    const fs::path dir = freshDir("stream");
    const fs::path handshake = dir / "handshake";
    fs::create_directories(handshake);
    Outcome result;
    std::thread program([&] {
        result = profile(dir,
                         R"({"autoReport.all":"true","autoReport.streamAtEachRun":"true",)"
                         R"("autoReport.executionProfileProgramRunCount":"3"})",
                         "--runs 3 --handshake " + quote(handshake.string()));
    });
    auto waitFor = [](const fs::path& f) {
        for (int i = 0; i < 6000 && !fs::exists(f); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return fs::exists(f);
    };
    for (int r = 0; r < 3; ++r) {
        REQUIRE(waitFor(handshake / ("ran" + std::to_string(r))));
        // This process is the "second process": the program is paused between runs.
        ProfileReader reader((dir / "profile.pop").string());
        CHECK_FALSE(reader.file().complete());
        const auto runs = reader.runs();
        CHECK(runs.size() == static_cast<std::size_t>(r + 1));
        for (const auto& run : runs)
            CHECK(run.hostEndNs.has_value());
        std::ofstream(handshake / ("go" + std::to_string(r)));
    }
    program.join();
    INFO(result.output);
    CHECK(result.status == 0);
    CHECK(ProfileReader((dir / "profile.pop").string()).file().complete());
}

TEST_CASE("an out-of-memory program leaves a report showing the tiles over their limit") {
    const fs::path dir = freshDir("oom");
    const auto run = runIn(dir, options(R"({"autoReport.all":"true","autoReport.directory":"r"})"),
                           OUT_OF_MEMORY_EXAMPLE, "");
    INFO(run.output);
    ProfileReader r((dir / "r/profile.pop").string());
    CHECK(r.outOfMemory());
    const auto summary = summarize(r);
    CHECK(summary.tilesOverCapacity >= 1);
    CHECK(summary.maxTileBytesIncludingGaps > r.target().bytesPerTile);
    CHECK_FALSE(r.file().metadataValue("tiles_out_of_memory").empty());
}

TEST_CASE("malformed options give one clear error naming the variable and the option") {
    const fs::path dir = freshDir("bad");
    struct Case {
        const char* env;
        std::vector<const char*> mentions;
    };
    const std::vector<Case> cases = {
        {R"(POPLAR_ENGINE_OPTIONS='{"autoReport.all":')", {"POPLAR_ENGINE_OPTIONS", "JSON"}},
        {R"(POPLAR_ENGINE_OPTIONS='["autoReport.all"]')", {"POPLAR_ENGINE_OPTIONS", "object"}},
        {R"(POPLAR_ENGINE_OPTIONS='{"autoReport.all":true}')",
         {"POPLAR_ENGINE_OPTIONS", "autoReport.all", "string"}},
        {R"(POPLAR_ENGINE_OPTIONS='{"autoReport.al":"true"}')",
         {"POPLAR_ENGINE_OPTIONS", "autoReport.al", "not a known"}},
        {R"(POPLAR_ENGINE_OPTIONS='{"autoReport.all":"yes"}')",
         {"POPLAR_ENGINE_OPTIONS", "autoReport.all", "\"true\" or \"false\""}},
        {R"(POPLAR_ENGINE_OPTIONS='{"debug.computeInstrumentationLevel":"cycle"}')",
         {"debug.computeInstrumentationLevel", "\"vertex\", \"tile\" or \"ipu\""}},
        {R"(POPLAR_ENGINE_OPTIONS='{"autoReport.executionProfileProgramRunCount":"-1"}')",
         {"executionProfileProgramRunCount", "non-negative integer"}},
        {R"(PVTI_OPTIONS='{"enable":"maybe"}')", {"PVTI_OPTIONS", "enable"}},
        {R"(PVTI_OPTIONS='not json')", {"PVTI_OPTIONS", "JSON"}},
    };
    for (const auto& c : cases) {
        const auto run = runIn(dir, c.env, AUTOREPORT_PROGRAM, quote(BASIC_CODELETS));
        INFO(c.env << "\n" << run.output);
        CHECK(run.status == 1);
        CHECK(std::count(run.output.begin(), run.output.end(), '\n') == 1);
        for (const char* m : c.mentions)
            CHECK_THAT(run.output, Catch::Contains(m));
    }
}

TEST_CASE("a run on simulated IPU hardware is recorded as such with the options that do not "
          "apply") {
    const fs::path dir = freshDir("simulated");
    const std::string env =
        "TILESCOPE_SIMULATED_IPUS=4 TILESCOPE_DEVICE_LOCK_DIR=" + quote((dir / "locks").string()) +
        " " +
        options(R"({"autoReport.all":"true","autoReport.directory":"out",)"
                R"("exchange.streamBufferOverlap":"none",)"
                R"("target.hostSyncTimeout":"900"})");
    const auto run = runIn(dir, env, AUTOREPORT_PROGRAM, quote(BASIC_CODELETS) + " --simulated 1");
    INFO(run.output);
    REQUIRE(run.status == 0);
    ProfileReader r((dir / "out/profile.pop").string());
    CHECK(r.target().type == "IPU (simulated)");
    CHECK(r.target().numIpus == 2);
    CHECK(r.target().tilesPerIpu == 8);
    std::map<std::string, bool> applies;
    for (const auto& o : r.engineOptions())
        applies[o.name] = o.applies;
    REQUIRE(applies.count("exchange.streamBufferOverlap"));
    CHECK_FALSE(applies["exchange.streamBufferOverlap"]);
    CHECK_FALSE(applies["target.hostSyncTimeout"]);
    CHECK(applies["autoReport.all"]);
    CHECK(optionValue(r, "exchange.streamBufferOverlap") == "none/env");
    // Hardware compiles IPU code, and its memory is charged.
    CHECK(r.file().metadataValue("ipu_code_compiled") == "true");
    const auto codeBytes = [](const ProfileReader& reader) {
        std::uint64_t bytes = 0;
        for (const auto& c : summarize(reader).categories)
            if (c.name == "control_code" || c.name == "vertex_code")
                bytes += c.bytes;
        return bytes;
    };
    CHECK(codeBytes(r) > 0);

    // The same program on the IPU model, which compiles no code by default (compileIPUCode).
    const fs::path modelDir = freshDir("simulated-model");
    REQUIRE(profile(modelDir, R"({"autoReport.all":"true"})").status == 0);
    const ProfileReader model((modelDir / "profile.pop").string());
    CHECK(model.target().type == "IPU_MODEL");
    CHECK(model.file().metadataValue("ipu_code_compiled") == "false");
    CHECK(codeBytes(model) == 0);
}
