// Lightweight profiling: Block programs and implicit blocks (profiler.blocks.filter,
// profiler.programs.filter), stream copies as blocks (debug.instrumentExternalExchange), the
// bounded block buffer (profiler.blocks.bufferSize, implicitFlush) and Engine::getReport(). Block
// cycles are checked against the simulator's own step records (never hard-coded cycle counts):
// a block lasts the steps it holds plus two edges of instrumentation per block execution.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>
#include <pva/pva.hpp>
#include <sstream>
#include <string>
#include <tilescope/capture/ProfileRecords.hpp>
#include <tilescope/sim/BlockRecorder.hpp>
#include <unistd.h>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using tilescope::capture::BlockExecutionRecord;
using tilescope::capture::BlockKind;
using tilescope::capture::RunRecord;
using tilescope::sim::kBlockEdgeCodeBytes;
using tilescope::sim::kBlockEdgeCycles;
using tilescope::sim::kBlockRecordBytes;

namespace {

namespace fs = std::filesystem;

// The lightweight-profiling example's own vertices: the tests check what its users see.
const std::string kCodelets = std::string(SIMCORE_EXAMPLE_CODELETS_DIR) + "/profiling_codelets.cpp";
constexpr unsigned kTilesPerIpu = 8;

/// Two simulated IPUs of kTilesPerIpu tiles each, attached, with a lock folder of this test's own.
struct TwoIpus {
    TwoIpus() {
        lockDir = fs::temp_directory_path() / ("tilescope-blocks-" + std::to_string(::getpid()));
        setenv("TILESCOPE_SIMULATED_IPUS", "2", 1);
        setenv("TILESCOPE_DEVICE_LOCK_DIR", lockDir.c_str(), 1);
        auto devices = DeviceManager::createDeviceManager().getDevices(TargetType::IPU, 2);
        REQUIRE(!devices.empty());
        whole = std::move(devices[0]);
        REQUIRE(whole.attach());
        device = whole.createVirtualDevice(kTilesPerIpu);
    }
    ~TwoIpus() {
        whole.detach();
        unsetenv("TILESCOPE_SIMULATED_IPUS");
        unsetenv("TILESCOPE_DEVICE_LOCK_DIR");
        std::error_code ec;
        fs::remove_all(lockDir, ec);
    }
    fs::path lockDir;
    Device whole, device;
};

std::uint64_t stepCycles(const tilescope::capture::StepExecutionRecord& s) {
    const auto& cycles = s.perTileCycles();
    return cycles.empty() ? 0 : *std::max_element(cycles.begin(), cycles.end());
}

/// Cycles of the run's steps lying within [from, to] (run-relative cycles).
std::uint64_t stepCyclesWithin(const RunRecord& run, std::uint64_t from, std::uint64_t to) {
    std::uint64_t sum = 0;
    for (const auto& s : run.steps)
        if (s.startCycle >= from && s.startCycle + stepCycles(s) <= to)
            sum += stepCycles(s);
    return sum;
}

std::vector<BlockExecutionRecord> onTile(const RunRecord& run, unsigned tile, BlockKind kind) {
    std::vector<BlockExecutionRecord> out;
    for (const auto& b : run.blocks)
        if (b.tile == tile && b.kind == kind)
            out.push_back(b);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.cyclesFrom != b.cyclesFrom ? a.cyclesFrom < b.cyclesFrom : a.cyclesTo > b.cyclesTo;
    });
    return out;
}

const std::string& programName(const Engine& e, const BlockExecutionRecord& b) {
    return e.compileRecords().programs.at(static_cast<std::size_t>(b.program)).name;
}

/// A compute set of one AddOne vertex on `tile` over `n` elements of a new variable.
Program addOne(Graph& g, const std::string& name, unsigned tile, unsigned n) {
    Tensor t = g.addVariable(FLOAT, {n}, name + "/data");
    g.setTileMapping(t, tile);
    ComputeSet cs = g.addComputeSet(name);
    VertexRef v = g.addVertex(cs, "AddOne", {{"data", t}});
    g.setTileMapping(v, tile);
    return Execute(cs, name);
}

} // namespace

