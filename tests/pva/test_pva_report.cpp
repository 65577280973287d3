// The pva-style face returns exactly the figures a small, hand-written report was given: target,
// graph sizes, tiles with memory by category and region, the program tree, compute sets,
// variables, liveness steps, runs and executed steps with cycles by tile and by IPU. Failures
// come out as pva exceptions carrying the reader's message.

#include "pva/pva.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ProfileWriter.hpp"
#include "tilescope/report/Version.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace tilescope::report;

namespace {

constexpr std::int64_t kRunStartNs = 1'700'000'000'123'456'789;
constexpr std::int64_t kRunEndNs = kRunStartNs + 2'500'000;

/// 2 IPUs x 4 tiles, two regions, a five-program tree, four steps, three variables, one run of
/// two steps. Returns the report's path.
fs::path writeKnownReport(const std::string& name, bool withPoplarVersion,
                          const std::string& targetType = "IPU_MODEL") {
    const fs::path dir = fs::path(PVA_TEST_DIR);
    fs::create_directories(dir);
    const fs::path path = dir / name;
    ProfileWriter w(path);
    if (withPoplarVersion)
        w.setMetadata("poplar_version", "3.3.0+1403");
    TargetInfo t;
    t.type = targetType;
    t.ipuVersion = "ipu2";
    t.numIpus = 2;
    t.tilesPerIpu = 4;
    t.bytesPerTile = 1000;
    t.clockHz = 1.33e9;
    t.replicas = 2;
    t.workerContexts = 6;
    t.exchangeBytesPerCycle = 4;
    t.regions = {{1, "interleaved", true, 0, 200}, {2, "non_interleaved", false, 200, 800}};
    w.setTarget(t);
    w.setTileMemory("vertex_code", "non_interleaved", {10, 20, 30, 40, 50, 60, 70, 80});
    w.setTileMemory("vertex_code", "interleaved", {1, 2, 3, 4, 5, 6, 7, 8});
    w.setTileMemory("stack", "non_interleaved", {100, 100, 100, 100, 100, 100, 100, 100});
    w.setTileMemory("not_always_live_variables", "non_interleaved", {8, 8, 8, 8, 24, 24, 8, 8});
    w.setTileMemory("always_live_variables", "interleaved", {50, 50, 50, 50, 50, 50, 50, 50});
    w.setTileMemory("gap", "non_interleaved", {7, 0, 0, 0, 0, 0, 0, 9});
    // Categories of issue 18, and the receive buffers that only older simulators wrote.
    w.setTileMemory("copy_descriptors", "non_interleaved", {0, 16, 0, 0, 0, 0, 0, 0});
    w.setTileMemory("host_exchange_packet_headers", "non_interleaved", {0, 8, 0, 0, 0, 0, 0, 0});
    w.setTileMemory("global_exchange_packet_headers", "non_interleaved", {0, 0, 8, 0, 0, 0, 0, 0});
    w.setTileMemory("control_table", "non_interleaved", {0, 0, 0, 12, 0, 0, 0, 0});
    w.setTileMemory("exchange_buffers", "non_interleaved", {0, 0, 0, 0, 0, 0, 32, 0});

    const auto cs1 = w.addComputeSet({0, "cs1", "layer1/cs1", 10});
    const auto cs2 = w.addComputeSet({0, "cs2", "layer2/cs2", 5});
    const auto vt = w.addVertexType({0, "Add", 32, 256});
    VertexInstancesRecord instances;
    instances.computeSetId = cs1;
    instances.vertexTypeId = vt;
    instances.count = 10;
    instances.perTile = {3, 3, 2, 2, 0, 0, 0, 0};
    w.addVertexInstances(instances);
    instances.computeSetId = cs2;
    instances.count = 5;
    instances.perTile = {0, 0, 0, 0, 2, 1, 1, 1};
    w.addVertexInstances(instances);

    ProgramRecord p;
    p.kind = "Sequence";
    p.name = "main";
    const auto main = w.addProgram(p);
    const auto child = [&](std::int64_t parent, std::int64_t position, const char* kind,
                           const char* name, std::optional<std::int64_t> cs = std::nullopt) {
        ProgramRecord c;
        c.parentId = parent;
        c.position = position;
        c.kind = kind;
        c.name = name;
        c.debugPath = std::string("main/") + name;
        c.computeSetId = cs;
        return w.addProgram(c);
    };
    const auto exec1 = child(main, 0, "Execute", "exec1", cs1);
    const auto copy1 = child(main, 1, "Copy", "copy1");
    const auto loop = child(main, 2, "Repeat", "loop");
    const auto exec2 = child(loop, 0, "Execute", "exec2", cs2);
    p.name = "fn";
    const auto fn = w.addProgram(p);
    w.addControlProgram({0, main, false, "main"});
    w.addControlProgram({1, fn, true, "fn"});

    const auto step = [&](std::int64_t program, const char* kind, std::uint64_t cycles,
                          std::uint64_t nal, std::uint64_t maxTileNal) {
        StepRecord s;
        s.programId = program;
        s.kind = kind;
        s.estimatedCycles = cycles;
        s.notAlwaysLiveBytes = nal;
        s.maxTileNotAlwaysLiveBytes = maxTileNal;
        return w.addStep(s);
    };
    step(exec1, "OnTileExecute", 100, 64, 8);
    step(copy1, "DoExchange", 50, 96, 24);
    step(exec2, "OnTileExecute", 70, 0, 0);
    step(main, "Sync", 5, 0, 0);

    const auto variable = [&](const char* name, const char* category, bool alwaysLive,
                              std::optional<std::int64_t> first, std::optional<std::int64_t> last,
                              PerTile perTile) {
        VariableRecord v;
        v.name = name;
        v.debugPath = std::string("vars/") + name;
        v.elementType = "float";
        for (auto b : perTile)
            v.bytes += b;
        v.numElements = v.bytes / 4;
        v.categoryId = memoryCategoryId(category);
        v.regionId = 2;
        v.alwaysLive = alwaysLive;
        v.firstStep = first;
        v.lastStep = last;
        v.perTile = std::move(perTile);
        return w.addVariable(v);
    };
    variable("weights", "always_live_variables", true, {}, {}, {50, 50, 50, 50, 50, 50, 50, 50});
    const auto act =
        variable("act", "not_always_live_variables", false, 0, 1, {8, 8, 8, 8, 8, 8, 8, 8});
    variable("tmp", "not_always_live_variables", false, 1, 1, {0, 0, 0, 0, 16, 16, 0, 0});
    OperationRecord op;
    op.name = "matMul";
    op.debugPath = "layer1/matMul";
    op.layer = "PopLibs";
    op.programIds = {exec1};
    op.variableIds = {act};
    op.debugJson = R"({"api":"matMul","args":{"A":{"shape":"[4, 2]","type":"float"}},)"
                   R"("output":{"name":"act","shape":"[4, 8]","type":"float"}})";
    w.addOperation(op);
    w.finishCompilation();

    w.beginRun(0, kRunStartNs);
    RunStepRecord r;
    r.stepId = 0;
    r.startCycle = 0;
    r.cycles = 100;
    r.perIpu = {100, 80};
    r.perTile = {100, 90, 0, 0, 80, 0, 0, 0};
    w.addRunStep(r);
    r.stepId = 1;
    r.startCycle = 100;
    r.cycles = 50;
    r.perIpu = {};
    r.perTile = {50, 50, 50, 50, 50, 50, 50, 25};
    w.addRunStep(r);
    w.endRun(kRunEndNs);
    w.close();
    return path;
}

} // namespace

