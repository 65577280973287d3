#include "OperationsReport.hpp"

#include "TestReports.hpp"
#include "tilescope/report/ProfileWriter.hpp"

namespace tilescope::gui::test {
namespace {

using namespace tilescope::report;
using F = OperationsFigures;

constexpr std::uint32_t kTiles = 8;

/// `value` on tiles [first, last], zero elsewhere.
PerTile onTiles(std::uint32_t first, std::uint32_t last, std::uint64_t value) {
    PerTile v(kTiles, 0);
    for (std::uint32_t t = first; t <= last; ++t)
        v[t] = value;
    return v;
}

std::uint64_t sum(const PerTile& v) {
    std::uint64_t s = 0;
    for (auto x : v)
        s += x;
    return s;
}

std::filesystem::path write() {
    const auto dir = scratchDir("operations");
    const auto path = dir / "profile.pop";
    ProfileWriter w(path);
    TargetInfo target;
    target.numIpus = 1;
    target.tilesPerIpu = kTiles;
    target.bytesPerTile = 64 * 1024;
    target.regions = {{1, "interleaved", true, 0, 16 * 1024},
                      {2, "non_interleaved", false, 16 * 1024, 48 * 1024}};
    w.setMetadata("engine_name", "operations");
    w.setTarget(target);

    const PerTile weights = onTiles(0, 7, 512), acts = onTiles(0, 3, 256), out = onTiles(6, 7, 128);
    w.setTileMemory("vertex_code", "non_interleaved",
                    onTiles(0, 3, F::kMatmulVertexCode + F::kAddVertexCode));
    w.setTileMemory("always_live_variables", "interleaved", weights);
    w.setTileMemory("not_always_live_variables", "non_interleaved", acts);

    const std::int64_t csMatmul = w.addComputeSet({0, "matmul/cs", "model/matmul", 12});
    const std::int64_t csAdd = w.addComputeSet({0, "add/cs", "model/add", 8});
    const std::int64_t vtMatmul =
        w.addVertexType({0, "Matmul", F::kMatmulState, F::kMatmulVertexCode});
    const std::int64_t vtAdd = w.addVertexType({0, "Add", F::kAddState, F::kAddVertexCode});
    VertexInstancesRecord vi;
    vi.computeSetId = csMatmul;
    vi.vertexTypeId = vtMatmul;
    vi.perTile = onTiles(0, 3, 3);
    vi.count = sum(vi.perTile);
    w.addVertexInstances(vi);
    vi.computeSetId = csAdd;
    vi.vertexTypeId = vtAdd;
    vi.perTile = onTiles(0, 7, 1);
    vi.count = sum(vi.perTile);
    w.addVertexInstances(vi);

    auto program = [&](std::optional<std::int64_t> parent, std::int64_t position, const char* kind,
                       const char* name, std::optional<std::int64_t> cs, std::uint64_t code) {
        ProgramRecord p;
        p.parentId = parent;
        p.position = position;
        p.kind = kind;
        p.name = name;
        p.debugPath = std::string("model/") + name;
        p.computeSetId = cs;
        p.codeBytes = code;
        return w.addProgram(p);
    };
    const auto main = program({}, 0, "Sequence", "main", {}, 0);
    const auto mmExec = program(main, 0, "Execute", "matmul/cs", csMatmul, F::kMatmulCode);
    const auto mmCopy = program(main, 1, "Copy", "matmul/exchange", {}, 0);
    const auto addExec = program(main, 2, "Execute", "add/cs", csAdd, F::kAddCode);
    const auto stream = program(main, 3, "StreamCopy", "toHost", {}, 0);
    const auto sync = program(main, 4, "Sync", "sync", {}, 0);
    w.addControlProgram({0, main, false, "main"});

    struct Lowered {
        std::int64_t program;
        const char* kind;
        std::optional<std::int64_t> cs;
        std::uint64_t cycles, exchanged, notAlwaysLive;
    };
    const Lowered steps[] = {
        {mmExec, "OnTileExecute", csMatmul, 1000, 0, F::kActsBytes},
        {mmCopy, "DoExchange", {}, F::kMatmulCycles - 1000, F::kExchangeBytes, F::kActsBytes},
        {addExec, "OnTileExecute", csAdd, F::kAddCycles, 0, F::kOutBytes},
        {stream, "StreamCopyMid", {}, 600, F::kStreamBytes, F::kOutBytes},
        {sync, "Sync", {}, 50, 0, 0}};
    for (const Lowered& l : steps) {
        StepRecord s;
        s.programId = l.program;
        s.kind = l.kind;
        s.computeSetId = l.cs;
        s.estimatedCycles = l.cycles;
        s.exchangeBytes = l.exchanged;
        s.notAlwaysLiveBytes = l.notAlwaysLive;
        w.addStep(s);
    }

    auto variable = [&](const char* name, const char* category, std::int64_t region, bool always,
                        std::optional<std::int64_t> first, std::optional<std::int64_t> last,
                        const PerTile& perTile) {
        VariableRecord v;
        v.name = name;
        v.debugPath = std::string("model/") + name;
        v.elementType = "float";
        v.perTile = perTile;
        v.bytes = sum(perTile);
        v.numElements = v.bytes / 4;
        v.categoryId = memoryCategoryId(category);
        v.regionId = region;
        v.alwaysLive = always;
        v.firstStep = first;
        v.lastStep = last;
        return w.addVariable(v);
    };
    const auto vWeights = variable("weights", "always_live_variables", 1, true, {}, {}, weights);
    const auto vActs = variable("acts", "not_always_live_variables", 2, false, 0, 1, acts);
    const auto vOut = variable("out", "not_always_live_variables", 2, false, 2, 3, out);

    w.addOperation({0,
                    "matmul",
                    "model/matmul",
                    "Dense",
                    F::kMatmulFlops,
                    {mmExec, mmCopy},
                    {vWeights, vActs},
                    R"({"api":"matmul","args":{"A":{"name":"model/in","shape":"[4, 64]",)"
                    R"("type":"half"},"B":{"name":"model/weights","shape":"[64, 32]",)"
                    R"("type":"half"},"options":{"partialsType":"float"}},)"
                    R"("output":{"name":"model/acts","shape":"[4, 32]","type":"half"},)"
                    R"("units":32})"});
    w.addOperation({0, "add", "model/add", "Add", std::nullopt, {addExec}, {vOut}, ""});
    w.finishCompilation();
    w.close();
    return path;
}

} // namespace

const std::filesystem::path& operationsReport() {
    static const std::filesystem::path path = write();
    return path;
}

} // namespace tilescope::gui::test