TEST_CASE("a two-stage pipeline on two IPUs records every execution of its nested blocks",
          "[blocks]") {
    TwoIpus ipus;
    Graph g(ipus.device.getTarget());
    g.addCodelets(kCodelets);
    auto stage = [&](const std::string& name, unsigned ipu, unsigned n) {
        const unsigned tile = ipu * kTilesPerIpu;
        return Block(Sequence{Block(addOne(g, name + "/op1", tile, n), "op1"),
                              Block(addOne(g, name + "/op2", tile, 2 * n), "op2")},
                     name);
    };
    Repeat loop(3, Sequence{stage("stage1", 0, 16), stage("stage2", 1, 64)});
    Engine engine(g, loop, {{"profiler.blocks.filter", "stage.|op2"}});
    engine.load(ipus.device);
    engine.run();
    const RunRecord& run = engine.executionRecords().runs.at(0);

    for (unsigned ipu = 0; ipu < 2; ++ipu) {
        const unsigned tile = ipu * kTilesPerIpu;
        const auto blocks = onTile(run, tile, BlockKind::Common);
        // Three stages and three op2s on this IPU's tile 0, alternating (stage first); op1 is not
        // selected, and the other stage ran on the other IPU.
        REQUIRE(blocks.size() == 6);
        for (std::size_t i = 0; i < blocks.size(); i += 2) {
            CHECK(programName(engine, blocks[i]) == (ipu == 0 ? "stage1" : "stage2"));
            CHECK(programName(engine, blocks[i + 1]) == "op2");
            // Nesting: op2 lies inside its stage, one edge in from its end.
            CHECK(blocks[i].cyclesFrom < blocks[i + 1].cyclesFrom);
            CHECK(blocks[i + 1].cyclesTo + kBlockEdgeCycles == blocks[i].cyclesTo);
            // The cycle model: steps inside plus two edges per block execution inside.
            const auto op2 = blocks[i + 1], st = blocks[i];
            CHECK(op2.cyclesTo - op2.cyclesFrom ==
                  stepCyclesWithin(run, op2.cyclesFrom, op2.cyclesTo) + 2 * kBlockEdgeCycles);
            CHECK(st.cyclesTo - st.cyclesFrom ==
                  stepCyclesWithin(run, st.cyclesFrom, st.cyclesTo) + 4 * kBlockEdgeCycles);
        }
        // The same stage takes the same cycles on every iteration.
        CHECK(blocks[0].cyclesTo - blocks[0].cyclesFrom ==
              blocks[4].cyclesTo - blocks[4].cyclesFrom);
    }
    // Stage 2 moves four times the data of stage 1 through its vertices: it takes longer.
    const auto s1 = onTile(run, 0, BlockKind::Common)[0];
    const auto s2 = onTile(run, kTilesPerIpu, BlockKind::Common)[0];
    CHECK(s2.cyclesTo - s2.cyclesFrom > s1.cyclesTo - s1.cyclesFrom);
    CHECK(run.blocksDropped == 0);

    // The same through the pva face, without autoReport.
    const pva::Report report = engine.getReport();
    const auto tile0 = report.execution().blocks(0);
    REQUIRE(tile0.size() == 6);
    CHECK(tile0[0].program()->name() == "stage1");
    CHECK(tile0[0].program()->type() == pva::Program::Type::Block);
    CHECK(tile0[1].program()->name() == "op2");
    CHECK(tile0[0].isCommon());
    CHECK_FALSE(tile0[0].isStreamCopy());
    CHECK(tile0[0].tile() == 0);
    CHECK(tile0[1].cyclesFrom() == onTile(run, 0, BlockKind::Common)[1].cyclesFrom);
    CHECK(report.execution().blocks(kTilesPerIpu).size() == 6);
    CHECK(report.execution().blocks(1).empty());
    CHECK(report.execution().blockTiles() == std::vector<unsigned>{0, kTilesPerIpu});
}

