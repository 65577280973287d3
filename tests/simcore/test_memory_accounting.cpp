// Memory accounted the way Poplar accounts it, checked against figures worked out by hand from
// the rules of tilescope/sim/CostModel.hpp: exchange code per message (4 bytes per exchange
// instruction; a send per contiguous source region, two instructions per source tile received
// from), exchange temporaries instead of receive buffers, rearrangement by on-tile copies with
// copy descriptors, packet headers, stack only where vertices run, compileIPUCode, and gaps.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <tilescope/capture/ProfileRecords.hpp>
#include <tilescope/sim/CostModel.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace tilescope::capture;

namespace {

constexpr std::uint64_t kInstruction = 4;            // CostModel::exchangeInstructionBytes
constexpr std::uint64_t kReceive = 2 * kInstruction; // select the sender, set the address
constexpr std::uint64_t kSend = 2 * kInstruction;    // set the region's address, send it
constexpr std::uint64_t kPacketHeader = 8;           // CostModel::packetHeaderBytes
constexpr std::uint64_t kCopyDescriptor = 8;         // CostModel::copyDescriptorBytes

const VariableRecord* findVariable(const CompileRecords& r, const std::string& name) {
    for (const auto& v : r.variables)
        if (v.name == name)
            return &v;
    return nullptr;
}

/// The exchange temporary whose name ends with `suffix`.
const VariableRecord* findTemporary(const CompileRecords& r, const std::string& suffix) {
    for (const auto& v : r.variables)
        if (v.name.size() >= suffix.size() &&
            v.name.compare(v.name.size() - suffix.size(), suffix.size(), suffix) == 0)
            return &v;
    return nullptr;
}

std::uint64_t onTile(const CompileRecords& r, MemoryCategory c, std::size_t tile) {
    return r.memory.categoryOnTile(c, tile);
}

Target target(unsigned tiles = 4, unsigned ipus = 1) {
    return Target::createIPUTarget(ipus, tiles, "ipu2");
}

/// A vertex on tile 1 reading `in` (8 ints) wherever it is mapped, writing `out` on tile 1.
struct RemoteRead {
    Graph g;
    Tensor in, out;
    ComputeSet cs;
    explicit RemoteRead(const Target& t) : g(t) {
        g.addCodelets(simtest::testCodelet("test_codelets.cpp"));
        in = g.addVariable(INT, {8}, "in");
        out = g.addVariable(INT, {8}, "out");
        g.setTileMapping(out, 1);
        cs = g.addComputeSet("scaled");
        VertexRef v = g.addVertex(cs, "test::ScaledCopy", {{"in", in}, {"out", out}});
        g.setTileMapping(v, 1);
    }
};

} // namespace

TEST_CASE("one contiguous region exchanged between two tiles costs one send and one receive",
          "[compiler][memory][exchange]") {
    RemoteRead p(target());
    p.g.setTileMapping(p.in, 0);
    Engine e(p.g, Execute(p.cs));
    const auto& r = e.compileRecords();
    CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 0) == kSend);
    CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 1) == kReceive);
    CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 2) == 0);
    // The 32 bytes land in a not-always-live temporary on tile 1, not in a buffer.
    const auto* received = findVariable(r, "scaled/exchange/received");
    REQUIRE(received);
    CHECK_FALSE(received->alwaysLive);
    CHECK(received->bytesPerTile == PerTile{0, 32, 0, 0});
    CHECK(received->elementType == "int");
    CHECK(received->firstLiveStep == 1); // the DoExchange after its Sync
    CHECK(received->lastLiveStep == 2);  // the compute step
    CHECK(r.steps[1].notAlwaysLiveBytesPerTile[1] == 32);
    CHECK(r.steps[0].notAlwaysLiveBytesPerTile[1] == 0);
    for (const auto& name : {"exchange_buffers"})
        for (std::size_t c = 0; c < kNumMemoryCategories; ++c)
            CHECK(memoryCategoryName(static_cast<MemoryCategory>(c)) != name);
    // Stack is reserved only where vertices run.
    CHECK(onTile(r, MemoryCategory::Stack, 1) > 0);
    CHECK(onTile(r, MemoryCategory::Stack, 0) == 0);
}

