// The pva face's execution: runs, their steps with cycles by IPU and by tile, and the blocks of
// the tiles' execution trace.

#include "PvaState.hpp"

#include <algorithm>

namespace pva {

using detail::guarded;
using detail::kPage;

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

} // namespace pva