TEST_CASE("a data-dependent vertex under profiler.programs.filter gives each execution its own "
          "cycles",
          "[blocks]") {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    g.addCodelets(kCodelets);
    Tensor iterations = g.addVariable(UNSIGNED_INT, {}, "iterations");
    g.setTileMapping(iterations, 0);
    g.setInitialValue(iterations, 1u);
    ComputeSet cs = g.addComputeSet("operation");
    VertexRef v = g.addVertex(cs, "GrowingWork", {{"iterations", iterations}});
    g.setTileMapping(v, 0);
    Repeat loop(5, Execute(cs));
    Engine engine(
        g, loop,
        {{"profiler.programs.filter", "operation"}, {"profiler.blocks.implicitFlush", "false"}});
    engine.load(device);
    engine.run();
    const RunRecord& run = engine.executionRecords().runs.at(0);
    const auto blocks = onTile(run, 0, BlockKind::Common);
    REQUIRE(blocks.size() == 5);
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const auto cycles = blocks[i].cyclesTo - blocks[i].cyclesFrom;
        CHECK(cycles == stepCyclesWithin(run, blocks[i].cyclesFrom, blocks[i].cyclesTo) +
                            2 * kBlockEdgeCycles);
        if (i > 0) // one more round of 100 cycles on each execution
            CHECK(cycles == blocks[i - 1].cyclesTo - blocks[i - 1].cyclesFrom + 100);
    }
    const auto report = engine.getReport();
    const auto viaPva = report.execution().blocks(0);
    REQUIRE(viaPva.size() == 5);
    CHECK(viaPva[0].program()->name() == "operation");
}

TEST_CASE("stream copies are recorded as StreamCopyBegin/Mid/End blocks on the tiles that do them",
          "[blocks]") {
    IPUModel model;
    model.tilesPerIPU = 8;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    g.addCodelets(kCodelets);
    Tensor in = g.addVariable(FLOAT, {16}, "in");
    g.setTileMapping(in, 5);
    auto stream = g.addHostToDeviceFIFO("in", FLOAT, 16);
    Repeat loop(4, Sequence{Copy(stream, in), addOne(g, "operation", 0, 8)});
    Engine engine(
        g, loop,
        {{"debug.instrumentExternalExchange", "true"}, {"profiler.programs.filter", "operation"}});
    std::vector<float> host(16, 1.0f);
    engine.connectStream("in", host.data(), host.data() + host.size());
    engine.load(device);
    engine.run();
    const RunRecord& run = engine.executionRecords().runs.at(0);

    const auto report = engine.getReport();
    const auto io = report.execution().blocks(5);
    REQUIRE(io.size() == 12);
    const pva::Program::Type phases[3] = {pva::Program::Type::StreamCopyBegin,
                                          pva::Program::Type::StreamCopyMid,
                                          pva::Program::Type::StreamCopyEnd};
    for (std::size_t i = 0; i < io.size(); ++i) {
        CHECK(io[i].isStreamCopy());
        CHECK_FALSE(io[i].isBlockFlush());
        CHECK(io[i].tile() == 5);
        CHECK(io[i].program()->type() == phases[i % 3]);
        // Each phase: its step plus two edges.
        CHECK(io[i].cyclesTo() - io[i].cyclesFrom() ==
              stepCyclesWithin(run, io[i].cyclesFrom(), io[i].cyclesTo()) + 2 * kBlockEdgeCycles);
        if (i > 0)
            CHECK(io[i].cyclesFrom() >= io[i - 1].cyclesTo());
    }
    // The compute on tile 0 follows each copy; no stream copy was recorded there.
    // The compute on tile 0 follows each copy, then the implicit flush of the loop iteration
    // (a stream copy triplet of its own, recorded on the recording tile); no data stream copy
    // was recorded there.
    const auto onZero = report.execution().blocks(0);
    REQUIRE(onZero.size() == 4 * 4);
    for (std::size_t i = 0; i < 4; ++i) {
        const auto& compute = onZero[4 * i];
        CHECK(compute.isCommon());
        CHECK(compute.program()->name() == "operation");
        CHECK(compute.cyclesFrom() >= io[3 * i + 2].cyclesTo());
        for (std::size_t p = 1; p < 4; ++p) {
            CHECK(onZero[4 * i + p].isBlockFlush());
            CHECK(onZero[4 * i + p].isStreamCopy());
            CHECK(onZero[4 * i + p].program()->name() == "BlockFlush");
            CHECK(onZero[4 * i + p].program()->type() == phases[p - 1]);
            CHECK(onZero[4 * i + p].cyclesFrom() >= compute.cyclesTo());
        }
    }
}

