// The pva-style face over ProfileReader. Objects hold the shared ReportState; the state caches
// only plain records (never objects that point back at it), so there are no reference cycles.

#include "PvaState.hpp"
#include "pva/pva.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/Version.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace pva {
namespace {

using tilescope::report::ProfileReader;
using tilescope::report::ReportError;

/// Runs `f`, turning the reader's ReportError into the face's pva::error (same message).
template <typename F> auto guarded(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const ReportError& e) {
        throw error(e.what());
    }
}

struct CategoryMember {
    std::string_view name;
    MemoryCategory MemoryCategories::*member;
    bool alwaysLive;
};

// The format's categories (see MemoryCategories.cpp) and the members that hold them.
constexpr CategoryMember kCategoryMembers[] = {
    {"vertex_code", &MemoryCategories::vertexCode, true},
    {"vertex_state", &MemoryCategories::vertexInstanceState, true},
    {"vertex_descriptors", &MemoryCategories::vertexDescriptors, true},
    {"vertex_field_data", &MemoryCategories::vertexFieldData, true},
    {"control_code", &MemoryCategories::controlCode, true},
    {"internal_exchange_code", &MemoryCategories::internalExchangeCode, true},
    {"host_exchange_code", &MemoryCategories::hostExchangeCode, true},
    {"global_exchange_code", &MemoryCategories::globalExchangeCode, true},
    {"exchange_buffers", &MemoryCategories::exchangeBuffers, true},
    {"always_live_variables", &MemoryCategories::variable, true},
    {"not_always_live_variables", &MemoryCategories::notAlwaysLiveVariable, false},
    {"constants", &MemoryCategories::constant, true},
    {"stack", &MemoryCategories::stack, true},
    {"instrumentation", &MemoryCategories::instrumentationResults, true},
    {"gap", &MemoryCategories::gap, false},
    {"copy_descriptors", &MemoryCategories::copyDescriptor, true},
    {"host_exchange_packet_headers", &MemoryCategories::hostExchangePacketHeader, true},
    {"global_exchange_packet_headers", &MemoryCategories::globalExchangePacketHeader, true},
    {"control_table", &MemoryCategories::controlTable, true},
};

const CategoryMember* findCategory(std::string_view name) {
    for (const auto& c : kCategoryMembers)
        if (c.name == name)
            return &c;
    return nullptr;
}

Program::Type typeOf(std::string_view kind) {
    using T = Program::Type;
    static const std::pair<std::string_view, T> kinds[] = {
        {"Sequence", T::Sequence},
        {"Repeat", T::Repeat},
        {"RepeatWhile", T::RepeatWhileTrue},
        {"RepeatWhileTrue", T::RepeatWhileTrue},
        {"RepeatWhileFalse", T::RepeatWhileFalse},
        {"If", T::If},
        {"Switch", T::Switch},
        {"Call", T::Call},
        {"Copy", T::Copy},
        {"StreamCopy", T::StreamCopy},
        {"Execute", T::OnTileExecute},
        {"OnTileExecute", T::OnTileExecute},
        {"DoExchange", T::DoExchange},
        {"GlobalExchange", T::GlobalExchange},
        {"StreamCopyBegin", T::StreamCopyBegin},
        {"StreamCopyMid", T::StreamCopyMid},
        {"StreamCopyEnd", T::StreamCopyEnd},
        {"Sync", T::Sync},
        {"Block", T::Block},
        // A cross-replica collective: GCL builds one as a Sequence of ordinary programs (the
        // ring's syncs, cross-replica copies and reductions), which libpva shows as such.
        {"CrossReplica", T::Sequence},
    };
    for (const auto& [name, type] : kinds)
        if (name == kind)
            return type;
    return T::Unknown;
}

constexpr std::int64_t kPage = 4096;

} // namespace

namespace detail {

/// What every pva object shares: the reader and small caches of plain records.
struct ReportState : std::enable_shared_from_this<ReportState> {
    struct ProgramInfo {
        std::string name, kind, debugPath;
    };
    struct StepInfo {
        std::int64_t programId = 0;
        std::string kind;
    };

