// The graph compiler: tile memory layout, liveness of not-always-live variables, lowered steps,
// the program tree and the cycle model.

#include "TestSupport.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <numeric>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <tilescope/capture/ProfileRecords.hpp>
#include <tilescope/sim/CostModel.hpp>
#include <tilescope/sim/TileMemoryLayout.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace tilescope::capture;
using tilescope::sim::CostModel;
using tilescope::sim::TargetSpec;
using tilescope::sim::TileMemoryItem;
using tilescope::sim::TileMemoryLayout;

namespace {

std::size_t at(MemoryCategory c) {
    return static_cast<std::size_t>(c);
}
std::size_t at(MemoryRegionKind r) {
    return static_cast<std::size_t>(r);
}

const VariableRecord& variable(const CompileRecords& r, const std::string& name) {
    for (const auto& v : r.variables)
        if (v.name == name)
            return v;
    FAIL("no variable " << name);
    throw;
}

Target smallTarget(unsigned tiles = 4, unsigned ipus = 1) {
    return Target::createIPUTarget(ipus, tiles, "ipu2");
}

} // namespace

TEST_CASE("tile layout places code low, interleaved data high, and counts gaps to the top",
          "[compiler][memory]") {
    const TargetSpec mk2 = TargetSpec::ipu2();
    const std::uint64_t low = mk2.nonInterleavedBytesPerTile();
    CHECK(low == 208 * 1024);
    const TileMemoryLayout layout(mk2);
    const auto usage = layout.place({
        {MemoryCategory::ControlCode, 10, 4, false},
        {MemoryCategory::Stack, 8, 8, false},
        {MemoryCategory::AlwaysLiveVariables, 3, 8, true},
        {MemoryCategory::AlwaysLiveVariables, 5, 8, true},
    });
    const auto NI = at(MemoryRegionKind::NonInterleaved), IL = at(MemoryRegionKind::Interleaved);
    CHECK(usage.bytes[at(MemoryCategory::ControlCode)][NI] == 10);
    CHECK(usage.bytes[at(MemoryCategory::Stack)][NI] == 8);
    CHECK(usage.itemStarts == std::vector<std::uint64_t>{0, 16, low, low + 8});
    CHECK(usage.bytes[at(MemoryCategory::AlwaysLiveVariables)][IL] == 8);
    // The tile counts up to its last byte used (low + 13): all the non-interleaved memory beneath
    // the interleaved data is gap, and so is the padding between the two variables.
    CHECK(usage.bytes[at(MemoryCategory::Gap)][NI] == low - 18);
    CHECK(usage.bytes[at(MemoryCategory::Gap)][IL] == 5);
    CHECK(usage.total == low + 13);
    CHECK(usage.overflow == 0);

    // Without interleaved data only the padding below the highest object is gap.
    const auto lowOnly = layout.place(
        {{MemoryCategory::ControlCode, 10, 4, false}, {MemoryCategory::Stack, 8, 8, false}});
    CHECK(lowOnly.bytes[at(MemoryCategory::Gap)][NI] == 6); // stack aligned from 10 to 16
    CHECK(lowOnly.total == 24);

    // An object larger than any region overflows its preferred region by the excess.
    const auto over = layout.place({{MemoryCategory::AlwaysLiveVariables, 700000, 8, true}});
    CHECK(over.total == low + 700000);
    CHECK(over.overflow == 700000 - mk2.interleavedBytesPerTile);

    // When the interleaved region is full, data spills into the non-interleaved one.
    const auto spill = layout.place({{MemoryCategory::AlwaysLiveVariables, 400 * 1024, 8, true},
                                     {MemoryCategory::AlwaysLiveVariables, 100 * 1024, 8, true}});
    CHECK(spill.bytes[at(MemoryCategory::AlwaysLiveVariables)][IL] == 400 * 1024);
    CHECK(spill.bytes[at(MemoryCategory::AlwaysLiveVariables)][NI] == 100 * 1024);
    CHECK(spill.overflow == 0);

    // An object that fits in a 64 KiB memory element is not placed across an element boundary.
    // The interleaved region starts at 208 KiB: 40 KiB fit below 256 KiB; 30 KiB after them
    // would cross 256 KiB, so they start there (8 KiB gap); 100 KiB objects span elements anyway
    // and follow directly.
    const auto banked = layout.place({{MemoryCategory::AlwaysLiveVariables, 40 * 1024, 8, true},
                                      {MemoryCategory::AlwaysLiveVariables, 30 * 1024, 8, true},
                                      {MemoryCategory::AlwaysLiveVariables, 100 * 1024, 8, true}});
    CHECK(banked.bytes[at(MemoryCategory::Gap)][IL] == 8 * 1024);
    CHECK(banked.bytes[at(MemoryCategory::Gap)][NI] == low);
    CHECK(banked.bytes[at(MemoryCategory::AlwaysLiveVariables)][IL] == 170 * 1024);
    CHECK(banked.total == (208 + 178) * 1024);
    const TileMemoryLayout mk1(TargetSpec::ipu1());
    const auto one = mk1.place({{MemoryCategory::AlwaysLiveVariables, 64, 8, true}});
    CHECK(one.bytes[at(MemoryCategory::AlwaysLiveVariables)][NI] == 64);
    CHECK(mk1.regions().size() == 1);
}

