#include "SmallReport.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sqlite3.h>
#include <stdexcept>
#include <system_error>

namespace tilescope::testing {
namespace {

PerTile perTile(std::uint32_t tiles, std::uint64_t base, std::uint64_t stride) {
    PerTile v(tiles);
    for (std::uint32_t t = 0; t < tiles; ++t)
        v[t] = base + stride * t;
    return v;
}

std::uint64_t sum(const PerTile& v) {
    std::uint64_t s = 0;
    for (auto x : v)
        s += x;
    return s;
}

constexpr std::int64_t kHostT0 = 1'700'000'000'000'000'000;

} // namespace

CompileProfile writeCompileProfile(ProfileWriter& w, std::uint32_t ipus,
                                   std::uint32_t tilesPerIpu) {
    CompileProfile p;
    p.target.type = "IPU_MODEL";
    p.target.numIpus = ipus;
    p.target.tilesPerIpu = tilesPerIpu;
    p.target.bytesPerTile = 64 * 1024;
    p.target.regions = {{1, "interleaved", true, 0, 16 * 1024},
                        {2, "non_interleaved", false, 16 * 1024, 48 * 1024}};
    const std::uint32_t tiles = p.target.numTiles();

    w.setMetadata("engine_name", "small");
    w.setMetadata("command_line", "./small --flag");
    p.engineOptions = {{"autoReport.all", "true", "env", true},
                       {"target.syncReplicasIndependently", "false", "api", false}};
    w.setEngineOptions(p.engineOptions);
    w.setTarget(p.target);

    p.tileMemory[{"vertex_code", "non_interleaved"}] = perTile(tiles, 1000, 10);
    p.tileMemory[{"always_live_variables", "interleaved"}] = perTile(tiles, 2048, 0);
    p.tileMemory[{"not_always_live_variables", "non_interleaved"}] = perTile(tiles, 0, 64);
    p.tileMemory[{"gap", "non_interleaved"}] = perTile(tiles, 7, 1);
    for (const auto& [key, bytes] : p.tileMemory)
        w.setTileMemory(key.first, key.second, bytes);

    p.computeSets = {{0, "cs/matmul", "layer1/matmul", 4 * tiles}, {0, "cs/add", "", 2 * tiles}};
    for (auto& cs : p.computeSets)
        cs.id = w.addComputeSet(cs);
    p.vertexTypes = {{0, "poplin::ConvPartial1x1Out<half>", 48, 1200}, {0, "popops::Add", 16, 300}};
    for (auto& vt : p.vertexTypes)
        vt.id = w.addVertexType(vt);
    for (int k = 0; k < 2; ++k) {
        VertexInstancesRecord vi;
        vi.computeSetId = p.computeSets[k].id;
        vi.vertexTypeId = p.vertexTypes[k].id;
        vi.perTile = PerTile(tiles, 4 - 2 * k);
        vi.count = sum(vi.perTile);
        w.addVertexInstances(vi);
        p.vertexInstances.push_back(vi);
    }

    // main: Sequence[Repeat(3)[Execute(matmul), Execute(add)], Copy, Sync, StreamCopy, Call(fn)];
    // fn: Sequence[Execute(add)].
    auto add = [&](std::optional<std::int64_t> parent, std::int64_t pos, std::string kind,
                   std::string name, std::optional<std::int64_t> cs = {},
                   std::optional<std::int64_t> repeat = {},
                   std::optional<std::int64_t> callee = {}) {
        ProgramRecord r;
        r.parentId = parent;
        r.position = pos;
        r.kind = std::move(kind);
        r.name = std::move(name);
        r.debugPath = "main/" + r.name;
        r.computeSetId = cs;
        r.repeatCount = repeat;
        r.calleeId = callee;
        if (r.kind == "Execute") {
            r.codePerTile = perTile(tiles, 100, 2);
            r.codeBytes = sum(r.codePerTile);
        }
        r.id = w.addProgram(r);
        p.programs.push_back(r);
        return r.id;
    };
    const auto fn = add({}, 0, "Sequence", "fn");
    const auto fnAdd = add(fn, 0, "Execute", "fn/add", p.computeSets[1].id);
    const auto main = add({}, 1, "Sequence", "main");
    const auto loop = add(main, 0, "Repeat", "loop", {}, 3);
    const auto mm = add(loop, 0, "Execute", "matmul", p.computeSets[0].id);
    const auto ad = add(loop, 1, "Execute", "add", p.computeSets[1].id);
    const auto copy = add(main, 1, "Copy", "copy");
    const auto sync = add(main, 2, "Sync", "sync");
    const auto stream = add(main, 3, "StreamCopy", "toHost");
    add(main, 4, "Call", "callFn", {}, {}, fn);
    p.controlPrograms = {{0, main, false, "main"}, {1, fn, true, "fn"}};
    for (const auto& cp : p.controlPrograms)
        w.addControlProgram(cp);

    // Variables first in memory: the steps' not-always-live figures are derived from them.
    auto var = [&](std::string name, std::string category, std::int64_t region, bool always,
                   std::optional<std::int64_t> first, std::optional<std::int64_t> last,
                   std::uint64_t perTileBase) {
        VariableRecord v;
        v.name = std::move(name);
        v.debugPath = "layer1/" + v.name;
        v.elementType = "half";
        v.perTile = perTile(tiles, perTileBase, 2);
        v.bytes = sum(v.perTile);
        v.numElements = v.bytes / 2;
        v.categoryId = memoryCategoryId(category);
        v.regionId = region;
        v.alwaysLive = always;
        v.firstStep = first;
        v.lastStep = last;
        p.variables.push_back(v);
    };
    var("weights", "always_live_variables", 1, true, {}, {}, 512);
    var("bias", "constants", 2, true, {}, {}, 8);
    var("activations", "not_always_live_variables", 2, false, 0, 2, 256);
    var("partials", "not_always_live_variables", 2, false, 1, 5, 128);
    var("gradients", "not_always_live_variables", 1, false, 4, 7, 64);

    struct Lowered {
        std::int64_t program;
        const char* kind;
        std::optional<std::int64_t> cs;
    };
    const Lowered lowered[] = {{mm, "OnTileExecute", p.computeSets[0].id},
                               {mm, "DoExchange", {}},
                               {ad, "OnTileExecute", p.computeSets[1].id},
                               {sync, "Sync", {}},
                               {stream, "StreamCopyBegin", {}},
                               {stream, "StreamCopyMid", {}},
                               {stream, "StreamCopyEnd", {}},
                               {copy, "GlobalExchange", {}},
                               {fnAdd, "OnTileExecute", p.computeSets[1].id}};
    for (std::int64_t i = 0; i < std::ssize(lowered); ++i) {
        StepRecord s;
        s.programId = lowered[i].program;
        s.kind = lowered[i].kind;
        s.computeSetId = lowered[i].cs;
        s.exchangeBytes = s.kind == "DoExchange" || s.kind == "GlobalExchange" ? 4096 : 0;
        if (i % 2 == 0)
            s.estimatedPerTile = perTile(tiles, 50 + i, 3);
        s.estimatedCycles = s.estimatedPerTile.empty() ? 40 : s.estimatedPerTile.back();
        PerTile nal(tiles, 0);
        for (const auto& v : p.variables)
            if (!v.alwaysLive && *v.firstStep <= i && i <= *v.lastStep)
                for (std::uint32_t t = 0; t < tiles; ++t)
                    nal[t] += v.perTile[t];
        s.notAlwaysLiveBytes = sum(nal);
        s.maxTileNotAlwaysLiveBytes = nal.back();
        s.id = w.addStep(s);
        s.phase = s.kind == "DoExchange" || s.kind == "GlobalExchange" ? "exchange"
                  : s.kind == "Sync"                                   ? "sync"
                  : s.kind.starts_with("StreamCopy")                   ? "stream"
                                                                       : "compute";
        p.steps.push_back(s);
    }
    for (auto& v : p.variables)
        v.id = w.addVariable(v);

    p.operations = {{0,
                     "matmul",
                     "layer1/matmul",
                     "Dense",
                     1'000'000,
                     {mm, copy},
                     {1, 3},
                     R"({"api":"matmul","args":{"A":{"shape":"[4, 2]","type":"half"}},)"
                     R"("note":"quote \" and \u00e9"})"},
                    {0, "add", "layer1/add", "Add", std::nullopt, {ad}, {2, 4, 5}, ""}};
    for (auto& op : p.operations)
        op.id = w.addOperation(op);
    return p;
}