TEST_CASE("the block buffer is bounded: drops are counted, implicit flushes empty it", "[blocks]") {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    g.addCodelets(kCodelets);
    Repeat loop(100, addOne(g, "operation", 0, 4));
    const std::uint64_t capacity = 1000 / kBlockRecordBytes; // the default buffer

    SECTION("without flushes, blocks past the buffer are dropped and counted") {
        Engine engine(g, loop,
                      {{"profiler.programs.filter", "operation"},
                       {"profiler.blocks.implicitFlush", "false"}});
        engine.load(device);
        engine.run();
        const RunRecord& run = engine.executionRecords().runs.at(0);
        CHECK(onTile(run, 0, BlockKind::Common).size() == capacity);
        CHECK(run.blocksDropped == 100 - capacity);
        const auto overflow = onTile(run, 0, BlockKind::Overflow);
        REQUIRE(overflow.size() == 1);
        CHECK(overflow[0].dropped == 100 - capacity);
        CHECK(overflow[0].cyclesFrom >= onTile(run, 0, BlockKind::Common).back().cyclesTo);
        CHECK(overflow[0].cyclesTo <= run.totalCycles);

        const auto blocks = engine.getReport().execution().blocks(0);
        REQUIRE(blocks.size() == capacity + 1);
        CHECK(blocks.back().isOverflow());
        CHECK(blocks.back().droppedRecords() == 100 - capacity);
        CHECK(blocks.back().program()->name() == "Overflow");
    }
    SECTION("a larger buffer holds them all") {
        Engine engine(g, loop,
                      {{"profiler.programs.filter", "operation"},
                       {"profiler.blocks.implicitFlush", "false"},
                       {"profiler.blocks.bufferSize", std::to_string(100 * kBlockRecordBytes)}});
        engine.load(device);
        engine.run();
        CHECK(onTile(engine.executionRecords().runs.at(0), 0, BlockKind::Common).size() == 100);
        CHECK(engine.executionRecords().runs.at(0).blocksDropped == 0);
    }
    SECTION("implicit flushes after each iteration keep every block, at a cost") {
        Engine plain(g, loop);
        plain.load(device);
        plain.run();
        Engine engine(g, loop,
                      {{"profiler.programs.filter", "operation"},
                       {"debug.instrumentExternalExchange", "true"}});
        engine.load(device);
        engine.run();
        const RunRecord& run = engine.executionRecords().runs.at(0);
        CHECK(onTile(run, 0, BlockKind::Common).size() == 100);
        CHECK(run.blocksDropped == 0);
        CHECK(onTile(run, 0, BlockKind::BlockFlushMid).size() == 100);
        CHECK(run.totalCycles > plain.executionRecords().runs.at(0).totalCycles);
        const auto blocks = engine.getReport().execution().blocks(0);
        CHECK(std::count_if(blocks.begin(), blocks.end(),
                            [](const pva::Block& b) { return b.isBlockFlush(); }) == 300);
        CHECK(std::count_if(blocks.begin(), blocks.end(),
                            [](const pva::Block& b) { return b.isCommon(); }) == 100);
    }
}