TEST_CASE("categories add up to tile totals and variable bytes match their elements",
          "[compiler][memory]") {
    Graph g(smallTarget());
    Tensor a = g.addVariable(FLOAT, {16}, "a");
    Tensor h = g.addVariable(HALF, {3}, "h");
    Tensor c = g.addConstant<int>(INT, {5}, 7, "c");
    g.setTileMapping(a.slice(0, 10), 0);
    g.setTileMapping(a.slice(10, 16), 1);
    g.setTileMapping(h, 0);
    g.setTileMapping(c, 1);
    g.createHostWrite("a", a);
    g.createHostWrite("h", h);
    Engine e(g, Sequence{PrintTensor(a), PrintTensor(h), PrintTensor(c)});
    const auto& r = e.compileRecords();

    CHECK(variable(r, "a").bytesPerTile == PerTile{40, 24, 0, 0});
    CHECK(variable(r, "h").bytesPerTile == PerTile{6, 0, 0, 0});
    CHECK(variable(r, "c").bytesPerTile == PerTile{0, 20, 0, 0});
    CHECK(variable(r, "c").isConstant);
    // Small variables go to non-interleaved memory first, as Poplar places them.
    CHECK(variable(r, "a").region == MemoryRegionKind::NonInterleaved);
    for (std::uint32_t t = 0; t < r.target.numTiles(); ++t) {
        std::uint64_t sum = 0;
        for (const auto& category : r.memory.bytes)
            for (const auto& region : category)
                sum += region[t];
        CHECK(sum == r.memory.tileTotal(t));
        CHECK(sum <= r.target.bytesPerTile);
        CHECK(r.memory.categoryOnTile(MemoryCategory::Stack, t) == 0); // no vertices run
        CHECK(r.memory.categoryOnTile(MemoryCategory::ControlCode, t) > 0);
    }
    // Tile 0 holds a (40 bytes) and h (6 bytes, padded to the 8-byte variable alignment).
    CHECK(r.memory.of(MemoryCategory::AlwaysLiveVariables, MemoryRegionKind::NonInterleaved)[0] ==
          46);
    CHECK(r.memory.of(MemoryCategory::Constants, MemoryRegionKind::NonInterleaved)[1] == 20);
    CHECK(r.memory.categoryOnTile(MemoryCategory::HostExchangeCode, 0) > 0);
    CHECK(r.memory.categoryOnTile(MemoryCategory::HostExchangeCode, 2) == 0);
}

