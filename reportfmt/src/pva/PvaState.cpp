// The pva face's shared report state: programs, steps, variables and the target as the face's
// objects, made from the reader's records.

#include "PvaState.hpp"

namespace pva::detail {

ReportState::ReportState(std::shared_ptr<tilescope::report::ProfileReader> r)
    : reader(std::move(r)) {
    for (const auto& c : reader->memoryCategories())
        categoryNames[c.id] = c.name;
}

std::shared_ptr<Program> ReportState::makeProgram(const tilescope::report::ProgramRecord& p) {
    programs[p.id] = {p.name, p.kind, p.debugPath};
    return std::make_shared<Program>(shared_from_this(), p.id, p.name, p.kind, p.debugPath, false);
}

std::shared_ptr<Program> ReportState::program(std::int64_t id) {
    auto it = programs.find(id);
    if (it == programs.end()) {
        const auto p = r().program(id);
        if (!p)
            return nullptr;
        return makeProgram(*p);
    }
    return std::make_shared<Program>(shared_from_this(), id, it->second.name, it->second.kind,
                                     it->second.debugPath, false);
}

std::shared_ptr<Program> ReportState::loweredProgram(std::int64_t programId,
                                                     const std::string& kind) {
    auto source = program(programId);
    // An on-tile Copy runs as an OnTileExecute step with no compute set (the simulator keeps
    // no copy vertices); libpva's OnTileExecute always has one, so the step is the Copy.
    const bool onTileCopy = kind == "OnTileExecute" && source && source->kind() == "Copy";
    return std::make_shared<Program>(
        shared_from_this(), programId, source ? source->name() : std::string(),
        onTileCopy ? source->kind() : kind, source ? source->debugPath() : std::string(), true);
}

std::shared_ptr<Program> ReportState::stepProgram(std::int64_t stepIndex) {
    auto it = steps.find(stepIndex);
    if (it == steps.end()) {
        const auto found = r().steps(stepIndex, 1);
        if (found.empty())
            return nullptr;
        it = steps.emplace(stepIndex, StepInfo{found[0].programId, found[0].kind}).first;
    }
    const StepInfo info = it->second;
    return loweredProgram(info.programId, info.kind);
}

Variable ReportState::makeVariable(const tilescope::report::VariableRecord& v) {
    Variable out;
    out.state_ = shared_from_this();
    out.id_ = v.id;
    out.name_ = v.name;
    out.debugPath_ = v.debugPath;
    out.elementType_ = v.elementType;
    const auto it = categoryNames.find(v.categoryId);
    out.category_ = it == categoryNames.end() ? std::string() : it->second;
    out.bytes_ = v.bytes;
    out.numElements_ = v.numElements;
    out.alwaysLive_ = v.alwaysLive;
    return out;
}

ComputeSet ReportState::makeComputeSet(const tilescope::report::ComputeSetRecord& c) {
    ComputeSet out;
    out.id_ = c.id;
    out.name_ = c.name;
    out.debugPath_ = c.debugPath;
    out.numVertices_ = c.numVertices;
    return out;
}

Target ReportState::target() const {
    const auto& t = r().target();
    Target out;
    // "IPU (simulated)": TileScope's simulated IPU hardware (TILESCOPE_SIMULATED_IPUS).
    out.type_ = t.type == "IPU" || t.type == "IPU (simulated)" ? Target::Type::IPU
                : t.type == "IPU_MODEL"                        ? Target::Type::IPU_MODEL
                                                               : Target::Type::Unknown;
    out.architecture_ = t.ipuVersion;
    out.numIpus_ = t.totalIpus(); // pva counts every replica's IPUs
    out.tilesPerIpu_ = t.tilesPerIpu;
    out.bytesPerTile_ = t.bytesPerTile;
    out.clockHz_ = t.clockHz;
    out.replicas_ = t.replicas;
    out.workerContexts_ = t.workerContexts;
    out.exchangeBytesPerCycle_ = t.exchangeBytesPerCycle;
    return out;
}

tilescope::report::RunRecord ReportState::runRecord(std::int64_t firstRow,
                                                    std::uint64_t numSteps) const {
    tilescope::report::RunRecord run;
    run.firstRow = firstRow;
    run.numSteps = numSteps;
    return run;
}

tilescope::report::ProfileReader& readerOf(const StatePtr& state) {
    return state->r();
}

} // namespace pva::detail
