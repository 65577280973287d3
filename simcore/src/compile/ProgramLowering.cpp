#include "tilescope/sim/ProgramLowering.hpp"

#include "ComputeSetCost.hpp"
#include "poplar/exceptions.hpp"

#include <algorithm>

namespace tilescope::sim {

using capture::PerTile;
using capture::ProgramKind;
using capture::StepKind;

namespace {

bool isControl(ProgramKind k) {
    return k == ProgramKind::Sequence || k == ProgramKind::Repeat ||
           k == ProgramKind::RepeatWhileTrue || k == ProgramKind::RepeatWhileFalse ||
           k == ProgramKind::If || k == ProgramKind::Switch || k == ProgramKind::Call ||
           k == ProgramKind::Block;
}

std::string nodeName(const ProgramNode& n, const GraphModel& m) {
    // As in Poplar, an unnamed Execute is named after its compute set.
    if (n.name.empty() && n.kind == ProgramKind::Execute && n.computeSet < m.computeSets.size())
        return m.computeSets[n.computeSet].name;
    return n.name.empty() ? std::string(capture::programKindName(n.kind)) : n.name;
}

/// The variables a view covers, in order of first appearance: "name", or "{a,b}" for several.
std::string variableList(const TensorView& view, const GraphModel& m) {
    std::vector<std::uint32_t> seen;
    for (const auto& r : view.ranges)
        if (std::find(seen.begin(), seen.end(), r.variable) == seen.end())
            seen.push_back(r.variable);
    if (seen.size() == 1)
        return m.variables[seen.front()].name;
    std::string out = "{";
    for (std::size_t i = 0; i < seen.size(); ++i)
        out += (i ? "," : "") + m.variables[seen[i]].name;
    return out + "}";
}

} // namespace

ProgramLowering::ProgramLowering(const GraphModel& model, const CostModel& costs, bool instrument,
                                 CompiledGraph& out)
    : model_(model), costs_(costs), runs_(model), instrument_(instrument), out_(out) {
    for (auto* series :
         {&code_.controlCode, &code_.controlTable, &code_.internalExchangeCode,
          &code_.hostExchangeCode, &code_.globalExchangeCode, &code_.hostPacketHeaders,
          &code_.globalPacketHeaders, &code_.copyDescriptors, &code_.instrumentation})
        *series = zeros();
    for (auto& b : code_.controlCode)
        b = costs_.controlCodeBaseBytes;
    estimators_.assign(model.vertexTypes.size(), nullptr);
    for (const auto& e : model.perfEstimators) {
        const int type = model.vertexTypes.find(e.vertexType);
        if (type >= 0 && !estimators_[static_cast<std::size_t>(type)])
            estimators_[static_cast<std::size_t>(type)] = &e;
    }
}

ProgramLowering::~ProgramLowering() = default;

std::uint32_t ProgramLowering::tileOf(const ElementRange& r, std::uint64_t offset) const {
    return static_cast<std::uint32_t>(model_.variables[r.variable].tileOf[r.begin + offset]);
}

std::uint32_t ProgramLowering::newNode(const std::vector<std::uint32_t>& preds) {
    const auto id = static_cast<std::uint32_t>(cfg_.size());
    cfg_.emplace_back();
    for (auto p : preds)
        cfg_[p].successors.push_back(id);
    return id;
}

std::uint32_t ProgramLowering::newStep(StepKind kind, std::uint32_t record, const std::string& name,
                                       std::uint32_t pred) {
    const auto node = newNode({pred});
    const auto index = static_cast<std::uint32_t>(out_.records.steps.size());
    cfg_[node].step = index;
    capture::StepRecord s;
    s.kind = kind;
    s.program = record;
    s.name = name;
    s.exchangeBytesPerTile = zeros();
    s.estimatedCyclesPerTile = zeros();
    out_.records.steps.push_back(std::move(s));
    out_.steps.emplace_back();
    out_.records.programs[record].steps.push_back(index);
    // Every tile runs the control program, so each step costs control code on every tile.
    auto& codePerTile = out_.records.programs[record].codeBytesPerTile;
    for (std::uint32_t t = 0; t < model_.target.numTiles(); ++t) {
        code_.controlCode[t] += costs_.controlCodeBytesPerStep;
        codePerTile[t] += costs_.controlCodeBytesPerStep;
        if (instrument_)
            code_.instrumentation[t] += costs_.instrumentationBytesPerStep;
    }
    return node;
}

void ProgramLowering::addStepCode(std::uint32_t record, PerTile& category, std::uint32_t tile,
                                  std::uint64_t bytes) {
    category[tile] += bytes;
    out_.records.programs[record].codeBytesPerTile[tile] += bytes;
}

void ProgramLowering::addRead(std::uint32_t node, const TensorView& t) {
    auto& reads = cfg_[node].reads;
    for (const auto& r : t.ranges) // finishAccesses() drops repeats; skip the neighbouring ones
        if (reads.empty() || reads.back() != r.variable)
            reads.push_back(r.variable);
}

void ProgramLowering::addWrite(std::uint32_t, const TensorView& t) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>>* ranges = nullptr;
    std::uint32_t variable = 0;
    for (const auto& r : t.ranges) {
        if (!ranges || variable != r.variable) {
            variable = r.variable;
            ranges = &pendingWrites_[variable];
        }
        // Touching ranges are joined: finishAccesses() counts only the elements covered.
        if (!ranges->empty() && ranges->back().second == r.begin)
            ranges->back().second = r.end;
        else
            ranges->emplace_back(r.begin, r.end);
    }
}