TEST_CASE("blocks no option selects cost nothing", "[blocks]") {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    g.addCodelets(kCodelets);
    Program body = addOne(g, "work", 1, 8);
    Engine bare(g, Repeat(3, body));
    Engine wrapped(g, Repeat(3, Block(Block(body, "inner"), "outer")),
                   {{"profiler.blocks.filter", "nothing.*"}});
    bare.load(device);
    bare.run();
    wrapped.load(device);
    wrapped.run();
    CHECK(wrapped.executionRecords().runs.at(0).totalCycles ==
          bare.executionRecords().runs.at(0).totalCycles);
    CHECK(wrapped.executionRecords().runs.at(0).blocks.empty());
    // The Block nodes are in the program tree.
    const auto& programs = wrapped.compileRecords().programs;
    CHECK(std::count_if(programs.begin(), programs.end(), [](const auto& p) {
              return p.kind == tilescope::capture::ProgramKind::Block;
          }) == 2);
}

namespace {
/// Bytes of memory category `c` on `tile`, all regions together.
std::uint64_t categoryBytes(const Engine& e, tilescope::capture::MemoryCategory c, unsigned tile) {
    std::uint64_t sum = 0;
    for (const auto& region : e.compileRecords().memory.bytes[static_cast<std::size_t>(c)])
        sum += region.at(tile);
    return sum;
}
} // namespace

TEST_CASE("block buffers are instrumentation results and block edges control code, only on the "
          "recording tiles",
          "[blocks][memory]") {
    using tilescope::capture::MemoryCategory;
    IPUModel model;
    model.numIPUs = 2;
    model.tilesPerIPU = 4;
    model.compileIPUCode = true;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    g.addCodelets(kCodelets);
    Tensor in = g.addVariable(FLOAT, {16}, "in");
    g.setTileMapping(in, 3);
    auto stream = g.addHostToDeviceFIFO("in", FLOAT, 16);
    // Stage 1 on IPU 0 (tile 1), stage 2 nested in it runs on IPU 1 (tile 5).
    Program prog =
        Sequence{Copy(stream, in),
                 Block(Sequence{addOne(g, "a", 1, 8), Block(addOne(g, "b", 5, 8), "s2")}, "s1")};
    const unsigned numTiles = 8;
    Engine bare(g, prog);
    Engine unselected(g, prog, {{"profiler.blocks.filter", "nothing"}});
    Engine blocks(g, prog,
                  {{"profiler.blocks.filter", "s."},
                   {"profiler.blocks.tile", "2"},
                   {"profiler.blocks.bufferSize", "500"}});
    Engine streams(
        g, prog,
        {{"debug.instrumentExternalExchange", "true"}, {"profiler.blocks.bufferSize", "500"}});
    const std::uint64_t buffer = (500 / kBlockRecordBytes) * kBlockRecordBytes; // 480
    for (unsigned t = 0; t < numTiles; ++t) {
        INFO("tile " << t);
        CHECK(categoryBytes(bare, MemoryCategory::Instrumentation, t) == 0);
        CHECK(categoryBytes(unselected, MemoryCategory::Instrumentation, t) == 0);
        CHECK(categoryBytes(unselected, MemoryCategory::ControlCode, t) ==
              categoryBytes(bare, MemoryCategory::ControlCode, t));
        // Tile 2 of each IPU records: s1 on IPU 0 (it holds s2, so both IPUs), s2 on IPU 1.
        const bool recording = t == 2 || t == 6;
        CHECK(categoryBytes(blocks, MemoryCategory::Instrumentation, t) ==
              (recording ? buffer : 0));
        const std::uint64_t edges = t == 2 ? 2 : t == 6 ? 4 : 0; // s1; s1 and s2
        CHECK(categoryBytes(blocks, MemoryCategory::ControlCode, t) ==
              categoryBytes(bare, MemoryCategory::ControlCode, t) + edges * kBlockEdgeCodeBytes);
        // The stream copy's three phases are recorded on the tile receiving its data.
        CHECK(categoryBytes(streams, MemoryCategory::Instrumentation, t) == (t == 3 ? buffer : 0));
        CHECK(categoryBytes(streams, MemoryCategory::ControlCode, t) ==
              categoryBytes(bare, MemoryCategory::ControlCode, t) +
                  (t == 3 ? 3 * 2 * kBlockEdgeCodeBytes : 0));
    }
}