TEST_CASE("simulated IPU hardware is an IPU target and unknown types are Unknown") {
    CHECK(pva::openReport(writeKnownReport("simulated.pop", true, "IPU (simulated)").string())
              .compilation()
              .target()
              .type() == pva::Target::Type::IPU);
    CHECK(pva::openReport(writeKnownReport("cpu.pop", true, "CPU").string())
              .compilation()
              .target()
              .type() == pva::Target::Type::Unknown);
}

TEST_CASE("version, target and graph figures") {
    const auto report = pva::openReport(writeKnownReport("figures.pop", true).string());
    CHECK(report.poplarVersion().string() == "3.3.0+1403");
    CHECK(report.poplarVersion().major() == 3);
    CHECK(report.poplarVersion().minor() == 3);
    CHECK(report.poplarVersion().point() == 0);
    CHECK(report.poplarVersion().packageHash() == "1403");

    const auto target = report.compilation().target();
    CHECK(target.type() == pva::Target::Type::IPU_MODEL);
    CHECK(target.architecture() == "ipu2");
    // The report holds one replica of 2 IPUs; pva counts both replicas' IPUs.
    CHECK(target.numIPUs() == 4);
    CHECK(target.tilesPerIPU() == 4);
    CHECK(target.numTiles() == 16);
    CHECK(target.bytesPerTile() == 1000);
    CHECK(target.bytesPerIPU() == 4000);
    CHECK(target.clockFrequency() == Approx(1.33e9));
    CHECK(target.numReplicas() == 2);
    CHECK(target.ipusPerReplica() == 2);
    CHECK(target.tilesPerReplica() == 8);
    CHECK(target.numWorkerContexts() == 6);
    CHECK(target.exchangeBytesPerCycle() == 4);

    const auto graph = report.compilation().graph();
    CHECK(graph.numComputeSets() == 2);
    CHECK(graph.numVertices() == 15);
    CHECK(graph.numVars() == 3);
    CHECK(graph.numVertexTypes() == 1);
    CHECK_FALSE(report.compilation().outOfMemory());
}

