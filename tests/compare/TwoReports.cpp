#include "TwoReports.hpp"

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <system_error>

namespace tilescope::testing {

using namespace tilescope::report;

void writeTwoReportsVariant(const std::filesystem::path& path, const TwoReportsSpec& spec) {
    const bool target = spec.variant == Variant::Target;
    ProfileWriter w(path);
    TargetInfo t;
    t.numIpus = 1;
    t.tilesPerIpu = 4;
    t.bytesPerTile = 1000;
    t.regions = {{1, "non_interleaved", false, 0, 1000}};
    w.setMetadata("engine_name", target ? "target" : "source");
    w.setTarget(t);
    w.setTileMemory("always_live_variables", "non_interleaved",
                    target ? PerTile{100, 260, 290, 500} : PerTile{100, 200, 300, 400});
    w.setTileMemory("gap", "non_interleaved", PerTile{10, 10, 10, 10});

    const std::int64_t csA = w.addComputeSet({0, "csA", "model/a", 4});
    const std::int64_t csSecond =
        w.addComputeSet({0, target ? "csC" : "csB", target ? "model/c" : "model/b", 4});

    ProgramRecord root;
    root.kind = "Sequence";
    root.name = "main";
    root.debugPath = "model";
    root.codeBytes = 20;
    const std::int64_t rootId = w.addProgram(root);
    w.addControlProgram({0, rootId, false, "main"});
    ProgramRecord a;
    a.parentId = rootId;
    a.position = 0;
    a.kind = "Execute";
    a.name = "a";
    a.debugPath = "model/a";
    a.computeSetId = csA;
    a.codeBytes = 50;
    const std::int64_t aId = w.addProgram(a);
    ProgramRecord second = a;
    second.position = 1;
    second.name = target ? "c" : "b";
    second.debugPath = target ? "model/c" : "model/b";
    second.computeSetId = csSecond;
    second.codeBytes = target ? 70 : 30;
    const std::int64_t secondId = w.addProgram(second);

    StepRecord s0;
    s0.programId = aId;
    s0.kind = "OnTileExecute";
    s0.phase = "compute";
    s0.computeSetId = csA;
    s0.estimatedCycles = 100;
    const std::int64_t step0 = w.addStep(s0);
    StepRecord s1 = s0;
    s1.programId = secondId;
    s1.computeSetId = csSecond;
    s1.estimatedCycles = target ? 300 : 200;
    s1.notAlwaysLiveBytes = 16;
    s1.maxTileNotAlwaysLiveBytes = 4;
    const std::int64_t step1 = w.addStep(s1);

    VariableRecord weights;
    weights.name = "w";
    weights.debugPath = "model/mm/w";
    weights.elementType = "float";
    weights.numElements = 10;
    weights.bytes = 40;
    weights.categoryId = memoryCategoryId("always_live_variables");
    weights.regionId = 1;
    weights.perTile = {10, 10, 10, 10};
    const std::int64_t wId = w.addVariable(weights);
    VariableRecord temp = weights;
    temp.name = "t";
    temp.debugPath = "model/t";
    temp.numElements = 4;
    temp.bytes = 16;
    temp.categoryId = memoryCategoryId("not_always_live_variables");
    temp.alwaysLive = false;
    temp.firstStep = step1;
    temp.lastStep = step1;
    temp.perTile = {4, 4, 4, 4};
    const std::int64_t tId = w.addVariable(temp);

    OperationRecord mm;
    mm.name = "matMul";
    mm.debugPath = "model/mm";
    mm.layer = "PopLibs";
    mm.flops = target ? 1500 : 1000;
    mm.programIds = {aId};
    mm.variableIds = {wId};
    w.addOperation(mm);
    OperationRecord other;
    other.name = target ? "relu" : "add";
    other.debugPath = target ? "model/relu" : "model/add";
    other.layer = "PopLibs";
    if (target)
        other.flops = 64;
    other.programIds = {secondId};
    other.variableIds = {tId};
    w.addOperation(other);
    w.finishCompilation();

    if (!spec.run.empty()) {
        w.beginRun(0, 1'700'000'000'000'000'000);
        std::uint64_t start = 0;
        for (const auto& e : spec.run) {
            RunStepRecord r;
            r.stepId = e.program == "a" ? step0 : step1;
            r.startCycle = start;
            r.cycles = e.cycles;
            r.activeTiles = 4;
            w.addRunStep(r);
            start += e.cycles;
        }
        w.endRun(1'700'000'000'000'100'000);
    }
    w.close();
}

ScratchFolder::ScratchFolder(const std::string& name) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("tilescope-compare-" + name + "-XXXXXX"))
            .string();
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
}

ScratchFolder::~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

} // namespace tilescope::testing