TEST_CASE("bad lightweight-profiling options are invalid_option naming the option", "[blocks]") {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    g.addCodelets(kCodelets);
    Program body = Block(addOne(g, "work", 1, 8), "b");
    CHECK_THROWS_WITH(Engine(g, body, {{"profiler.blocks.filter", "stage(["}}),
                      Catch::Contains("profiler.blocks.filter") &&
                          Catch::Contains("regular expression"));
    CHECK_THROWS_AS(Engine(g, body, {{"profiler.programs.filter", "*x"}}), invalid_option);
    CHECK_THROWS_WITH(
        Engine(g, body, {{"profiler.blocks.filter", "b"}, {"profiler.blocks.tile", "4"}}),
        Catch::Contains("profiler.blocks.tile"));
    CHECK_THROWS_AS(Engine(g, body, {{"profiler.blocks.tile", "-1"}}), invalid_option);
    CHECK_THROWS_WITH(
        Engine(g, body, {{"profiler.blocks.filter", "b"}, {"profiler.blocks.bufferSize", "10"}}),
        Catch::Contains("profiler.blocks.bufferSize"));
    CHECK_THROWS_AS(Engine(g, body, {{"profiler.blocks.implicitFlush", "maybe"}}), invalid_option);
    CHECK_THROWS_AS(Engine(g, body, {{"debug.instrumentExternalExchange", "yes"}}), invalid_option);
}

TEST_CASE("executables keep Block programs and their profiling options", "[blocks][executable]") {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    g.addCodelets(kCodelets);
    Program prog = Repeat(2, Block(addOne(g, "work", 1, 8), "stage"));
    std::stringstream file;
    compileGraph(g, {prog}, {{"profiler.blocks.filter", "stage"}}).serialize(file);
    Engine engine(Executable::deserialize(file));
    engine.load(device);
    engine.run();
    const auto blocks = onTile(engine.executionRecords().runs.at(0), 0, BlockKind::Common);
    REQUIRE(blocks.size() == 2);
    CHECK(programName(engine, blocks[0]) == "stage");
}

TEST_CASE("autoReport stores the blocks of every run in profile.pop, older reports have none",
          "[blocks][report]") {
    IPUModel model;
    model.tilesPerIPU = 4;
    Device device = model.createDevice();
    Graph g(device.getTarget());
    g.addCodelets(kCodelets);
    const fs::path dir =
        fs::temp_directory_path() / ("tilescope-blocks-report-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    {
        Engine engine(g, Block(addOne(g, "work", 2, 8), "stage"),
                      {{"profiler.blocks.filter", "stage"},
                       {"autoReport.all", "true"},
                       {"autoReport.directory", dir.string()},
                       {"autoReport.executionProfileProgramRunCount", "1"}});
        engine.load(device);
        for (int i = 0; i < 3; ++i)
            engine.run();
    }
    const auto report = pva::openReport((dir / "profile.pop").string());
    const auto blocks = report.execution().blocks(0);
    REQUIRE(blocks.size() == 3); // every run, though only one run is stored in full
    REQUIRE(report.execution().runs().size() == 1);
    // The stored run lasts as long as the device took, its block's exit edge included.
    CHECK(report.execution().runs()[0].cycles() == blocks[0].cyclesTo() - blocks[0].cyclesFrom());
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        CHECK(blocks[i].runIndex() == static_cast<std::int64_t>(i));
        CHECK(blocks[i].program()->name() == "stage");
        if (i > 0) // cycles count from the load: each run's block comes after the last
            CHECK(blocks[i].cyclesFrom() >= blocks[i - 1].cyclesTo());
    }
    fs::remove_all(dir);

    const fs::path copy = dir.string() + "-v4.pop"; // opened from a copy: fixtures stay untouched
    fs::copy_file(fs::path(TILESCOPE_TEST_DATA) / "format-v4" / "profile.pop", copy,
                  fs::copy_options::overwrite_existing);
    const auto old = pva::openReport(copy.string());
    CHECK(old.execution().blocks(0).empty());
    CHECK(old.execution().blockTiles().empty());
    CHECK_FALSE(old.execution().runs().empty());
    fs::remove(copy);
}