TEST_CASE("without poplar_version the version is the tools' version") {
    const auto report = pva::openReport(writeKnownReport("noversion.pop", false).string());
    CHECK(report.poplarVersion().string() == kToolVersion);
    CHECK(pva::Version("3.2.0 (fb5f8c9b40)").packageHash() == "fb5f8c9b40");
    CHECK(pva::Version("3.2.0 (fb5f8c9b40)").minor() == 2);
}

TEST_CASE("tiles with memory by category, region and liveness") {
    const auto tiles =
        pva::openReport(writeKnownReport("tiles.pop", true).string()).compilation().tiles();
    REQUIRE(tiles.size() == 8);
    CHECK(tiles[5].number() == 5);
    CHECK(tiles[5].ipu() == 1);
    CHECK(tiles[5].tileOnIpu() == 1);
    const auto& m0 = tiles[0].memory();
    CHECK(m0.category().vertexCode.nonInterleaved() == 10);
    CHECK(m0.category().vertexCode.interleaved() == 1);
    CHECK(m0.category().vertexCode.total() == 11);
    CHECK(m0.category().stack.total() == 100);
    CHECK(m0.category().variable.interleaved() == 50);
    CHECK(m0.category().gap.total() == 7);
    CHECK(m0.category().byName("stack").total() == 100);
    CHECK_THROWS_AS(m0.category().byName("nonsense"), pva::error);
    CHECK(tiles[1].memory().category().copyDescriptor.total() == 16);
    CHECK(tiles[1].memory().category().hostExchangePacketHeader.total() == 8);
    CHECK(tiles[2].memory().category().globalExchangePacketHeader.total() == 8);
    CHECK(tiles[3].memory().category().controlTable.total() == 12);
    CHECK(tiles[3].memory().category().byName("control_table").total() == 12);
    CHECK(tiles[6].memory().category().exchangeBuffers.total() == 32);
    CHECK(tiles[1].memory().alwaysLiveBytes() ==
          tiles[0].memory().alwaysLiveBytes() - 11 + 22 + 16 + 8);
    CHECK(m0.total().includingGaps() == 11 + 100 + 8 + 50 + 7);
    CHECK(m0.total().excludingGaps() == 11 + 100 + 8 + 50);
    CHECK(m0.alwaysLiveBytes() == 11 + 100 + 50);
    CHECK(m0.notAlwaysLiveBytes() == 8);
    CHECK(tiles[4].memory().notAlwaysLiveBytes() == 24);
    CHECK(tiles[7].memory().total().includingGaps() == 88 + 100 + 8 + 50 + 9);
}

TEST_CASE("program tree, control programs and functions") {
    const auto report = pva::openReport(writeKnownReport("programs.pop", true).string());
    const auto programs = report.compilation().programs();
    REQUIRE(programs.size() == 6);
    std::vector<std::string> names;
    for (const auto& p : programs)
        names.push_back(p->name());
    CHECK(names == std::vector<std::string>{"main", "exec1", "copy1", "loop", "exec2", "fn"});

    const auto control = report.compilation().controlPrograms();
    REQUIRE(control.size() == 1);
    CHECK(control[0]->name() == "main");
    CHECK(control[0]->type() == pva::Program::Type::Sequence);
    const auto kids = control[0]->children();
    REQUIRE(kids.size() == 3);
    CHECK(kids[0]->type() == pva::Program::Type::OnTileExecute);
    CHECK(kids[0]->kind() == "Execute");
    CHECK(kids[0]->debugPath() == "main/exec1");
    CHECK(kids[1]->type() == pva::Program::Type::Copy);
    CHECK(kids[2]->type() == pva::Program::Type::Repeat);
    CHECK(kids[2]->children().at(0)->name() == "exec2");
    CHECK(kids[2]->children().at(0)->id() == kids[2]->children().at(0)->_id());
    CHECK(pva::toString(kids[2]->type()) == "Repeat");

    const auto functions = report.compilation().functions();
    REQUIRE(functions.size() == 1);
    CHECK(functions[0]->name() == "fn");
}

