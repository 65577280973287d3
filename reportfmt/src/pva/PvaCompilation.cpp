// The pva face's compilation: the graph, its tiles, programs, compute sets and variables, and
// the liveness of the program steps (memory not always live, by step and by tile).

#include "PvaState.hpp"

#include <algorithm>

namespace pva {

using detail::guarded;
using detail::kPage;

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

} // namespace pva