RunStepRecord syntheticRunStep(const CompileProfile& p, std::int64_t runIndex, std::int64_t seq) {
    RunStepRecord s;
    s.stepId = seq % std::ssize(p.steps);
    s.startCycle = static_cast<std::uint64_t>(seq) * 1000;
    s.cycles = 100 + static_cast<std::uint64_t>(seq * 37 + runIndex * 11) % 800;
    s.perIpu.resize(p.target.numIpus);
    for (std::uint32_t i = 0; i < p.target.numIpus; ++i)
        s.perIpu[i] = s.cycles - 5 * i;
    const std::uint32_t tiles = p.target.numTiles();
    s.perTile.resize(tiles);
    for (std::uint32_t t = 0; t < tiles; ++t)
        s.perTile[t] = (t + seq) % 5 == 0 ? 0 : s.cycles - (t * 13 + seq) % 40;
    return s;
}

std::int64_t syntheticRunStartNs(std::int64_t runIndex) {
    return kHostT0 + runIndex * 1'000'000'000;
}

void writeRun(ProfileWriter& w, const CompileProfile& p, std::int64_t runIndex,
              std::int64_t steps) {
    const std::int64_t start = syntheticRunStartNs(runIndex);
    w.beginRun(0, start);
    for (std::int64_t seq = 0; seq < steps; ++seq)
        w.addRunStep(syntheticRunStep(p, runIndex, seq));
    w.endRun(start + 1000 * steps);
}

