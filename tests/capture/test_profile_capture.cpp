// ProfileCapture writes the simulator's neutral records into a report; read back through the
// reader, every figure must be the one recorded.

#include "tilescope/capture/ProfileCapture.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ProfileSummary.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace tilescope;
using namespace tilescope::capture;
namespace fs = std::filesystem;

namespace {

// Two IPUs of two tiles; a Sequence of Execute, Copy (exchange) and Sync; one always-live and one
// not-always-live variable.
CompileRecords smallCompilation(bool outOfMemory) {
    CompileRecords r;
    r.target.architecture = "ipu2";
    r.target.numIpus = 2;
    r.target.tilesPerIpu = 2;
    r.target.bytesPerTile = 1000;
    r.target.clockHz = 1.33e9;
    r.target.regions = {{MemoryRegionKind::NonInterleaved, 0, 400},
                        {MemoryRegionKind::Interleaved, 400, 600}};
    auto set = [&](MemoryCategory c, MemoryRegionKind k, PerTile v) { r.memory.of(c, k) = v; };
    set(MemoryCategory::VertexCode, MemoryRegionKind::NonInterleaved, {100, 100, 0, 50});
    set(MemoryCategory::AlwaysLiveVariables, MemoryRegionKind::Interleaved, {200, 200, 200, 200});
    set(MemoryCategory::NotAlwaysLiveVariables, MemoryRegionKind::Interleaved, {64, 0, 0, 0});
    set(MemoryCategory::Gap, MemoryRegionKind::Interleaved, {8, 8, 8, 8});
    if (outOfMemory)
        set(MemoryCategory::Stack, MemoryRegionKind::NonInterleaved, {900, 0, 0, 0});

    r.computeSets = {{"layer/cs", 3}};
    r.vertexTypes = {{"MyVertex", 256, 16, {1, 1, 0, 1}}};
    r.vertexInstances = {{0, 0, 3, {1, 1, 0, 1}}};
    r.programs.resize(4);
    r.programs[0] = {0, ProgramKind::Sequence, "main", {1, 2, 3}, {}, -1, -1, -1, {}};
    r.programs[1] = {1, ProgramKind::Execute, "layer/cs", {}, {0}, 0, -1, -1, {10, 10, 0, 10}};
    r.programs[2] = {2, ProgramKind::Copy, "copy", {}, {1}, -1, -1, -1, {4, 4, 4, 4}};
    r.programs[3] = {3, ProgramKind::Sync, "sync", {}, {2}, -1, -1, -1, {}};
    r.entryPoints = {{"main", 0}};
    StepRecord execute;
    execute.kind = StepKind::OnTileExecute;
    execute.program = 1;
    execute.computeSet = 0;
    execute.estimatedCyclesPerTile = {100, 120, 0, 80};
    execute.notAlwaysLiveBytesPerTile = {64, 0, 0, 0};
    StepRecord exchange;
    exchange.kind = StepKind::DoExchange;
    exchange.program = 2;
    exchange.exchangeBytesPerTile = {16, 16, 0, 0};
    exchange.estimatedCyclesPerTile = {10, 10, 0, 0};
    exchange.notAlwaysLiveBytesPerTile = {0, 0, 0, 0};
    StepRecord sync;
    sync.kind = StepKind::Sync;
    sync.program = 3;
    sync.estimatedCyclesPerTile = {5, 5, 5, 5};
    sync.notAlwaysLiveBytesPerTile = {0, 0, 0, 0};
    r.steps = {execute, exchange, sync};
    VariableRecord weights;
    weights.name = "weights";
    weights.elementType = "float";
    weights.numElements = 200;
    weights.elementBytes = 4;
    weights.bytesPerTile = {200, 200, 200, 200};
    VariableRecord tmp;
    tmp.name = "tmp";
    tmp.elementType = "half";
    tmp.numElements = 32;
    tmp.elementBytes = 2;
    tmp.alwaysLive = false;
    tmp.firstLiveStep = 0;
    tmp.lastLiveStep = 0;
    tmp.bytesPerTile = {64, 0, 0, 0};
    tmp.region = MemoryRegionKind::NonInterleaved;
    r.variables = {weights, tmp};
    if (outOfMemory)
        r.tilesOutOfMemory = {0};
    return r;
}

RunRecord run(std::uint32_t n) {
    RunRecord r;
    r.hostStartNs = 1'000'000 * n;
    r.hostEndNs = r.hostStartNs + 5000;
    auto step = [](std::uint32_t id, std::uint64_t start, tilescope::capture::PerTile cycles) {
        tilescope::capture::StepExecutionRecord s;
        s.step = id;
        s.startCycle = start;
        s.cyclesPerTile = std::make_shared<const tilescope::capture::PerTile>(std::move(cycles));
        return s;
    };
    r.steps = {step(0, 0, {100, 120, 0, 80}), step(1, 120, {10, 10, 0, 0}),
               step(2, 130, {5, 5, 5, 5})};
    r.totalCycles = 135;
    return r;
}

fs::path freshFile(const char* name) {
    const fs::path dir = fs::temp_directory_path() / "tilescope-capture-tests";
    fs::create_directories(dir);
    fs::remove(dir / name);
    return dir / name;
}

} // namespace