void ProgramLowering::finishAccesses(std::uint32_t node) {
    auto& n = cfg_[node];
    // A write kills a variable only if it covers every element; partial writes keep it live.
    for (auto& [var, ranges] : pendingWrites_) {
        std::sort(ranges.begin(), ranges.end());
        std::uint64_t covered = 0, reach = 0;
        for (const auto& [b, e] : ranges) {
            const auto from = std::max(b, reach);
            if (e > from)
                covered += e - from;
            reach = std::max(reach, e);
        }
        if (covered >= model_.variables[var].numElements)
            n.kills.push_back(var);
        else
            n.partialWrites.push_back(var);
    }
    pendingWrites_.clear();
    for (auto* v : {&n.reads, &n.kills, &n.partialWrites}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }
}

std::vector<std::pair<const ProgramNode*, std::uint32_t>> ProgramLowering::programRecords() const {
    std::vector<std::pair<const ProgramNode*, std::uint32_t>> out;
    out.reserve(lowered_.size());
    for (const auto& [node, lowered] : lowered_)
        out.emplace_back(node, lowered.record);
    return out;
}

void ProgramLowering::lowerEntryPoint(const ProgramNodePtr& program) {
    const auto entry = newNode({});
    entryNodes_.push_back(entry);
    lower(*program, {entry}, UINT32_MAX);
    out_.records.entryPoints.push_back(
        {"program " + std::to_string(out_.records.entryPoints.size()),
         lowered_.at(program.get()).record});
    out_.entryPoints.push_back(program);
}