TEST_CASE("a large contiguous region is still one send, each sender costs a receive",
          "[compiler][memory][exchange]") {
    SECTION("large") {
        Graph g(target());
        Tensor a = g.addVariable(FLOAT, {10000}, "a");
        Tensor b = g.addVariable(FLOAT, {10000}, "b");
        g.setTileMapping(a, 0);
        g.setTileMapping(b, 1);
        Engine e(g, Copy(a, b));
        const auto& r = e.compileRecords();
        CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 0) == kSend);
        CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 1) == kReceive);
        // The exchange writes straight into b: no temporary, no on-tile copy.
        CHECK(r.variables.size() == 2);
        CHECK(onTile(r, MemoryCategory::CopyDescriptors, 1) == 0);
        REQUIRE(r.steps.size() == 2);
        CHECK(r.steps[1].kind == StepKind::DoExchange);
    }
    SECTION("two senders") {
        RemoteRead p(target());
        p.g.setTileMapping(p.in.slice(0, 4), 0);
        p.g.setTileMapping(p.in.slice(4, 8), 2);
        Engine e(p.g, Execute(p.cs));
        const auto& r = e.compileRecords();
        CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 0) == kSend);
        CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 2) == kSend);
        CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 1) == 2 * kReceive);
    }
    SECTION("elements apart in the variable but neighbours on the tile are one region") {
        // Elements 0-1 and 4-5 on tile 0, 2-3 and 6-7 on tile 2: each tile stores its part in
        // element order, so each sends its four elements as one region.
        RemoteRead p(target());
        for (unsigned i = 0; i < 8; i += 2)
            p.g.setTileMapping(p.in.slice(i, i + 2), (i / 2) % 2 == 0 ? 0 : 2);
        Engine e(p.g, Execute(p.cs));
        const auto& r = e.compileRecords();
        CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 0) == kSend);
        CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 2) == kSend);
        CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 1) == 2 * kReceive);
    }
    SECTION("data read twice on a tile is received once") {
        RemoteRead p(target());
        p.g.setTileMapping(p.in, 0);
        Tensor again = p.g.addVariable(INT, {8}, "again");
        p.g.setTileMapping(again, 1);
        VertexRef v = p.g.addVertex(p.cs, "test::ScaledCopy", {{"in", p.in}, {"out", again}});
        p.g.setTileMapping(v, 1);
        Engine e(p.g, Execute(p.cs));
        const auto& r = e.compileRecords();
        CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 0) == kSend);
        CHECK(findVariable(r, "scaled/exchange/received")->bytesPerTile[1] == 32);
    }
}

TEST_CASE("a transposed copy is received in place, an address per run",
          "[compiler][memory][exchange]") {
    IPUModel model;
    model.tilesPerIPU = 4;
    model.compileIPUCode = true;
    Device ipu = model.createDevice();
    Graph g(ipu.getTarget());
    std::vector<int> values(8);
    for (int i = 0; i < 8; ++i)
        values[static_cast<std::size_t>(i)] = 10 * i + 1;
    Tensor a = g.addConstant<int>(INT, {2, 4}, values, "a");
    Tensor b = g.addVariable(INT, {4, 2}, "b");
    g.setTileMapping(a, 0);
    g.setTileMapping(b, 1);
    g.createHostRead("b", b);
    Engine e(g, Copy(a.transpose(), b));
    const auto& r = e.compileRecords();
    // Tile 0 sends a, contiguous, in one send. Every element lands apart from the one
    // before it: tile 1 selects its sender and then sets the address of each of the 7 further
    // runs, writing them in place (no temporary, no on-tile copy, no copy descriptor).
    CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 0) == kSend);
    CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 1) == kReceive + 7 * kInstruction);
    CHECK_FALSE(findTemporary(r, "/rearranged"));
    CHECK(onTile(r, MemoryCategory::CopyDescriptors, 1) == 0);
    REQUIRE(r.steps.size() == 2);
    CHECK(r.steps[1].kind == StepKind::DoExchange);
    // The receiver's 9 instructions take a cycle each, on top of the message's minimum.
    const tilescope::sim::CostModel costs;
    CHECK(r.steps[1].estimatedCyclesPerTile[1] ==
          costs.exchangeOverheadCycles + costs.minCyclesPerReceivedMessage + 9);

    // The values are the transpose, as before.
    e.load(ipu);
    e.run();
    std::vector<int> out(8);
    e.readTensor("b", out.data(), out.data() + out.size());
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j)
            CHECK(out[static_cast<std::size_t>(i * 2 + j)] ==
                  values[static_cast<std::size_t>(j * 4 + i)]);
}

TEST_CASE("host streams cost exchange code per copy and packet headers once per tile",
          "[compiler][memory][exchange]") {
    Graph g(target());
    Tensor x = g.addVariable(FLOAT, {8}, "x");
    g.setTileMapping(x.slice(0, 4), 0);
    g.setTileMapping(x.slice(4, 8), 1);
    DataStream s = g.addHostToDeviceFIFO("feed", FLOAT, 8);
    Engine e(g, Sequence{Copy(s, x), Copy(s, x)});
    const auto& r = e.compileRecords();
    for (std::size_t t : {0u, 1u}) {
        // Per copy: one region written, plus selecting the host as the sender.
        CHECK(onTile(r, MemoryCategory::HostExchangeCode, t) == 2 * (kSend + kReceive));
        CHECK(onTile(r, MemoryCategory::HostExchangePacketHeaders, t) == kPacketHeader);
    }
    CHECK(onTile(r, MemoryCategory::HostExchangePacketHeaders, 2) == 0);
}