TEST_CASE("compile records and runs read back through the report reader") {
    ProfileCaptureSettings settings;
    settings.file = freshFile("capture.pop");
    settings.engineName = "engine0";
    settings.options = {{"autoReport.all", "true", "env", true}};
    settings.storedRuns = 2;
    {
        ProfileCapture capture(settings);
        capture.writeCompilation(smallCompilation(false));
        for (std::uint32_t i = 0; i < 3; ++i)
            capture.writeRun(run(i));
        CHECK(capture.runsSeen() == 3);
    }
    report::ProfileReader reader(settings.file.string());
    CHECK(reader.file().metadataValue("engine_name") == "engine0");
    CHECK(reader.file().metadataValue("runs_total") == "3");
    CHECK(reader.target().numTiles() == 4);
    REQUIRE(reader.target().regions.size() == 2);
    CHECK(reader.target().regions[1].name == "interleaved");

    const auto summary = report::summarize(reader);
    CHECK(summary.totalBytesIncludingGaps == 250 + 800 + 64 + 32);
    CHECK(summary.totalBytesExcludingGaps == 250 + 800 + 64);
    CHECK(summary.peakNotAlwaysLiveBytes == 64);
    CHECK_FALSE(summary.outOfMemory);

    const auto roots = reader.children(std::nullopt);
    REQUIRE(roots.size() == 1);
    CHECK(roots[0].name == "main");
    const auto kids = reader.children(roots[0].id);
    REQUIRE(kids.size() == 3);
    CHECK(kids[0].kind == "Execute");
    CHECK(kids[0].codeBytes == 30);
    CHECK(kids[1].kind == "Copy");

    const auto steps = reader.steps(0, 10, true);
    REQUIRE(steps.size() == 3);
    CHECK(steps[0].kind == "OnTileExecute");
    CHECK(steps[0].estimatedCycles == 120);
    CHECK(steps[0].notAlwaysLiveBytes == 64);
    CHECK(steps[1].exchangeBytes == 32);
    CHECK(steps[1].phase == "exchange");
    CHECK(steps[0].programId == kids[0].id);

    const auto live = reader.variablesLiveAt(0);
    REQUIRE(live.size() == 1);
    CHECK(live[0].name == "tmp");
    CHECK(live[0].regionId == reader.target().regions[0].id); // non_interleaved
    const auto all = reader.variables(0, 10);
    REQUIRE(all.size() == 2);
    CHECK(all[0].regionId == reader.target().regions[1].id); // interleaved by default

    const auto instances = reader.vertexInstances(std::nullopt, true);
    REQUIRE(instances.size() == 1);
    CHECK(instances[0].count == 3);
    CHECK(instances[0].perTile == report::PerTile{1, 1, 0, 1});
    CHECK(reader.computeSets(0, 10).at(0).name == "layer/cs");
    CHECK(reader.notAlwaysLiveBytesAt(0) == report::PerTile{64, 0, 0, 0});
    CHECK(reader.variablesLiveAt(1).empty());

    const auto runs = reader.runs();
    REQUIRE(runs.size() == 2); // executionProfileProgramRunCount
    CHECK(runs[0].numSteps == 3);
    CHECK(runs[0].totalCycles == 135);
    const auto runSteps = reader.runSteps(runs[1], 0, 3, true);
    REQUIRE(runSteps.size() == 3);
    CHECK(runSteps[0].cycles == 120);
    CHECK(runSteps[0].activeTiles == 3);
    CHECK(runSteps[0].perIpu == report::PerTile{120, 80});
    CHECK(runSteps[2].perTile == report::PerTile{5, 5, 5, 5});
}