TEST_CASE("not-always-live variables share memory when their live ranges do not overlap",
          "[compiler][liveness]") {
    Graph g(smallTarget());
    Tensor in = g.addVariable(FLOAT, {64}, "in");
    Tensor t1 = g.addVariable(FLOAT, {64}, "t1");
    Tensor t2 = g.addVariable(FLOAT, {64}, "t2");
    Tensor t3 = g.addVariable(FLOAT, {64}, "t3");
    Tensor out = g.addVariable(FLOAT, {64}, "out");
    Tensor unread = g.addVariable(FLOAT, {8}, "unread");
    Tensor sink = g.addVariable(FLOAT, {8}, "sink");
    for (const auto& t : {in, t1, t2, t3, out, unread, sink})
        g.setTileMapping(t, 0);
    g.createHostWrite("in", in);
    g.createHostRead("out", out);
    // Steps 0..3, one on-tile copy each: t1 lives over 0-1, t2 over 1-2, t3 over 2-3.
    Engine e(g,
             Sequence{Copy(in, t1), Copy(t1, t2), Copy(t2, t3), Copy(t3, out), Copy(unread, sink)});
    const auto& r = e.compileRecords();
    REQUIRE(r.steps.size() == 5);
    for (const auto& s : r.steps)
        CHECK(s.kind == StepKind::OnTileExecute);

    CHECK(variable(r, "in").alwaysLive);     // host-written
    CHECK(variable(r, "out").alwaysLive);    // host-read
    CHECK(variable(r, "unread").alwaysLive); // read before it is ever written
    const auto& v1 = variable(r, "t1");
    const auto& v2 = variable(r, "t2");
    const auto& v3 = variable(r, "t3");
    CHECK_FALSE(v1.alwaysLive);
    CHECK(v1.firstLiveStep == 0);
    CHECK(v1.lastLiveStep == 1);
    CHECK(v2.firstLiveStep == 1);
    CHECK(v2.lastLiveStep == 2);
    CHECK(v3.firstLiveStep == 2);
    CHECK(v3.lastLiveStep == 3);
    const auto& sinkVar = variable(r, "sink");
    CHECK(sinkVar.firstLiveStep == 4);
    CHECK(sinkVar.lastLiveStep == 4);

    std::uint64_t sumNal = 0, largest = 0, peak = 0;
    for (const auto& v : r.variables)
        if (!v.alwaysLive) {
            sumNal += v.bytesPerTile[0];
            largest = std::max(largest, v.bytesPerTile[0]);
        }
    for (const auto& s : r.steps)
        peak = std::max(peak, s.notAlwaysLiveBytesPerTile[0]);
    CHECK(r.steps[0].notAlwaysLiveBytesPerTile[0] == 256);
    CHECK(r.steps[1].notAlwaysLiveBytesPerTile[0] == 512);
    CHECK(r.steps[4].notAlwaysLiveBytesPerTile[0] == 32);
    CHECK(peak <= sumNal);
    CHECK(peak >= largest);
    // t1 and t3 never overlap: they share one slot, so the pool is two slots, not three.
    const auto pool = r.memory.categoryOnTile(MemoryCategory::NotAlwaysLiveVariables, 0);
    CHECK(pool == 512);
    CHECK(pool < sumNal);
}