TEST_CASE("messages between IPUs cost global exchange code and packet headers",
          "[compiler][memory][exchange]") {
    Graph g(target(4, 2));
    Tensor a = g.addVariable(INT, {8}, "a");
    Tensor b = g.addVariable(INT, {8}, "b");
    g.setTileMapping(a, 1);
    g.setTileMapping(b, 6);
    Engine e(g, Copy(a, b));
    const auto& r = e.compileRecords();
    CHECK(onTile(r, MemoryCategory::GlobalExchangeCode, 1) == kSend);
    CHECK(onTile(r, MemoryCategory::GlobalExchangeCode, 6) == kReceive);
    CHECK(onTile(r, MemoryCategory::GlobalExchangePacketHeaders, 1) == kPacketHeader);
    CHECK(onTile(r, MemoryCategory::GlobalExchangePacketHeaders, 6) == kPacketHeader);
    CHECK(onTile(r, MemoryCategory::InternalExchangeCode, 1) == 0);
}

TEST_CASE("Switch programs keep a jump table of their cases on every tile", "[compiler][memory]") {
    Graph g(target());
    Tensor sel = g.addVariable(INT, {}, "sel");
    Tensor a = g.addVariable(INT, {4}, "a");
    g.setTileMapping(sel, 0);
    g.setTileMapping(a, 0);
    Switch sw(sel);
    sw.add(1, Sequence{});
    sw.add(2, Sequence{});
    Engine e(g, sw);
    const auto& r = e.compileRecords();
    for (std::size_t t = 0; t < 4; ++t)
        CHECK(onTile(r, MemoryCategory::ControlTable, t) == 3 * 4); // two cases and the default
}

TEST_CASE("IPUModel::compileIPUCode decides whether code is charged", "[compiler][memory]") {
    const auto compile = [](bool compileCode) {
        IPUModel model;
        model.tilesPerIPU = 4;
        model.compileIPUCode = compileCode;
        Device d = model.createDevice();
        RemoteRead p(d.getTarget());
        p.g.setTileMapping(p.in, 0);
        Engine e(p.g, Execute(p.cs));
        return e.compileRecords();
    };
    const auto without = compile(false);
    const auto with = compile(true);
    CHECK_FALSE(without.ipuCodeCompiled);
    CHECK(with.ipuCodeCompiled);
    for (std::size_t t = 0; t < 4; ++t) {
        for (auto c : {MemoryCategory::ControlCode, MemoryCategory::VertexCode,
                       MemoryCategory::InternalExchangeCode, MemoryCategory::HostExchangeCode,
                       MemoryCategory::GlobalExchangeCode, MemoryCategory::ControlTable})
            CHECK(onTile(without, c, t) == 0);
        CHECK(onTile(with, MemoryCategory::ControlCode, t) > 0);
        // Data is there either way.
        CHECK(onTile(without, MemoryCategory::VertexState, t) ==
              onTile(with, MemoryCategory::VertexState, t));
    }
    CHECK(onTile(with, MemoryCategory::VertexCode, 1) > 0);
    CHECK(onTile(with, MemoryCategory::InternalExchangeCode, 1) == kReceive);
    CHECK(findVariable(without, "scaled/exchange/received")->bytesPerTile[1] == 32);
    for (const auto& p : without.programs)
        for (auto b : p.codeBytesPerTile)
            CHECK(b == 0);
}

TEST_CASE("gaps are recorded per tile and are the difference between including and excluding",
          "[compiler][memory][gaps]") {
    Graph g(target());
    // 4 bytes, so the next (8-byte aligned) constant leaves a gap of 4.
    Tensor i = g.addConstant<int>(INT, {1}, 1, "i");
    Tensor f = g.addConstant<float>(FLOAT, {4}, 2.0f, "f");
    g.setTileMapping(i, 0);
    g.setTileMapping(f, 0);
    Engine e(g, Sequence{});
    const auto& r = e.compileRecords();
    std::uint64_t gapsEverywhere = 0;
    for (std::size_t t = 0; t < r.target.numTiles(); ++t) {
        const std::uint64_t including = r.memory.tileTotal(t);
        std::uint64_t excluding = 0;
        for (std::size_t c = 0; c < kNumMemoryCategories; ++c)
            if (static_cast<MemoryCategory>(c) != MemoryCategory::Gap)
                excluding += r.memory.categoryOnTile(static_cast<MemoryCategory>(c), t);
        CHECK(onTile(r, MemoryCategory::Gap, t) == including - excluding);
        gapsEverywhere += including - excluding;
    }
    CHECK(onTile(r, MemoryCategory::Gap, 0) >= 4);
    CHECK(gapsEverywhere > 0);
    // Small variables are placed in non-interleaved memory, as Poplar places them.
    CHECK(findVariable(r, "f")->region == MemoryRegionKind::NonInterleaved);
}