TEST_CASE("a cross-replica collective is a Sequence, as GCL builds one") {
    const fs::path path = fs::path(PVA_TEST_DIR) / "collective.pop";
    fs::create_directories(path.parent_path());
    {
        ProfileWriter w(path);
        TargetInfo t;
        t.type = "IPU_MODEL";
        t.ipuVersion = "ipu2";
        t.numIpus = 1;
        t.tilesPerIpu = 4;
        t.bytesPerTile = 1000;
        t.clockHz = 1.33e9;
        t.replicas = 4;
        w.setTarget(t);
        ProgramRecord p;
        p.kind = "Sequence";
        p.name = "main";
        const auto main = w.addProgram(p);
        ProgramRecord c;
        c.parentId = main;
        c.kind = "CrossReplica";
        c.name = "allReduce ADD x";
        w.addProgram(c);
        w.addControlProgram({0, main, false, "main"});
    }
    const auto report = pva::openReport(path.string());
    const auto kids = report.compilation().controlPrograms().at(0)->children();
    REQUIRE(kids.size() == 1);
    CHECK(kids[0]->type() == pva::Program::Type::Sequence);
    CHECK(kids[0]->kind() == "CrossReplica");
    CHECK(pva::toString(kids[0]->type()) == "Sequence");
}

TEST_CASE("compute sets and variables") {
    const auto compilation =
        pva::openReport(writeKnownReport("variables.pop", true).string()).compilation();
    const auto cs = compilation.computeSets();
    REQUIRE(cs.size() == 2);
    CHECK(cs[0].name() == "cs1");
    CHECK(cs[0].debugPath() == "layer1/cs1");
    CHECK(cs[0].numVertices() == 10);
    CHECK(cs[1].numVertices() == 5);

    const auto vars = compilation.variables();
    REQUIRE(vars.size() == 3);
    CHECK(vars[0].name() == "weights");
    CHECK(vars[0].size() == 400);
    CHECK(vars[0].numElements() == 100);
    CHECK(vars[0].elementType() == "float");
    CHECK(vars[0].alwaysLive());
    CHECK(vars[0].category() == "always_live_variables");
    CHECK(vars[2].debugPath() == "vars/tmp");
    CHECK(compilation.alwaysLiveVariables().size() == 1);
    CHECK(compilation.notAlwaysLiveVariables().size() == 2);
}

TEST_CASE("debug contexts of programs, variables and the compilation") {
    const auto report = pva::openReport(writeKnownReport("debug.pop", true).string());
    const auto compilation = report.compilation();
    const auto all = compilation.debugContexts();
    REQUIRE(all.size() == 1);
    CHECK(all[0].name() == "matMul");
    CHECK(all[0].layer() == "PopLibs");
    CHECK(all[0].debugPath() == "layer1/matMul");
    CHECK(all[0].json().find(R"("output":{"name":"act")") != std::string::npos);

    for (const auto& p : compilation.programs()) {
        INFO(p->name());
        CHECK(p->debugContexts().size() == (p->name() == "exec1" ? 1u : 0u));
    }
    for (const auto& v : compilation.variables()) {
        INFO(v.name());
        const auto dcs = v.debugContexts();
        REQUIRE(dcs.size() == (v.name() == "act" ? 1u : 0u));
        if (!dcs.empty())
            CHECK(dcs[0].id() == all[0].id());
    }
    // A step's lowered program has the debug contexts of the program it came from.
    const auto steps = compilation.livenessProgramSteps();
    CHECK(steps.at(0).program()->debugContexts().size() == 1);
    CHECK(steps.at(1).program()->debugContexts().empty());
}

TEST_CASE("liveness program steps") {
    const auto steps = pva::openReport(writeKnownReport("liveness.pop", true).string())
                           .compilation()
                           .livenessProgramSteps();
    REQUIRE(steps.size() == 4);
    CHECK(steps[0].index() == 0);
    CHECK(steps[0].program()->name() == "exec1");
    CHECK(steps[0].program()->type() == pva::Program::Type::OnTileExecute);
    CHECK(steps[0].program()->children().empty());
    CHECK(steps[1].program()->type() == pva::Program::Type::DoExchange);
    CHECK(steps[1].program()->name() == "copy1");
    CHECK(steps[3].program()->type() == pva::Program::Type::Sync);
    CHECK(steps[0].cycleEstimate() == 100);
    CHECK(steps[0].notAlwaysLiveMemory().bytes() == 64);
    CHECK(steps[1].notAlwaysLiveMemory().bytes() == 96);
    CHECK(steps[1].maxTileNotAlwaysLiveBytes() == 24);

    const auto live = steps[1].notAlwaysLiveMemory().variables();
    REQUIRE(live.size() == 2);
    CHECK(live[0].name() == "act"); // largest first: 64 bytes before 32
    CHECK(live[1].name() == "tmp");
    CHECK(steps[2].notAlwaysLiveMemory().variables().empty());

    const auto onTile4 = steps[1].notAlwaysLiveMemoryForTile(4);
    CHECK(onTile4.bytes() == 24);
    CHECK(onTile4.variables().size() == 2);
    const auto onTile0 = steps[1].notAlwaysLiveMemoryForTile(0);
    CHECK(onTile0.bytes() == 8);
    REQUIRE(onTile0.variables().size() == 1);
    CHECK(onTile0.variables()[0].name() == "act");
    CHECK_THROWS_AS(steps[1].notAlwaysLiveMemoryForTile(8), pva::error);
}