TEST_CASE("liveness follows loops: a value read in a loop stays live around it",
          "[compiler][liveness]") {
    Graph g(smallTarget());
    Tensor in = g.addVariable(INT, {4}, "in");
    Tensor v = g.addVariable(INT, {4}, "v");
    Tensor x = g.addVariable(INT, {4}, "x");
    Tensor y = g.addVariable(INT, {4}, "y");
    Tensor out = g.addVariable(INT, {4}, "out");
    for (const auto& t : {in, v, x, y, out})
        g.setTileMapping(t, 1);
    g.createHostWrite("in", in);
    g.createHostRead("out", out);
    Engine e(g, Sequence{Copy(in, v), Repeat(3, Sequence{Copy(v, x), Copy(x, y)}), Copy(y, out),
                         WriteUndef(v)});
    const auto& r = e.compileRecords();
    REQUIRE(r.steps.size() == 4);
    const auto& vv = variable(r, "v");
    CHECK_FALSE(vv.alwaysLive);
    CHECK(vv.firstLiveStep == 0);
    CHECK(vv.lastLiveStep == 2); // live at step 2 too: the loop comes back to step 1
    CHECK(variable(r, "x").firstLiveStep == 1);
    CHECK(variable(r, "x").lastLiveStep == 2);
    CHECK(variable(r, "y").lastLiveStep == 3);
    // Program tree: Sequence { Copy, Repeat { Sequence { Copy, Copy } }, Copy, WriteUndef }.
    const auto& root = r.programs[r.entryPoints[0].program];
    CHECK(root.kind == ProgramKind::Sequence);
    REQUIRE(root.children.size() == 4);
    const auto& rep = r.programs[root.children[1]];
    CHECK(rep.kind == ProgramKind::Repeat);
    CHECK(rep.repeatCount == 3);
    CHECK(r.programs[root.children[3]].kind == ProgramKind::WriteUndef);
    CHECK(r.programs[root.children[0]].steps == std::vector<std::uint32_t>{0});
}

TEST_CASE("remote vertex inputs lower to sync, exchange and compute steps", "[compiler][steps]") {
    Graph g(smallTarget(4, 2));
    g.addCodelets(simtest::testCodelet("test_codelets.cpp"));
    Tensor in = g.addVariable(INT, {8}, "in");
    Tensor out = g.addVariable(INT, {8}, "out");
    g.setTileMapping(in, 0);
    g.setTileMapping(out, 1);
    ComputeSet cs = g.addComputeSet("scaled");
    VertexRef v = g.addVertex(cs, "test::ScaledCopy", {{"in", in}, {"out", out}});
    g.setTileMapping(v, 1);
    Tensor far = g.addVariable(INT, {8}, "far");
    g.setTileMapping(far, 6); // on the second IPU
    DataStream s = g.addHostToDeviceFIFO("feed", INT, 8);
    Engine e(g, Sequence{Copy(s, in), Execute(cs), Copy(out, far)});
    const auto& r = e.compileRecords();
    std::vector<StepKind> kinds;
    for (const auto& st : r.steps)
        kinds.push_back(st.kind);
    CHECK(kinds ==
          std::vector<StepKind>{StepKind::Sync, StepKind::StreamCopyBegin, StepKind::StreamCopyMid,
                                StepKind::StreamCopyEnd, StepKind::Sync, StepKind::DoExchange,
                                StepKind::OnTileExecute, StepKind::Sync, StepKind::GlobalExchange});
    CHECK(r.steps[2].exchangeBytesPerTile[0] == 32);
    // 32 bytes leave tile 0 and arrive on tile 1.
    CHECK(r.steps[5].exchangeBytesPerTile == PerTile{32, 32, 0, 0, 0, 0, 0, 0});
    CHECK(r.steps[6].computeSet == 0);
    CHECK(r.steps[8].exchangeBytesPerTile[6] == 32);
    // No receive buffers: the 32 bytes land in a not-always-live temporary on tile 1, live
    // from the exchange to the compute step.
    CHECK(variable(r, "scaled/exchange/received").bytesPerTile[1] == 32);
    CHECK(variable(r, "scaled/exchange/received").firstLiveStep == 5);
    CHECK(variable(r, "scaled/exchange/received").lastLiveStep == 6);
    CHECK(r.memory.categoryOnTile(MemoryCategory::InternalExchangeCode, 0) > 0);
    CHECK(r.memory.categoryOnTile(MemoryCategory::GlobalExchangeCode, 6) > 0);
    CHECK(r.memory.categoryOnTile(MemoryCategory::VertexCode, 1) > 0);
    CHECK(r.memory.categoryOnTile(MemoryCategory::VertexCode, 0) == 0);
    CHECK(r.memory.categoryOnTile(MemoryCategory::VertexState, 1) > 0);
    CHECK(variable(r, "in").alwaysLive); // a stream destination
    CHECK(r.vertexTypes.size() == 4);
    REQUIRE(r.vertexInstances.size() == 1);
    CHECK(r.vertexInstances[0].count == 1);
    CHECK(r.vertexInstances[0].perTile[1] == 1);
    CHECK(r.vertexTypes[r.vertexInstances[0].vertexType].name == "test::ScaledCopy");
}

