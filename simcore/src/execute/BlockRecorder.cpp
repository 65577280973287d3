#include "tilescope/sim/BlockRecorder.hpp"

#include "poplar/exceptions.hpp"

#include <algorithm>

namespace tilescope::sim {

using capture::BlockKind;
using capture::ProgramKind;
using capture::StepKind;

namespace {

bool isLoop(ProgramKind k) {
    return k == ProgramKind::Repeat || k == ProgramKind::RepeatWhileTrue ||
           k == ProgramKind::RepeatWhileFalse;
}

/// The name profiler.programs.filter matches: the program's name, or for an unnamed Execute the
/// compute set's (as Poplar names an Execute after its compute set).
std::string filterName(const ProgramNode& n, const GraphModel& m) {
    if (n.name.empty() && n.kind == ProgramKind::Execute && n.computeSet < m.computeSets.size())
        return m.computeSets[n.computeSet].name;
    return n.name;
}

} // namespace

BlockSettings blockSettingsOf(const capture::EngineOptions& o) {
    BlockSettings s;
    s.blocksFilter = o.blocksFilter;
    s.programsFilter = o.programsFilter;
    s.tile = o.blocksTile;
    s.implicitFlush = o.blocksImplicitFlush;
    s.bufferSize = o.blocksBufferSize;
    s.externalExchange = o.instrumentExternalExchange;
    return s;
}

BlockRecorder::BlockRecorder(const CompiledGraph& graph, const BlockSettings& settings)
    : graph_(graph), settings_(settings) {
    const auto& target = graph_.model->target;
    if (settings_.tile >= target.tilesPerIpu)
        throw poplar::invalid_option("Engine option 'profiler.blocks.tile' must be a tile of an "
                                     "IPU (0 to " +
                                     std::to_string(target.tilesPerIpu - 1) + "), got " +
                                     std::to_string(settings_.tile));
    capacity_ = settings_.bufferSize / kBlockRecordBytes;
    if (capacity_ == 0)
        throw poplar::invalid_option("Engine option 'profiler.blocks.bufferSize' must hold at "
                                     "least one block record (" +
                                     std::to_string(kBlockRecordBytes) + " bytes), got " +
                                     std::to_string(settings_.bufferSize));
    for (unsigned ipu = 0; ipu < target.numIpus; ++ipu)
        recordingTiles_.push_back(ipu * target.tilesPerIpu + settings_.tile);

    // Select programs: explicit Blocks by name, any program by profiler.programs.filter.
    std::regex blocks, programs;
    if (!settings_.blocksFilter.empty())
        blocks = std::regex(settings_.blocksFilter);
    if (!settings_.programsFilter.empty())
        programs = std::regex(settings_.programsFilter);
    for (const auto& [node, record] : graph_.recordOfNode) {
        const bool selected =
            (!settings_.blocksFilter.empty() && node->kind == ProgramKind::Block &&
             std::regex_match(node->name, blocks)) ||
            (!settings_.programsFilter.empty() &&
             std::regex_match(filterName(*node, *graph_.model), programs));
        if (!selected)
            continue;
        Scope s;
        s.program = record;
        const auto on = ipusOf(*node);
        const bool none = std::none_of(on.begin(), on.end(), [](bool b) { return b; });
        for (unsigned ipu = 0; ipu < target.numIpus; ++ipu)
            if (none || on[ipu]) // a program that touches no tile is timed on every IPU
                s.tiles.push_back(recordingTiles_[ipu]);
        scopes_.emplace(node, std::move(s));
    }

    // Stream copies: each phase on the tiles that send or receive data in its Mid step.
    if (settings_.externalExchange) {
        const auto& steps = graph_.records.steps;
        std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> tilesOfProgram;
        for (const auto& s : steps)
            if (s.kind == StepKind::StreamCopyMid) {
                auto& tiles = tilesOfProgram[s.program];
                for (std::uint32_t t = 0; t < s.exchangeBytesPerTile.size(); ++t)
                    if (s.exchangeBytesPerTile[t] &&
                        std::find(tiles.begin(), tiles.end(), t) == tiles.end())
                        tiles.push_back(t);
            }
        streamTiles_.resize(steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const auto k = steps[i].kind;
            if (k != StepKind::StreamCopyBegin && k != StepKind::StreamCopyMid &&
                k != StepKind::StreamCopyEnd)
                continue;
            auto it = tilesOfProgram.find(steps[i].program);
            if (it != tilesOfProgram.end())
                streamTiles_[i] = it->second;
        }
    }

    if (settings_.implicitFlush && !scopes_.empty())
        for (const auto& entry : graph_.entryPoints)
            walk(*entry);
}

std::vector<bool> BlockRecorder::ipusOf(const ProgramNode& n) {
    if (auto it = ipus_.find(&n); it != ipus_.end())
        return it->second;
    const auto& target = graph_.model->target;
    std::vector<bool> on(target.numIpus, false);
    ipus_[&n] = on; // a program reached again while walking it adds nothing new
    auto add = [&](const std::vector<bool>& other) {
        for (std::size_t i = 0; i < on.size(); ++i)
            on[i] = on[i] || other[i];
    };
    if (n.kind == ProgramKind::Call && n.function < graph_.model->functions.size())
        add(ipusOf(*graph_.model->functions[n.function].body));
    for (const auto& c : n.children)
        add(ipusOf(*c));
    if (auto steps = graph_.stepsOfNode.find(&n); steps != graph_.stepsOfNode.end())
        for (auto s : steps->second) {
            const auto& rec = graph_.records.steps[s];
            if (rec.kind == StepKind::Sync)
                continue; // every tile takes part in a sync: it says nothing about where work is
            const auto& perTile = rec.kind == StepKind::OnTileExecute ? rec.estimatedCyclesPerTile
                                                                      : rec.exchangeBytesPerTile;
            for (std::size_t t = 0; t < perTile.size(); ++t)
                if (perTile[t])
                    on[t / target.tilesPerIpu] = true;
        }
    ipus_[&n] = on;
    return on;
}

BlockRecorder::Walk BlockRecorder::walk(const ProgramNode& n) {
    if (auto it = walked_.find(&n); it != walked_.end())
        return it->second;
    walked_[&n] = {};
    Walk w;
    auto visit = [&](const ProgramNode& c) {
        const auto cw = walk(c);
        w.selected = w.selected || cw.selected;
        w.loopInside = w.loopInside || cw.loopInside;
    };
    if (n.kind == ProgramKind::Call && n.function < graph_.model->functions.size())
        visit(*graph_.model->functions[n.function].body);
    for (const auto& c : n.children)
        visit(*c);
    // The innermost loops holding blocks flush after each iteration.
    if (isLoop(n.kind) && w.selected && !w.loopInside) {
        flushLoops_.insert(&n);
        w.loopInside = true;
    } else if (isLoop(n.kind) && w.selected) {
        w.loopInside = true;
    }
    w.selected = w.selected || scopes_.count(&n) != 0;
    walked_[&n] = w;
    return w;
}

void BlockRecorder::store(std::uint32_t tile, BlockKind kind, std::int64_t program,
                          std::int64_t step, std::uint64_t from, std::uint64_t to) {
    auto& b = buffers_[tile];
    from += base_;
    to += base_;
    if (b.used >= capacity_) {
        if (b.dropped == 0)
            b.droppedFrom = from;
        b.droppedTo = to;
        ++b.dropped;
        if (run_)
            ++run_->blocksDropped;
        return;
    }
    ++b.used;
    if (run_)
        run_->blocks.push_back({tile, kind, program, step, from, to, 0});
}

void BlockRecorder::exit(const Scope& scope, std::uint64_t from, std::uint64_t& cycle) {
    cycle += kBlockEdgeCycles;
    for (auto tile : scope.tiles)
        store(tile, BlockKind::Common, scope.program, -1, from, cycle);
}

void BlockRecorder::recordStep(std::uint32_t step, std::uint64_t from, std::uint64_t to) {
    const auto& rec = graph_.records.steps[step];
    const BlockKind kind = rec.kind == StepKind::StreamCopyBegin ? BlockKind::StreamCopyBegin
                           : rec.kind == StepKind::StreamCopyMid ? BlockKind::StreamCopyMid
                                                                 : BlockKind::StreamCopyEnd;
    for (auto tile : streamTiles_[step])
        store(tile, kind, rec.program, step, from, to);
}

void BlockRecorder::drain() {
    for (auto& [tile, b] : buffers_) {
        if (b.dropped && run_)
            run_->blocks.push_back(
                {tile, BlockKind::Overflow, -1, -1, b.droppedFrom, b.droppedTo, b.dropped});
        b = TileBuffer{};
    }
}

void BlockRecorder::flush(std::uint64_t& cycle) {
    const auto& target = graph_.model->target;
    std::uint64_t bytes = 0;
    for (const auto& [tile, b] : buffers_)
        bytes = std::max(bytes, b.used * kBlockRecordBytes);
    // Begin: sync with the host; Mid: the buffers travel over the host link; End: completion.
    const std::uint64_t phases[3] = {
        costs_.syncCycles(target, true) + costs_.streamCopyBeginEndCycles,
        costs_.streamCopyCycles(target, bytes), costs_.streamCopyBeginEndCycles};
    const BlockKind kinds[3] = {BlockKind::BlockFlushBegin, BlockKind::BlockFlushMid,
                                BlockKind::BlockFlushEnd};
    std::uint64_t from[3], to[3];
    for (int p = 0; p < 3; ++p) {
        from[p] = cycle;
        cycle += phases[p] + (settings_.externalExchange ? 2 * kBlockEdgeCycles : 0);
        to[p] = cycle;
    }
    drain();
    // The flush's own records land in the emptied buffers, as on the IPU.
    if (settings_.externalExchange)
        for (auto tile : recordingTiles_)
            for (int p = 0; p < 3; ++p)
                store(tile, kinds[p], -1, -1, from[p], to[p]);
}

BlockMemory BlockRecorder::memory() const {
    const auto numTiles = graph_.model->target.numTiles();
    BlockMemory m{capture::PerTile(numTiles, 0), capture::PerTile(numTiles, 0)};
    const auto edges = [&](std::uint32_t tile, std::uint64_t n) {
        m.bufferBytes[tile] = capacity_ * kBlockRecordBytes;
        m.edgeCodeBytes[tile] += n * kBlockEdgeCodeBytes;
    };
    for (const auto& [node, scope] : scopes_)
        for (auto tile : scope.tiles)
            edges(tile, 2);
    for (const auto& tiles : streamTiles_)
        for (auto tile : tiles)
            edges(tile, 2);
    // Flushes record their three phases under debug.instrumentExternalExchange.
    if (settings_.externalExchange && !flushLoops_.empty())
        for (auto tile : recordingTiles_)
            edges(tile, 3 * 2);
    return m;
}

void BlockRecorder::beginRun(capture::RunRecord& run) {
    run_ = &run;
    run.blocks.clear();
    run.blocksDropped = 0;
    run.blockCycleBase = base_;
}

void BlockRecorder::endRun(std::uint64_t runCycles) {
    drain();
    run_ = nullptr;
    base_ += runCycles;
}

} // namespace tilescope::sim