CompileProfile writeSmallProfile(const std::filesystem::path& path, int runs,
                                 std::int64_t stepsPerRun, ProfileWriterOptions options) {
    ProfileWriter w(path, options);
    CompileProfile p = writeCompileProfile(w);
    w.finishCompilation();
    for (int r = 0; r < runs; ++r)
        writeRun(w, p, r, stepsPerRun);
    w.close();
    return p;
}

HostEvent syntheticHostEvent(std::int64_t threadId, std::int64_t channelId, std::int64_t nameId,
                             std::int64_t i) {
    const std::int64_t frame = kHostT0 + (i / 3) * 10'000 + threadId * 3;
    const std::int32_t depth = static_cast<std::int32_t>(i % 3);
    HostEvent e;
    e.threadId = threadId;
    e.channelId = channelId;
    e.nameId = nameId;
    e.depth = depth;
    e.startNs = frame + depth * 1000;
    e.endNs = frame + 9000 - depth * 1000;
    return e;
}

HostTraceContent writeSmallHostTrace(const std::filesystem::path& path,
                                     std::int64_t eventsPerThread, HostTraceWriterOptions options) {
    HostTraceWriter w(path, options);
    HostTraceContent c;
    w.setMetadata("command_line", "./small");
    c.processId = w.addProcess(4242, "small-app", kHostT0);
    c.threadIds = {w.addThread(c.processId, 4242, "main"),
                   w.addThread(c.processId, 4243, "worker")};
    c.channelIds = {w.addChannel("poplar"), w.addChannel("framework")};
    const std::int64_t names[] = {w.intern("compile"), w.intern("run"), w.intern("copy")};
    const std::int64_t marker = w.intern("marker"), pending = w.intern("pending");
    auto record = [&](HostEvent e) {
        e.id = std::ssize(c.events) + 1;
        c.events.push_back(e);
    };
    for (std::size_t t = 0; t < c.threadIds.size(); ++t) {
        const std::int64_t thread = c.threadIds[t], channel = c.channelIds[t];
        for (std::int64_t i = 0; i < eventsPerThread; ++i) {
            HostEvent e = syntheticHostEvent(thread, channel, names[i % 3], i);
            w.addEvent(thread, channel, e.nameId, e.startNs, *e.endNs, e.depth);
            record(e);
            if (i % 150 == 2) { // inside the innermost event of the frame
                HostEvent m = e;
                m.nameId = marker;
                m.kind = EventKind::Instant;
                m.startNs = e.startNs + 100;
                m.endNs = m.startNs;
                m.depth = 3;
                w.addInstant(thread, channel, marker, m.startNs, m.depth);
                record(m);
            }
        }
        HostEvent u;
        u.threadId = thread;
        u.channelId = channel;
        u.nameId = pending;
        u.kind = EventKind::Unfinished;
        u.startNs = kHostT0 + (eventsPerThread / 3 + 1) * 10'000;
        w.addUnfinished(thread, channel, pending, u.startNs, 0);
        record(u);
    }
    c.graphId = w.addGraph(c.processId, "memory", "bytes");
    c.seriesIds = {w.addSeries(c.graphId, "heap"), w.addSeries(c.graphId, "device")};
    c.samples.resize(c.seriesIds.size());
    for (std::size_t s = 0; s < c.seriesIds.size(); ++s)
        for (std::int64_t j = 0; j < 200; ++j) {
            const std::int64_t t = kHostT0 + j * 500;
            const double v = static_cast<double>(j) * 1.5 + static_cast<double>(s);
            w.addSample(c.seriesIds[s], t, v);
            c.samples[s].emplace_back(t, v);
        }
    w.close();
    return c;
}