TEST_CASE("vertex cycles come from perf estimates, estimators or sizes, over six workers",
          "[compiler][cycles]") {
    const CostModel costs;
    Graph g(smallTarget());
    g.addCodelets(simtest::testCodelet("test_codelets.cpp"));
    Tensor d = g.addVariable(FLOAT, {7, 4}, "d");
    g.setTileMapping(d, 0);
    g.setTileMapping(d[6], 1);
    ComputeSet cs = g.addComputeSet("add");
    for (unsigned i = 0; i < 7; ++i) {
        VertexRef v = g.addVertex(cs, "AddOne", {{"data", d[i]}});
        g.setTileMapping(v, i < 6 ? 0 : 1);
        if (i < 6)
            g.setPerfEstimate(v, 100);
    }
    Tensor hits = g.addVariable(UNSIGNED_INT, {6}, "hits");
    g.setTileMapping(hits, 2);
    ComputeSet touch = g.addComputeSet("touch");
    g.setTileMapping(g.addVertex(touch, "Touch", {{"hits", hits}}), 2);
    g.registerPerfEstimator("Touch", [](const VertexIntrospector& v, const Target&) {
        return VertexPerfEstimate(10 * v.getFieldInfo("hits").size());
    });
    Engine e(g, Sequence{Execute(cs), Execute(touch)});
    const auto& r = e.compileRecords();
    const auto& add = r.steps[0].estimatedCyclesPerTile;
    const auto& tch = r.steps[1].estimatedCyclesPerTile;
    // Tile 0: six vertices of 100 cycles, one per worker; an estimate is the vertex's whole cost.
    CHECK(add[0] == costs.computeSetOverheadCycles + 6 * 100);
    // Tile 1: one vertex with the size-based default (4 elements).
    CHECK(add[1] == costs.computeSetOverheadCycles + 6 * (costs.defaultVertexBaseThreadCycles +
                                                          4 * costs.defaultThreadCyclesPerElement +
                                                          costs.vertexLaunchThreadCycles));
    CHECK(add[2] == 0);
    // Tile 2: a MultiVertex from the registered estimator (10 * 6 elements).
    CHECK(tch[2] == costs.computeSetOverheadCycles + 6 * 60);
}

TEST_CASE("debug.instrument accounts a cycle counter per step on every tile",
          "[compiler][memory]") {
    Graph g(smallTarget());
    Tensor a = g.addVariable(FLOAT, {4}, "a");
    Tensor b = g.addVariable(FLOAT, {4}, "b");
    g.setTileMapping(a, 0);
    g.setTileMapping(b, 3);
    const Sequence prog{Copy(a, b), Copy(b, a)};
    Engine plain(g, prog);
    Engine instrumented(g, prog, {{"debug.instrument", "true"}});
    const auto& p = plain.compileRecords();
    const auto& i = instrumented.compileRecords();
    REQUIRE(p.steps.size() == i.steps.size());
    for (std::uint32_t t = 0; t < 4; ++t) {
        CHECK(p.memory.categoryOnTile(MemoryCategory::Instrumentation, t) == 0);
        CHECK(i.memory.categoryOnTile(MemoryCategory::Instrumentation, t) ==
              CostModel().instrumentationBytesPerStep * i.steps.size());
    }
}