TEST_CASE("an out-of-memory compilation is still written and names the tiles over") {
    ProfileCaptureSettings settings;
    settings.file = freshFile("oom.pop");
    {
        ProfileCapture capture(settings);
        capture.writeCompilation(smallCompilation(true));
    }
    report::ProfileReader reader(settings.file.string());
    CHECK(reader.outOfMemory());
    CHECK(reader.file().metadataValue("tiles_out_of_memory") == "0");
    const auto summary = report::summarize(reader);
    CHECK(summary.tilesOverCapacity == 1);
    CHECK(summary.maxTile == 0);
}

TEST_CASE("the instrumentation level 'ipu' stores cycles per IPU but not per tile") {
    ProfileCaptureSettings settings;
    settings.file = freshFile("ipu-level.pop");
    settings.instrumentationLevel = "ipu";
    {
        ProfileCapture capture(settings);
        capture.writeCompilation(smallCompilation(false));
        capture.writeRun(run(0));
    }
    report::ProfileReader reader(settings.file.string());
    const auto steps = reader.runSteps(reader.runs().at(0), 0, 3, true);
    REQUIRE(steps.size() == 3);
    CHECK(steps[0].perTile.empty());
    CHECK(steps[0].perIpu == report::PerTile{120, 80});
    CHECK(steps[0].activeTiles == 3);
    CHECK(steps[0].tileBalance == Approx(300.0 / (3 * 120)));
}

TEST_CASE("operations link to the programs and variables they created, FLOPs only on request") {
    CompileRecords records = smallCompilation(false);
    OperationRecord layer;
    layer.name = "layer";
    layer.debugPath = "layer";
    layer.layer = "model";
    OperationRecord matMul;
    matMul.name = "matMul";
    matMul.debugPath = "layer/matMul";
    matMul.layer = "PopLibs";
    matMul.parent = 0;
    matMul.programs = {1};
    matMul.variables = {1};
    matMul.flops = 4096;
    records.operations = {layer, matMul};

    auto write = [&](const char* name, bool debugInfo, bool flops, bool variables) {
        ProfileCaptureSettings settings;
        settings.file = freshFile(name);
        settings.debugInfo = debugInfo;
        settings.flopEstimates = flops;
        settings.variables = variables;
        ProfileCapture capture(settings);
        capture.writeCompilation(records);
        return settings.file;
    };

    const auto full = write("operations.pop", true, true, true);
    {
        report::ProfileReader reader(full.string());
        const auto ops = reader.operations(0, 10);
        REQUIRE(ops.size() == 2);
        CHECK(ops[0].name == "layer");
        CHECK(ops[0].layer == "model");
        CHECK_FALSE(ops[0].flops);
        CHECK(ops[0].programIds.empty());
        CHECK(ops[1].debugPath == "layer/matMul");
        CHECK(ops[1].flops == std::optional<std::uint64_t>(4096));
        REQUIRE(ops[1].programIds.size() == 1);
        const auto program = reader.program(ops[1].programIds[0]);
        REQUIRE(program);
        CHECK(program->name == "layer/cs");
        CHECK(program->kind == "Execute");
        REQUIRE(ops[1].variableIds.size() == 1);
        bool linked = false;
        for (const auto& v : reader.variables(0, 10))
            linked = linked || (v.id == ops[1].variableIds[0] && v.name == "tmp");
        CHECK(linked);
    }
    // Without FLOP estimates the operations stay, without their FLOPs; without lowered variables
    // they link to none.
    const auto noFlops = write("operations-no-flops.pop", true, false, false);
    {
        report::ProfileReader reader(noFlops.string());
        const auto ops = reader.operations(0, 10);
        REQUIRE(ops.size() == 2);
        CHECK_FALSE(ops[1].flops);
        CHECK(ops[1].variableIds.empty());
        CHECK(ops[1].programIds.size() == 1);
    }
    const auto none = write("operations-off.pop", false, true, true);
    CHECK(report::ProfileReader(none.string()).operations(0, 10).empty());
}