TempDir::TempDir(const std::string& prefix) {
    std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (!mkdtemp(tmpl.data()))
        throw std::system_error(errno, std::generic_category(), "mkdtemp " + tmpl);
    path_ = tmpl;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

void execSql(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        const std::string message = sqlite3_errmsg(db);
        sqlite3_close(db);
        throw std::runtime_error("cannot open " + path.string() + ": " + message);
    }
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    if (rc != SQLITE_OK)
        throw std::runtime_error("SQL on " + path.string() + " failed: " + message);
}

std::string fileBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

SyntheticSpec formatFixtureSpec() {
    SyntheticSpec s;
    s.ipus = 2;
    s.tilesPerIpu = 16;
    s.steps = 90;
    s.runs = 2;
    s.hostEvents = 400;
    s.hostThreads = 2;
    s.seed = 7;
    return s;
}

void writeNestedOperationsReport(const std::filesystem::path& path,
                                 const std::vector<NestedOperation>& ops,
                                 std::uint32_t tilesPerIpu) {
    ProfileWriter w(path);
    TargetInfo target;
    target.numIpus = 1;
    target.tilesPerIpu = tilesPerIpu;
    target.bytesPerTile = 64 * 1024;
    target.regions = {{1, "interleaved", true, 0, 64 * 1024}};
    w.setTarget(target);
    ProgramRecord root;
    root.kind = "Sequence";
    root.name = "main";
    const auto main = w.addProgram(root);
    w.addControlProgram({0, main, false, "main"});
    std::int64_t position = 0;
    for (const NestedOperation& op : ops) {
        ProgramRecord p;
        p.parentId = main;
        p.position = position++;
        p.kind = "Execute";
        p.name = std::string(op.path) + "/cs";
        p.codeBytes = op.code;
        const auto program = w.addProgram(p);
        StepRecord s;
        s.programId = program;
        s.kind = "OnTileExecute";
        s.estimatedCycles = op.cycles;
        w.addStep(s);
        VariableRecord v;
        v.name = std::string(op.path) + "/out";
        v.elementType = "float";
        v.perTile.assign(tilesPerIpu, 0);
        v.perTile[0] = op.bytes;
        v.bytes = op.bytes;
        v.numElements = op.bytes / 4;
        v.categoryId = memoryCategoryId("always_live_variables");
        v.regionId = 1;
        v.alwaysLive = true;
        const auto variable = w.addVariable(v);
        w.addOperation({0, op.name, op.path, "model", op.flops, {program}, {variable}, {}});
    }
    w.finishCompilation();
    w.close();
}

} // namespace tilescope::testing