TEST_CASE("liveness through branches: written on every path or live from the start",
          "[compiler][liveness]") {
    Graph g(smallTarget());
    Tensor pred = g.addVariable(BOOL, {}, "pred");
    Tensor a = g.addVariable(FLOAT, {8}, "a");
    Tensor both = g.addVariable(FLOAT, {8}, "both");
    Tensor once = g.addVariable(FLOAT, {8}, "once");
    Tensor out = g.addVariable(FLOAT, {8}, "out");
    for (const auto& t : {pred, a, both, once, out})
        g.setTileMapping(t, 2);
    g.createHostWrite("pred", pred);
    g.createHostWrite("a", a);
    g.createHostRead("out", out);
    // `both` is written on both paths before it is read: not always live. `once` is written on one
    // path only, so the read after the If may see its value from before the program: always live.
    Engine e(g, Sequence{If(pred, Sequence{Copy(a, both), Copy(a, once)}, Copy(a, both)),
                         Copy(both, out), Copy(once, out)});
    const auto& r = e.compileRecords();
    REQUIRE(r.steps.size() == 5);
    CHECK_FALSE(variable(r, "both").alwaysLive);
    CHECK(variable(r, "both").firstLiveStep == 0);
    CHECK(variable(r, "both").lastLiveStep == 3);
    CHECK(variable(r, "once").alwaysLive);
    const auto& ifNode = r.programs[r.programs[r.entryPoints[0].program].children[0]];
    CHECK(ifNode.kind == ProgramKind::If);
    CHECK(ifNode.children.size() == 2);
}

TEST_CASE("a Copy's on-tile part runs as a compute set of Poplar's copy vertices",
          "[compiler][steps]") {
    Graph g(smallTarget(4));
    Tensor a = g.addVariable(FLOAT, {16}, "a");
    Tensor b = g.addVariable(FLOAT, {16}, "b");
    Tensor c = g.addVariable(FLOAT, {16}, "c");
    // a and b share tiles 0 and 1 (elements 0-7 on tile 0, 8-15 on tile 1); c lies on tile 2.
    g.setTileMapping(a.slice(0, 8), 0);
    g.setTileMapping(a.slice(8, 16), 1);
    g.setTileMapping(b.slice(0, 8), 0);
    g.setTileMapping(b.slice(8, 16), 1);
    g.setTileMapping(c, 2);
    // a -> b stays on its tiles: tile 0 copies one contiguous piece, tile 1 two (reversed halves).
    Tensor reordered = concat(a.slice(0, 8), concat(a.slice(12, 16), a.slice(8, 12)));
    Engine e(g, Sequence{Copy(reordered, b), Copy(a, c)});
    const auto& r = e.compileRecords();
    // The remote copy adds no compute set; the on-tile one adds one, named as Poplar names it.
    REQUIRE(r.computeSets.size() == 1);
    CHECK(r.computeSets[0].name == "Copy_a_to_b/OnTileCopy-0");
    CHECK(r.computeSets[0].numVertices == 2);
    CHECK(r.numVertices == 2);
    const auto copyStep = std::find_if(r.steps.begin(), r.steps.end(), [](const StepRecord& s) {
        return s.kind == StepKind::OnTileExecute;
    });
    REQUIRE(copyStep != r.steps.end());
    CHECK(copyStep->computeSet == 0);
    std::map<std::string, PerTile> instances;
    for (const auto& vi : r.vertexInstances) {
        CHECK(vi.computeSet == 0);
        instances[r.vertexTypes[vi.vertexType].name] = vi.perTile;
    }
    CHECK(instances["poplar_rt::ShortMemcpy"] == PerTile{1, 0, 0, 0});
    CHECK(instances["poplar_rt::DstStridedCopyDA32"] == PerTile{0, 1, 0, 0});
    // Their instances hold vertex state on the tiles that copy; c's tile runs none.
    CHECK(r.memory.categoryOnTile(MemoryCategory::VertexState, 0) > 0);
    CHECK(r.memory.categoryOnTile(MemoryCategory::VertexState, 2) == 0);
    CHECK(r.memory.categoryOnTile(MemoryCategory::CopyDescriptors, 1) >
          r.memory.categoryOnTile(MemoryCategory::CopyDescriptors, 0));
}