std::vector<std::uint32_t> ProgramLowering::lower(const ProgramNode& n,
                                                  const std::vector<std::uint32_t>& preds,
                                                  std::uint32_t parentRecord) {
    // A program object added in several places is lowered once; later uses jump to it, as
    // Poplar reuses (outlines) identical code.
    if (auto it = lowered_.find(&n); it != lowered_.end()) {
        for (auto p : preds)
            cfg_[p].successors.push_back(it->second.entry);
        return it->second.exits;
    }
    const auto record = static_cast<std::uint32_t>(out_.records.programs.size());
    {
        capture::ProgramNodeRecord rec;
        rec.id = record;
        rec.kind = n.kind;
        rec.name = nodeName(n, model_);
        rec.codeBytesPerTile = zeros();
        if (n.kind == ProgramKind::Repeat)
            rec.repeatCount = static_cast<std::int64_t>(n.repeatCount);
        out_.records.programs.push_back(std::move(rec));
        if (parentRecord != UINT32_MAX)
            out_.records.programs[parentRecord].children.push_back(record);
    }
    const auto entry = newNode(preds);
    lowered_[&n] = {entry, {}, record};
    // A Block adds no code of its own: its instrumentation, when selected, is the engine's.
    if (isControl(n.kind) && n.kind != ProgramKind::Sequence && n.kind != ProgramKind::Block)
        for (std::uint32_t t = 0; t < model_.target.numTiles(); ++t) {
            code_.controlCode[t] += costs_.controlCodeBytesPerBranch;
            out_.records.programs[record].codeBytesPerTile[t] += costs_.controlCodeBytesPerBranch;
        }

    std::vector<std::uint32_t> exits;
    switch (n.kind) {
    case ProgramKind::Sequence: {
        exits = {entry};
        for (const auto& c : n.children)
            exits = lower(*c, exits, record);
        if (n.cycleCounter) { // the counter is written when the sequence ends
            const auto written = newNode(exits);
            addWrite(written, *n.cycleCounter);
            finishAccesses(written);
            exits = {written};
        }
        break;
    }
    case ProgramKind::Block:
        exits = lower(*n.children[0], {entry}, record);
        break;
    case ProgramKind::Repeat: {
        // Body exits loop back to the head; with a zero trip count the body is skipped.
        auto bodyExits = lower(*n.children[0], {entry}, record);
        for (auto e : bodyExits)
            cfg_[e].successors.push_back(entry);
        exits = n.repeatCount == 0 ? std::vector<std::uint32_t>{entry} : bodyExits;
        break;
    }
    case ProgramKind::RepeatWhileTrue:
    case ProgramKind::RepeatWhileFalse: {
        auto condExits = lower(*n.children[0], {entry}, record);
        const auto test = newNode(condExits);
        addRead(test, *n.predicate);
        finishAccesses(test);
        auto bodyExits = lower(*n.children[1], {test}, record);
        for (auto e : bodyExits)
            cfg_[e].successors.push_back(entry);
        exits = {test};
        break;
    }
    case ProgramKind::If:
    case ProgramKind::Switch: {
        addRead(entry, *n.predicate);
        finishAccesses(entry);
        if (n.kind == ProgramKind::Switch) // a jump table of its cases on every tile
            for (std::uint32_t t = 0; t < model_.target.numTiles(); ++t)
                addStepCode(record, code_.controlTable, t,
                            costs_.controlTableBytesPerCase * n.children.size());
        for (const auto& c : n.children) {
            auto e = lower(*c, {entry}, record);
            exits.insert(exits.end(), e.begin(), e.end());
        }
        if (n.children.empty())
            exits = {entry};
        break;
    }
    case ProgramKind::Call: {
        auto it = functions_.find(n.function);
        if (it == functions_.end()) {
            const auto fentry = newNode({});
            const auto& fn = model_.functions[n.function];
            auto fexits = lower(*fn.body, {fentry}, UINT32_MAX);
            out_.records.functions.push_back({fn.name, lowered_.at(fn.body.get()).record});
            it = functions_.emplace(n.function, Lowered{fentry, fexits, 0}).first;
        }
        // records.functions lists functions in the order they are first called, so the callee
        // is found there by its body's record, not by the graph's function index.
        const auto body = lowered_.at(model_.functions[n.function].body.get()).record;
        for (std::size_t f = 0; f < out_.records.functions.size(); ++f)
            if (out_.records.functions[f].program == body)
                out_.records.programs[record].callee = static_cast<std::int64_t>(f);
        cfg_[entry].successors.push_back(it->second.entry);
        exits = it->second.exits;
        break;
    }
    default:
        exits = lowerLeaf(n, record, entry);
        break;
    }
    lowered_[&n].exits = exits;
    return exits;
}