TEST_CASE("runs and executed steps with cycles by tile and by IPU") {
    const auto execution =
        pva::openReport(writeKnownReport("execution.pop", true).string()).execution();
    const auto runs = execution.runs();
    REQUIRE(runs.size() == 1);
    const auto& run = runs[0];
    CHECK(run.complete());
    CHECK(run.programIndex() == 0);
    CHECK(run.program()->name() == "main");
    CHECK(run.microseconds().start() == static_cast<std::uint64_t>(kRunStartNs / 1000));
    CHECK(run.microseconds().end() == static_cast<std::uint64_t>(kRunEndNs / 1000));
    CHECK(run.cycles() == 150);
    CHECK(run.numSteps() == 2);

    const auto steps = run.steps();
    REQUIRE(steps.size() == 2);
    CHECK(steps[0].program()->name() == "exec1");
    CHECK(steps[0].program()->type() == pva::Program::Type::OnTileExecute);
    CHECK(steps[0].programStepIndex() == 0);
    CHECK(steps[0].cyclesFrom() == 0);
    CHECK(steps[0].cyclesTo() == 100);
    CHECK(steps[1].cyclesFrom() == 100);
    CHECK(steps[1].cyclesTo() == 150);
    CHECK(steps[0].activeTiles() == 3);
    CHECK(steps[0].cyclesByTile() == std::vector<std::uint64_t>{100, 90, 0, 0, 80, 0, 0, 0});

    const auto ipus = steps[0].ipus();
    REQUIRE(ipus.size() == 2);
    CHECK(ipus[0].cycles() == 100);
    CHECK(ipus[1].cycles() == 80);
    CHECK(ipus[0].activeTiles() == 2);
    CHECK(ipus[1].activeTiles() == 1);
    CHECK(ipus[0].activeTileBalance() == Approx(0.95));
    CHECK(ipus[1].cyclesByTile() == std::vector<std::uint64_t>{80, 0, 0, 0});
    // Without per-IPU cycles recorded, an IPU's cycles are its slowest tile's.
    CHECK(steps[1].ipus()[1].cycles() == 50);
    CHECK(steps[1].ipus()[1].activeTiles() == 4);

    CHECK(execution.steps().size() == 2);
}

TEST_CASE("objects stay valid after the report is gone") {
    std::vector<pva::ProgramStep> steps;
    std::vector<pva::Run> runs;
    {
        const auto report = pva::openReport(writeKnownReport("lifetime.pop", true).string());
        steps = report.compilation().livenessProgramSteps();
        runs = report.execution().runs();
    }
    CHECK(steps.at(0).program()->name() == "exec1");
    CHECK(runs.at(0).steps().at(1).cyclesByTile().at(7) == 25);
}

TEST_CASE("failures are pva exceptions naming the file") {
    const fs::path dir = fs::path(PVA_TEST_DIR);
    fs::create_directories(dir);
    const std::string missing = (dir / "missing.pop").string();
    try {
        pva::openReport(missing);
        FAIL("opening a missing report must throw");
    } catch (const pva::openfile_error& e) {
        CHECK(std::string(e.what()).starts_with(missing + ": "));
    }

    const std::string text = (dir / "text.pop").string();
    std::ofstream(text) << "not a report\n";
    CHECK_THROWS_AS(pva::openReport(text), pva::openfile_error);

    const std::string trace = (dir / "trace.pvti").string();
    HostTraceWriter(trace).close();
    try {
        pva::openReport(trace);
        FAIL("opening a host trace as a report must throw");
    } catch (const pva::error& e) {
        CHECK(std::string(e.what()).find("host trace") != std::string::npos);
    }
}