    std::shared_ptr<ProfileReader> reader;
    std::unordered_map<std::int64_t, ProgramInfo> programs;
    std::unordered_map<std::int64_t, StepInfo> steps;
    std::unordered_map<std::int64_t, std::string> categoryNames;

    explicit ReportState(std::shared_ptr<ProfileReader> r) : reader(std::move(r)) {
        for (const auto& c : reader->memoryCategories())
            categoryNames[c.id] = c.name;
    }

    ProfileReader& r() const { return *reader; }

    std::shared_ptr<Program> makeProgram(const tilescope::report::ProgramRecord& p) {
        programs[p.id] = {p.name, p.kind, p.debugPath};
        return std::make_shared<Program>(shared_from_this(), p.id, p.name, p.kind, p.debugPath,
                                         false);
    }

    std::shared_ptr<Program> program(std::int64_t id) {
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

    /// The lowered program of a step: the step's kind, the name of the program it came from.
    std::shared_ptr<Program> loweredProgram(std::int64_t programId, const std::string& kind) {
        auto source = program(programId);
        // An on-tile Copy runs as an OnTileExecute step with no compute set (the simulator keeps
        // no copy vertices); libpva's OnTileExecute always has one, so the step is the Copy.
        const bool onTileCopy = kind == "OnTileExecute" && source && source->kind() == "Copy";
        return std::make_shared<Program>(
            shared_from_this(), programId, source ? source->name() : std::string(),
            onTileCopy ? source->kind() : kind, source ? source->debugPath() : std::string(), true);
    }

    std::shared_ptr<Program> stepProgram(std::int64_t stepIndex) {
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

    Variable makeVariable(const tilescope::report::VariableRecord& v) {
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

    static ComputeSet makeComputeSet(const tilescope::report::ComputeSetRecord& c) {
        ComputeSet out;
        out.id_ = c.id;
        out.name_ = c.name;
        out.debugPath_ = c.debugPath;
        out.numVertices_ = c.numVertices;
        return out;
    }

    Target target() const {
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

    std::vector<Tile> tiles() const {
        const auto& t = r().target();
        std::vector<Tile> out(t.numTiles());
        for (unsigned i = 0; i < out.size(); ++i) {
            out[i].number_ = i;
            out[i].ipu_ = i / t.tilesPerIpu;
            out[i].tileOnIpu_ = i % t.tilesPerIpu;
        }
        std::unordered_map<std::int64_t, bool> interleaved;
        for (const auto& region : t.regions)
            interleaved[region.id] = region.interleaved;
        for (const auto& row : r().tileMemoryTotals()) {
            const auto name = categoryNames.find(row.categoryId);
            const CategoryMember* c =
                name == categoryNames.end() ? nullptr : findCategory(name->second);
            if (!c)
                continue; // a category this face does not know: not counted in any member
            const bool inInterleaved = interleaved[row.regionId];
            const auto perTile = r().tileMemory(row.categoryId, row.regionId);
            for (std::size_t i = 0; i < out.size() && i < perTile.size(); ++i) {
                MemoryCategory& m = out[i].memory_.categories_.*(c->member);
                (inInterleaved ? m.interleaved_ : m.nonInterleaved_) += perTile[i];
            }
        }
        return out;
    }

    tilescope::report::RunRecord runRecord(std::int64_t firstRow, std::uint64_t numSteps) const {
        tilescope::report::RunRecord run;
        run.firstRow = firstRow;
        run.numSteps = numSteps;
        return run;
    }
};

tilescope::report::ProfileReader& readerOf(const StatePtr& state) {
    return state->r();
}

} // namespace detail

// Version ----------------------------------------------------------------------------------------

Version::Version(std::string text) : text_(std::move(text)) {
    std::size_t pos = 0;
    unsigned* parts[] = {&major_, &minor_, &point_};
    for (unsigned* part : parts) {
        unsigned value = 0;
        bool any = false;
        while (pos < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos]))) {
            value = value * 10 + static_cast<unsigned>(text_[pos] - '0');
            ++pos;
            any = true;
        }
        if (!any)
            break;
        *part = value;
        if (pos < text_.size() && text_[pos] == '.')
            ++pos;
        else
            break;
    }
    std::string rest = text_.substr(pos);
    const auto first = rest.find_first_not_of(" +-(");
    const auto last = rest.find_last_not_of(" )");
    packageHash_ =
        first == std::string::npos ? std::string() : rest.substr(first, last - first + 1);
}

// Memory -----------------------------------------------------------------------------------------

const MemoryCategory& MemoryCategories::byName(const std::string& name) const {
    const CategoryMember* c = findCategory(name);
    if (!c)
        throw error("unknown memory category '" + name + "'");
    return this->*(c->member);
}

TotalMemory TileMemory::total() const {
    TotalMemory t;
    for (const auto& c : kCategoryMembers)
        t.includingGaps_ += (categories_.*(c.member)).total();
    t.excludingGaps_ = t.includingGaps_ - categories_.gap.total();
    return t;
}

std::uint64_t TileMemory::alwaysLiveBytes() const {
    std::uint64_t sum = 0;
    for (const auto& c : kCategoryMembers)
        if (c.alwaysLive)
            sum += (categories_.*(c.member)).total();
    return sum;
}

// Programs ---------------------------------------------------------------------------------------

Program::Program(detail::StatePtr state, std::int64_t id, std::string name, std::string kind,
                 std::string debugPath, bool lowered)
    : state_(std::move(state)), id_(id), name_(std::move(name)), kind_(std::move(kind)),
      debugPath_(std::move(debugPath)), type_(typeOf(kind_)), lowered_(lowered) {}

std::vector<std::shared_ptr<Program>> Program::children() const {
    if (lowered_)
        return {};
    return guarded([&] {
        std::vector<std::shared_ptr<Program>> out;
        for (const auto& c : state_->r().children(id_))
            out.push_back(state_->makeProgram(c));
        return out;
    });
}

std::string toString(Program::Type type) {
    using T = Program::Type;
    switch (type) {
    case T::Sequence:
        return "Sequence";
    case T::Repeat:
        return "Repeat";
    case T::RepeatWhileTrue:
        return "RepeatWhileTrue";
    case T::RepeatWhileFalse:
        return "RepeatWhileFalse";
    case T::If:
        return "If";
    case T::Switch:
        return "Switch";
    case T::Call:
        return "Call";
    case T::Copy:
        return "Copy";
    case T::StreamCopy:
        return "StreamCopy";
    case T::OnTileExecute:
        return "OnTileExecute";
    case T::DoExchange:
        return "DoExchange";
    case T::GlobalExchange:
        return "GlobalExchange";
    case T::StreamCopyBegin:
        return "StreamCopyBegin";
    case T::StreamCopyMid:
        return "StreamCopyMid";
    case T::StreamCopyEnd:
        return "StreamCopyEnd";
    case T::Sync:
        return "Sync";
    case T::Block:
        return "Block";
    case T::Unknown:
        break;
    }
    return "Unknown";
}

// Liveness ---------------------------------------------------------------------------------------

std::vector<Variable> NotAlwaysLiveMemory::variables() const {
    return guarded([&] {
        std::vector<Variable> out;
        for (const auto& v : state_->r().variablesLiveAt(step_, hasTile_))
            if (!hasTile_ || (tile_ < v.perTile.size() && v.perTile[tile_] > 0))
                out.push_back(state_->makeVariable(v));
        return out;
    });
}

ProgramStep::ProgramStep(detail::StatePtr state, std::int64_t index, std::int64_t programId,
                         std::string kind, std::uint64_t estimatedCycles,
                         std::uint64_t notAlwaysLive, std::uint64_t maxTileNotAlwaysLive)
    : state_(std::move(state)), index_(index), programId_(programId), kind_(std::move(kind)),
      estimatedCycles_(estimatedCycles), notAlwaysLive_(notAlwaysLive),
      maxTileNotAlwaysLive_(maxTileNotAlwaysLive) {}

std::shared_ptr<Program> ProgramStep::program() const {
    return guarded([&] { return state_->loweredProgram(programId_, kind_); });
}

NotAlwaysLiveMemory ProgramStep::notAlwaysLiveMemory() const {
    NotAlwaysLiveMemory m;
    m.state_ = state_;
    m.step_ = index_;
    m.bytes_ = notAlwaysLive_;
    return m;
}

NotAlwaysLiveMemory ProgramStep::notAlwaysLiveMemoryForTile(unsigned tile) const {
    return guarded([&] {
        const auto perTile = state_->r().notAlwaysLiveBytesAt(index_);
        if (tile >= perTile.size())
            throw error(state_->r().path() + ": tile " + std::to_string(tile) +
                        " is out of range (the target has " + std::to_string(perTile.size()) +
                        " tiles)");
        NotAlwaysLiveMemory m;
        m.state_ = state_;
        m.step_ = index_;
        m.hasTile_ = true;
        m.tile_ = tile;
        m.bytes_ = perTile[tile];
        return m;
    });
}

// Compilation ------------------------------------------------------------------------------------

Target Compilation::target() const {
    return state_->target();
}

Graph Compilation::graph() const {
    return guarded([&] {
        const auto c = state_->r().counts();
        Graph g;
        g.computeSets_ = static_cast<std::uint64_t>(c.computeSets);
        g.vertices_ = static_cast<std::uint64_t>(c.vertices);
        g.variables_ = static_cast<std::uint64_t>(c.variables);
        g.vertexTypes_ = static_cast<std::uint64_t>(c.vertexTypes);
        return g;
    });
}

std::vector<Tile> Compilation::tiles() const {
    return guarded([&] { return state_->tiles(); });
}

std::vector<std::shared_ptr<Program>> Compilation::programs() const {
    return guarded([&] {
        std::vector<std::shared_ptr<Program>> out;
        // Depth-first, parents before children, siblings in order.
        std::vector<tilescope::report::ProgramRecord> pending = state_->r().children(std::nullopt);
        std::reverse(pending.begin(), pending.end());
        while (!pending.empty()) {
            const auto p = std::move(pending.back());
            pending.pop_back();
            out.push_back(state_->makeProgram(p));
            auto kids = state_->r().children(p.id);
            pending.insert(pending.end(), std::make_move_iterator(kids.rbegin()),
                           std::make_move_iterator(kids.rend()));
        }
        return out;
    });
}

namespace {

std::vector<std::shared_ptr<Program>> entryPoints(detail::ReportState& state, bool functions) {
    std::vector<std::shared_ptr<Program>> out;
    for (const auto& cp : state.r().controlPrograms())
        if (cp.isFunction == functions)
            if (auto p = state.program(cp.programId))
                out.push_back(std::move(p));
    return out;
}

} // namespace

std::vector<std::shared_ptr<Program>> Compilation::controlPrograms() const {
    return guarded([&] { return entryPoints(*state_, false); });
}

std::vector<std::shared_ptr<Program>> Compilation::functions() const {
    return guarded([&] { return entryPoints(*state_, true); });
}

std::vector<ComputeSet> Compilation::computeSets() const {
    return guarded([&] {
        std::vector<ComputeSet> out;
        for (std::int64_t after = 0;;) {
            const auto page = state_->r().computeSets(after, kPage);
            for (const auto& c : page)
                out.push_back(detail::ReportState::makeComputeSet(c));
            if (static_cast<std::int64_t>(page.size()) < kPage)
                return out;
            after = page.back().id;
        }
    });
}

std::vector<Variable> Compilation::variables() const {
    return guarded([&] {
        std::vector<Variable> out;
        for (std::int64_t after = 0;;) {
            const auto page = state_->r().variables(after, kPage);
            for (const auto& v : page)
                out.push_back(state_->makeVariable(v));
            if (static_cast<std::int64_t>(page.size()) < kPage)
                return out;
            after = page.back().id;
        }
    });
}

std::vector<Variable> Compilation::alwaysLiveVariables() const {
    auto all = variables();
    std::erase_if(all, [](const Variable& v) { return !v.alwaysLive(); });
    return all;
}

std::vector<Variable> Compilation::notAlwaysLiveVariables() const {
    auto all = variables();
    std::erase_if(all, [](const Variable& v) { return v.alwaysLive(); });
    return all;
}

std::vector<ProgramStep> Compilation::livenessProgramSteps() const {
    return guarded([&] {
        std::vector<ProgramStep> out;
        for (std::int64_t first = 0;; first += kPage) {
            const auto page = state_->r().steps(first, kPage);
            for (const auto& s : page)
                out.emplace_back(state_, s.id, s.programId, s.kind, s.estimatedCycles,
                                 s.notAlwaysLiveBytes, s.maxTileNotAlwaysLiveBytes);
            if (static_cast<std::int64_t>(page.size()) < kPage)
                return out;
        }
    });
}

bool Compilation::outOfMemory() const {
    return state_->r().outOfMemory();
}

// Execution --------------------------------------------------------------------------------------

ExecutionStep::ExecutionStep(detail::StatePtr state, std::int64_t row, std::int64_t stepIndex,
                             std::uint64_t startCycle, std::uint64_t cycles, unsigned activeTiles,
                             double tileBalance, std::vector<std::uint64_t> cyclesByIpu)
    : state_(std::move(state)), row_(row), stepIndex_(stepIndex), startCycle_(startCycle),
      cycles_(cycles), activeTiles_(activeTiles), tileBalance_(tileBalance),
      cyclesByIpu_(std::move(cyclesByIpu)) {}

std::shared_ptr<Program> ExecutionStep::program() const {
    return guarded([&] { return state_->stepProgram(stepIndex_); });
}

std::vector<std::uint64_t> ExecutionStep::cyclesByTile() const {
    return guarded([&] {
        const auto rows = state_->r().runSteps(state_->runRecord(row_, 1), 0, 1, true);
        return rows.empty() ? std::vector<std::uint64_t>() : rows[0].perTile;
    });
}

std::vector<IpuExecution> ExecutionStep::ipus() const {
    const auto& t = state_->r().target();
    const auto perTile = cyclesByTile();
    std::vector<IpuExecution> out(t.numIpus);
    for (unsigned i = 0; i < t.numIpus; ++i) {
        IpuExecution& ipu = out[i];
        ipu.ipu_ = i;
        ipu.cycles_ = i < cyclesByIpu_.size() ? cyclesByIpu_[i] : cycles_;
        if (perTile.size() != t.numTiles()) {
            if (t.numIpus == 1) {
                ipu.activeTiles_ = activeTiles_;
                ipu.balance_ = tileBalance_;
            }
            continue;
        }
        const auto first = perTile.begin() + static_cast<std::ptrdiff_t>(i) * t.tilesPerIpu;
        ipu.cyclesByTile_.assign(first, first + t.tilesPerIpu);
        std::uint64_t sum = 0, maxCycles = 0;
        for (const auto c : ipu.cyclesByTile_)
            if (c) {
                ++ipu.activeTiles_;
                sum += c;
                maxCycles = std::max(maxCycles, c);
            }
        ipu.balance_ = maxCycles ? static_cast<double>(sum) /
                                       (static_cast<double>(ipu.activeTiles_) * maxCycles)
                                 : 1.0;
        if (i >= cyclesByIpu_.size())
            ipu.cycles_ = maxCycles;
    }
    return out;
}

Run::Run(detail::StatePtr state, std::int64_t id, std::int64_t programIndex, std::int64_t firstRow,
         std::uint64_t numSteps, std::uint64_t cycles, Microseconds microseconds, bool complete)
    : state_(std::move(state)), id_(id), programIndex_(programIndex), firstRow_(firstRow),
      numSteps_(numSteps), cycles_(cycles), microseconds_(microseconds), complete_(complete) {}

std::shared_ptr<Program> Run::program() const {
    return guarded([&]() -> std::shared_ptr<Program> {
        for (const auto& cp : state_->r().controlPrograms())
            if (!cp.isFunction && cp.index == programIndex_)
                return state_->program(cp.programId);
        return nullptr;
    });
}

std::vector<ExecutionStep> Run::steps() const {
    return guarded([&] {
        std::vector<ExecutionStep> out;
        out.reserve(numSteps_);
        const auto run = state_->runRecord(firstRow_, numSteps_);
        for (std::int64_t seq = 0; seq < static_cast<std::int64_t>(numSteps_); seq += kPage * 4) {
            for (auto& s : state_->r().runSteps(run, seq, kPage * 4, false))
                out.emplace_back(state_, s.row, s.stepId, s.startCycle, s.cycles, s.activeTiles,
                                 s.tileBalance, std::move(s.perIpu));
        }
        return out;
    });
}

std::vector<Run> Execution::runs() const {
    return guarded([&] {
        std::vector<Run> out;
        for (const auto& r : state_->r().runs()) {
            const auto toMicros = [](std::int64_t ns) {
                return ns < 0 ? std::uint64_t{0} : static_cast<std::uint64_t>(ns) / 1000;
            };
            Microseconds us;
            us.start_ = toMicros(r.hostStartNs);
            us.end_ = r.hostEndNs ? toMicros(*r.hostEndNs) : us.start_;
            out.emplace_back(state_, r.id, r.programIndex, r.firstRow, r.numSteps, r.totalCycles,
                             us, r.hostEndNs.has_value());
        }
        return out;
    });
}

std::vector<Block> Execution::blocks(unsigned tile) const {
    return guarded([&] {
        std::vector<Block> out;
        for (const auto& b : state_->r().blocks(tile)) {
            Block x;
            x.state_ = state_;
            x.runIndex_ = b.runIndex;
            x.programId_ = b.programId.value_or(-1);
            x.stepId_ = b.stepId.value_or(-1);
            x.tile_ = b.tile;
            x.kind_ = static_cast<int>(b.kind);
            x.cyclesFrom_ = b.cyclesFrom;
            x.cyclesTo_ = b.cyclesTo;
            x.dropped_ = b.dropped;
            out.push_back(std::move(x));
        }
        return out;
    });
}

std::vector<unsigned> Execution::blockTiles() const {
    return guarded([&] {
        const auto tiles = state_->r().blockTiles();
        return std::vector<unsigned>(tiles.begin(), tiles.end());
    });
}

std::shared_ptr<Program> Block::program() const {
    return guarded([&]() -> std::shared_ptr<Program> {
        const auto kind = static_cast<tilescope::report::BlockKind>(kind_);
        if (stepId_ >= 0)
            return state_->stepProgram(stepId_);
        if (programId_ >= 0)
            return state_->program(programId_);
        // Flushes and overflows have no program in the tree: a named stand-in of their kind.
        const std::string name = isOverflow() ? "Overflow" : "BlockFlush";
        const std::string phase(tilescope::report::blockKindName(kind));
        const std::string type = isBlockFlush() ? "StreamCopy" + phase.substr(10) : "";
        return std::make_shared<Program>(state_, -1, name, type, std::string(), true);
    });
}

std::vector<ExecutionStep> Execution::steps() const {
    std::vector<ExecutionStep> out;
    for (const auto& run : runs()) {
        auto steps = run.steps();
        out.insert(out.end(), std::make_move_iterator(steps.begin()),
                   std::make_move_iterator(steps.end()));
    }
    return out;
}

// Report -----------------------------------------------------------------------------------------

Version Report::poplarVersion() const {
    const auto& file = state_->r().file();
    return Version(file.metadataValue(
        "poplar_version", file.metadataValue("tool_version", tilescope::report::kToolVersion)));
}

const std::string& Report::reportFilename() const {
    return state_->r().path();
}

Report openReport(const std::string& reportPath, const std::string& /*debugInfoPath*/) {
    try {
        auto reader = std::make_shared<ProfileReader>(reportPath);
        return Report(std::make_shared<detail::ReportState>(std::move(reader)));
    } catch (const ReportError& e) {
        throw openfile_error(e.what());
    } catch (const std::exception& e) {
        // e.g. a metadata value that does not parse: still a file problem, still one line.
        throw openfile_error(reportPath + ": file is damaged (" + e.what() + ")");
    }
}

} // namespace pva