std::vector<std::uint32_t> ProgramLowering::lowerLeaf(const ProgramNode& n, std::uint32_t record,
                                                      std::uint32_t entry) {
    std::vector<std::uint32_t> steps;
    auto stepsSince = [&](std::size_t before) {
        for (auto s = before; s < out_.records.steps.size(); ++s)
            steps.push_back(static_cast<std::uint32_t>(s));
    };
    const std::size_t before = out_.records.steps.size();
    std::uint32_t last = entry;
    switch (n.kind) {
    case ProgramKind::Execute: {
        const auto& cost = computeSetCost(n.computeSet);
        const auto& csName = model_.computeSets[n.computeSet].name;
        out_.records.programs[record].computeSet = n.computeSet;
        std::uint32_t received = UINT32_MAX;
        if (cost.anyIn) {
            last = emitExchange(record, csName + "/exchange", last, cost.inBytes, cost.in);
            received = last;
            for (const auto* t : cost.reads)
                addRead(last, *t);
            finishAccesses(last);
        }
        last = newStep(StepKind::OnTileExecute, record, csName, last);
        if (received != UINT32_MAX) // remote inputs, live from their exchange to the compute
            addTemporary(csName + "/exchange/received", cost.inType, cost.inTypeBytes,
                         cost.in.receivedBytes, received, last);
        const auto step = static_cast<std::uint32_t>(cfg_[last].step);
        out_.records.steps[step].computeSet = n.computeSet;
        out_.records.steps[step].estimatedCyclesPerTile = cost.computeCycles;
        out_.steps[step] = {StepAction::RunComputeSet, n.computeSet};
        for (const auto* t : cost.reads)
            addRead(last, *t);
        for (const auto* t : cost.writes)
            addWrite(last, *t);
        finishAccesses(last);
        if (cost.anyOut) {
            const auto computed = last;
            last = emitExchange(record, csName + "/exchange-out", last, cost.outBytes, cost.out);
            PerTile sent = zeros();
            for (std::size_t t = 0; t < sent.size(); ++t)
                sent[t] = cost.out.bytes[t] - cost.out.receivedBytes[t];
            addTemporary(csName + "/exchange-out/sent", cost.outType, cost.outTypeBytes, sent,
                         computed, last);
        }
        break;
    }
    case ProgramKind::Copy: {
        const TensorView& src = *n.source;
        const TensorView& dst = *n.destination;
        const unsigned size = elementSize(src.type);
        PerTile onTile = zeros(), remote = zeros(), onTilePieces = zeros();
        bool anyRemote = false;
        // Walk both views in lockstep, element by element, cutting them into pieces contiguous
        // on both sides: remote pieces become exchange messages, on-tile ones copy descriptors.
        std::vector<ExchangePiece> pieces;
        std::size_t si = 0, di = 0;
        std::uint64_t so = 0, doff = 0;
        std::uint32_t prevFrom = UINT32_MAX, prevTo = UINT32_MAX;
        std::uint32_t prevSrcVar = UINT32_MAX, prevDstVar = UINT32_MAX;
        std::uint64_t prevSrcAt = 0, prevDstAt = 0;
        while (si < src.ranges.size() && di < dst.ranges.size()) {
            const auto from = tileOf(src.ranges[si], so);
            const auto to = tileOf(dst.ranges[di], doff);
            const std::uint32_t srcVar = src.ranges[si].variable;
            const std::uint32_t dstVar = dst.ranges[di].variable;
            const std::uint64_t srcAt = src.ranges[si].begin + so;
            const std::uint64_t dstAt = dst.ranges[di].begin + doff;
            const bool continues = from == prevFrom && to == prevTo && srcVar == prevSrcVar &&
                                   dstVar == prevDstVar && srcAt == prevSrcAt + 1 &&
                                   dstAt == prevDstAt + 1;
            if (from == to) {
                onTile[from] += size;
                // A new piece unless both sides continue in the tile's memory.
                const bool adjacent = from == prevFrom && to == prevTo && srcVar == prevSrcVar &&
                                      dstVar == prevDstVar &&
                                      runs_.adjacentOnTile(srcVar, from, prevSrcAt + 1, srcAt) &&
                                      runs_.adjacentOnTile(dstVar, to, prevDstAt + 1, dstAt);
                if (!adjacent)
                    ++onTilePieces[from];
            } else {
                anyRemote = true;
                remote[from] += size;
                remote[to] += size;
                if (continues)
                    ++pieces.back().length;
                else
                    pieces.push_back({from, to, srcVar, srcAt, dstVar, dstAt, 1, size});
            }
            prevFrom = from;
            prevTo = to;
            prevSrcVar = srcVar;
            prevDstVar = dstVar;
            prevSrcAt = srcAt;
            prevDstAt = dstAt;
            if (++so == src.ranges[si].size()) {
                ++si;
                so = 0;
            }
            if (++doff == dst.ranges[di].size()) {
                ++di;
                doff = 0;
            }
        }
        const auto action = static_cast<std::uint32_t>(out_.copies.size());
        out_.copies.push_back({src, dst});
        const std::string name = nodeName(n, model_);
        const auto messages = planExchangeMessages(pieces, false, model_, runs_, costs_);
        if (anyRemote) {
            last = emitExchange(record, name, last, remote, messages);
            addRead(last, src);
        }
        bool anyOnTile = std::any_of(onTile.begin(), onTile.end(), [](auto b) { return b > 0; });
        if (anyOnTile || !anyRemote) {
            if (anyRemote)
                finishAccesses(last);
            last = newStep(StepKind::OnTileExecute, record, name, last);
            auto& rec = out_.records.steps.back();
            if (anyOnTile) {
                // Poplar runs the on-tile part as a compute set of its own copy vertices.
                // Its vertices are counted where they are recorded (VertexRecords.cpp).
                const auto cs = static_cast<std::uint32_t>(out_.records.computeSets.size());
                out_.records.computeSets.push_back({"Copy_" + variableList(src, model_) + "_to_" +
                                                        variableList(dst, model_) + "/OnTileCopy-0",
                                                    0});
                onTileCopySets_.push_back({cs, onTilePieces});
                rec.computeSet = cs;
            }
            for (std::size_t t = 0; t < onTile.size(); ++t) {
                const std::uint64_t copied = onTile[t];
                if (copied)
                    rec.estimatedCyclesPerTile[t] =
                        costs_.computeSetOverheadCycles +
                        model_.target.numWorkerContexts *
                            ((copied + costs_.copyBytesPerThreadCycle - 1) /
                             costs_.copyBytesPerThreadCycle);
                code_.copyDescriptors[t] += costs_.copyDescriptorBytes * onTilePieces[t];
            }
            addRead(last, src);
        }
        addWrite(last, dst);
        finishAccesses(last);
        out_.steps[cfg_[last].step] = {StepAction::Copy, action};
        break;
    }
    case ProgramKind::StreamCopy: {
        if (n.remote) {
            // Remote buffers live in host memory: a copy costs what a stream copy of the same
            // bytes does and appears as the same Sync + StreamCopyBegin/Mid/End steps.
            const bool toDevice = n.destination.has_value();
            const auto action = static_cast<std::uint32_t>(out_.remoteCopies.size());
            const TensorView& t = toDevice ? *n.destination : *n.source;
            out_.remoteCopies.push_back({n.stream, t, n.offset});
            last = emitStreamCopy(record, model_.remoteBuffers[n.stream].handle, last, t, toDevice,
                                  toDevice ? StepAction::RemoteToDevice : StepAction::RemoteToHost,
                                  action, n.offset ? &*n.offset : nullptr);
            break;
        }
        const auto& stream = model_.streams[n.stream];
        const auto action = static_cast<std::uint32_t>(out_.streamCopies.size());
        const TensorView& t = stream.hostToDevice ? *n.destination : *n.source;
        out_.streamCopies.push_back({n.stream, t});
        last = emitStreamCopy(
            record, stream.handle, last, t, stream.hostToDevice,
            stream.hostToDevice ? StepAction::StreamToDevice : StepAction::StreamToHost, action);
        break;
    }
    case ProgramKind::PrintTensor: {
        const auto action = static_cast<std::uint32_t>(out_.prints.size());
        out_.prints.push_back({n.title, *n.source});
        last = emitStreamCopy(record, "PrintTensor/" + n.title, last, *n.source, false,
                              StepAction::Print, action);
        break;
    }
    case ProgramKind::Sync: {
        last = newStep(StepKind::Sync, record, nodeName(n, model_), last);
        for (auto& c : out_.records.steps.back().estimatedCyclesPerTile)
            c = costs_.syncCycles(model_.target, n.globalSync);
        break;
    }
    case ProgramKind::CrossReplica:
        last = emitCrossReplica(n, record, last);
        break;
    case ProgramKind::WriteUndef: {
        // No code: the variable's old contents are dead from here.
        addWrite(entry, *n.destination);
        finishAccesses(entry);
        break;
    }
    default:
        break;
    }
    stepsSince(before);
    out_.stepsOfNode[&n] = steps;
    return {last};
}

} // namespace tilescope::sim
