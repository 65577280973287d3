#include "tilescope/sim/ProgramLowering.hpp"

#include "poplar/exceptions.hpp"

#include <algorithm>

namespace tilescope::sim {

using capture::PerTile;
using capture::ProgramKind;
using capture::StepKind;

/// Exchange and compute cost of one compute set, computed once however often it is executed.
struct ProgramLowering::ComputeSetCost {
    PerTile computeCycles;
    PerTile inBytes;  ///< remote inputs: sent plus received per tile, as the vertices read them
    PerTile outBytes; ///< remote outputs
    ExchangeMessages in, out;
    std::string inType, outType; ///< element type of the temporaries ("char" when mixed)
    unsigned inTypeBytes = 1, outTypeBytes = 1;
    bool anyIn = false, anyOut = false;
    std::vector<const TensorView*> reads, writes;
};

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

/// Calls fn(tile, count) for each run of consecutive elements of `r` on one tile.
template <typename Fn> void forEachTileRun(const VariableInfo& var, const ElementRange& r, Fn fn) {
    std::uint64_t i = r.begin;
    while (i < r.end) {
        const std::int32_t tile = var.tileOf[i];
        std::uint64_t j = i + 1;
        while (j < r.end && var.tileOf[j] == tile)
            ++j;
        fn(static_cast<std::uint32_t>(tile), j - i);
        i = j;
    }
}

/// Merges the remote-input pieces of one destination tile (from `first` on) that overlap or
/// touch, so that data read by several vertices of the tile is received once; keeps the pieces
/// few when many vertices read the same rows.
void mergeReceivedPieces(std::vector<ExchangePiece>& pieces, std::size_t first) {
    const auto begin = pieces.begin() + static_cast<std::ptrdiff_t>(first);
    std::sort(begin, pieces.end(), [](const ExchangePiece& a, const ExchangePiece& b) {
        return a.srcTile != b.srcTile           ? a.srcTile < b.srcTile
               : a.srcVariable != b.srcVariable ? a.srcVariable < b.srcVariable
                                                : a.srcBegin < b.srcBegin;
    });
    std::size_t out = first;
    for (std::size_t i = first; i < pieces.size(); ++i) {
        const auto& p = pieces[i];
        if (out > first) {
            auto& m = pieces[out - 1];
            if (m.srcTile == p.srcTile && m.srcVariable == p.srcVariable &&
                p.srcBegin <= m.srcBegin + m.length) {
                m.length = std::max(m.length, p.srcBegin + p.length - m.srcBegin);
                continue;
            }
        }
        pieces[out++] = p;
    }
    pieces.resize(out);
}

} // namespace

ProgramLowering::ProgramLowering(const GraphModel& model, const CostModel& costs, bool instrument,
                                 CompiledGraph& out)
    : model_(model), costs_(costs), instrument_(instrument), out_(out) {
    for (auto* series :
         {&code_.controlCode, &code_.controlTable, &code_.internalExchangeCode,
          &code_.hostExchangeCode, &code_.globalExchangeCode, &code_.hostPacketHeaders,
          &code_.globalPacketHeaders, &code_.copyDescriptors, &code_.instrumentation})
        *series = zeros();
    for (auto& b : code_.controlCode)
        b = costs_.controlCodeBaseBytes;
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
    for (const auto& r : t.ranges)
        cfg_[node].reads.push_back(r.variable);
}

void ProgramLowering::addWrite(std::uint32_t, const TensorView& t) {
    for (const auto& r : t.ranges)
        pendingWrites_[r.variable].emplace_back(r.begin, r.end);
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

const ProgramLowering::ComputeSetCost& ProgramLowering::computeSetCost(std::uint32_t csIndex) {
    auto& slot = csCosts_[csIndex];
    if (slot)
        return *slot;
    slot = std::make_unique<ComputeSetCost>();
    auto& c = *slot;
    const auto& target = model_.target;
    c.computeCycles = c.inBytes = c.outBytes = zeros();
    std::vector<ExchangePiece> inPieces, outPieces;
    // The element type of a temporary: the one type moved, or bytes when several are.
    const auto noteType = [](std::string& name, unsigned& bytes, ElementType type) {
        const std::string typeName(elementTypeName(type));
        if (name.empty()) {
            name = typeName;
            bytes = elementSize(type);
        } else if (name != typeName) {
            name = "char";
            bytes = 1;
        }
    };
    const unsigned workers = target.numWorkerContexts;
    // Per tile, the load of each worker context in thread cycles.
    std::vector<std::vector<std::uint64_t>> load(target.numTiles());
    for (const auto& group : out_.computeSetGroups[csIndex]) {
        auto& w = load[group.tile];
        w.assign(workers, 0);
        const std::size_t firstInPiece = inPieces.size();
        for (auto vid : group.vertices) {
            const auto& v = model_.vertices[vid];
            const auto& type = model_.vertexTypes.at(v.type);
            std::uint64_t cycles = 0;
            if (v.perfEstimate) {
                cycles = *v.perfEstimate;
            } else {
                auto est = std::find_if(model_.perfEstimators.begin(), model_.perfEstimators.end(),
                                        [&](const auto& e) { return e.vertexType == type.name; });
                if (est != model_.perfEstimators.end()) {
                    cycles = est->estimate(model_, vid);
                } else {
                    std::uint64_t elements = 0;
                    for (std::size_t f = 0; f < type.fields.size(); ++f)
                        if (type.fields[f].isEdge())
                            for (const auto& item : v.fields[f].items)
                                elements += item ? item->numElements() : 0;
                    cycles = costs_.defaultVertexBaseThreadCycles +
                             costs_.defaultThreadCyclesPerElement * elements;
                }
            }
            const bool estimated =
                v.perfEstimate ||
                std::any_of(model_.perfEstimators.begin(), model_.perfEstimators.end(),
                            [&](const auto& e) { return e.vertexType == type.name; });
            if (type.info.isSupervisor &&
                estimated) // the SDK states supervisor cost in tile cycles
                cycles = (cycles + workers - 1) / workers;
            // An estimate is the vertex's whole cost (PopLibs' estimators count loading its
            // state); only the size-based default is charged the launch.
            if (!estimated)
                cycles += costs_.vertexLaunchThreadCycles;
            if (type.info.isSupervisor) {
                // The supervisor waits for the tile's workers, then runs alone: on the barrel it
                // takes one slot per round, so every worker context is blocked for its duration.
                const std::uint64_t start = *std::max_element(w.begin(), w.end());
                for (auto& x : w)
                    x = start + cycles;
            } else if (type.info.isMultiVertex) {
                for (auto& x : w)
                    x += cycles;
            } else {
                *std::min_element(w.begin(), w.end()) += cycles;
            }
            // Remote edges become exchanges before (inputs) or after (outputs) the compute.
            for (std::size_t f = 0; f < type.fields.size(); ++f) {
                const auto& fd = type.fields[f];
                if (!fd.isEdge())
                    continue;
                for (const auto& item : v.fields[f].items) {
                    if (!item)
                        continue;
                    if (fd.reads())
                        c.reads.push_back(&*item);
                    if (fd.writes())
                        c.writes.push_back(&*item);
                    const unsigned bytes = elementSize(item->type);
                    for (const auto& r : item->ranges) {
                        std::uint64_t at = r.begin;
                        forEachTileRun(model_.variables[r.variable], r,
                                       [&](std::uint32_t tile, std::uint64_t n) {
                                           const std::uint64_t begin = at;
                                           at += n;
                                           if (tile == group.tile)
                                               return;
                                           if (fd.reads()) {
                                               // Received into a temporary on the vertex's tile.
                                               c.anyIn = true;
                                               c.inBytes[tile] += n * bytes;
                                               c.inBytes[group.tile] += n * bytes;
                                               noteType(c.inType, c.inTypeBytes, item->type);
                                               inPieces.push_back({tile, group.tile, r.variable,
                                                                   begin, 0, 0, n, bytes});
                                           }
                                           if (fd.writes()) {
                                               // Written into a temporary on the vertex's tile,
                                               // laid out in destination order, then sent.
                                               c.anyOut = true;
                                               c.outBytes[tile] += n * bytes;
                                               c.outBytes[group.tile] += n * bytes;
                                               noteType(c.outType, c.outTypeBytes, item->type);
                                               outPieces.push_back({group.tile, tile, r.variable,
                                                                    begin, r.variable, begin, n,
                                                                    bytes});
                                           }
                                       });
                    }
                }
            }
        }
        mergeReceivedPieces(inPieces, firstInPiece);
        c.computeCycles[group.tile] =
            costs_.computeSetOverheadCycles + workers * *std::max_element(w.begin(), w.end());
    }
    c.in = planExchangeMessages(inPieces, true, model_, costs_);
    c.out = planExchangeMessages(outPieces, false, model_, costs_);
    return c;
}

std::uint32_t ProgramLowering::emitExchange(std::uint32_t record, const std::string& name,
                                            std::uint32_t pred, const PerTile& bytesPerTile,
                                            const ExchangeMessages& messages) {
    const bool global = messages.global;
    const auto sync = newStep(StepKind::Sync, record, name + "/sync", pred);
    auto& syncRec = out_.records.steps.back();
    for (auto& c : syncRec.estimatedCyclesPerTile)
        c = costs_.syncCycles(model_.target, global);
    const auto node =
        newStep(global ? StepKind::GlobalExchange : StepKind::DoExchange, record, name, sync);
    const auto step = static_cast<std::uint32_t>(cfg_[node].step);
    auto& rec = out_.records.steps[step];
    auto& codeCategory = global ? code_.globalExchangeCode : code_.internalExchangeCode;
    for (std::uint32_t t = 0; t < bytesPerTile.size(); ++t) {
        if (bytesPerTile[t] == 0)
            continue;
        rec.exchangeBytesPerTile[t] = bytesPerTile[t];
        // A tile sends and receives at once (its send bus and its incoming multiplexer are
        // separate): the busier direction sets the time. Its exchange instructions (a send per
        // region, the receive set-up per sender) issue one a cycle.
        const std::uint64_t busier = std::max(messages.sentBytes[t], messages.receivedBytes[t]);
        rec.estimatedCyclesPerTile[t] = costs_.exchangeCycles(model_.target, busier, global) +
                                        messages.instructions[t] * costs_.exchangeInstructionCycles;
    }
    for (std::uint32_t t = 0; t < messages.codeBytes.size(); ++t) {
        if (messages.codeBytes[t])
            addStepCode(record, codeCategory, t, messages.codeBytes[t]);
        // Messages between IPUs carry a packet header on each tile, one per message.
        if (global && messages.messageCount[t])
            code_.globalPacketHeaders[t] += costs_.packetHeaderBytes * messages.messageCount[t];
        code_.copyDescriptors[t] += costs_.copyDescriptorBytes * messages.copyPieces[t];
    }
    return node;
}

void ProgramLowering::addTemporary(const std::string& name, const std::string& elementType,
                                   std::uint32_t elementBytes, const PerTile& bytesPerTile,
                                   std::uint32_t from, std::uint32_t to) {
    if (std::all_of(bytesPerTile.begin(), bytesPerTile.end(), [](auto b) { return b == 0; }))
        return;
    temporaries_.push_back({name, elementType, elementBytes, bytesPerTile,
                            static_cast<std::uint32_t>(cfg_[from].step),
                            static_cast<std::uint32_t>(cfg_[to].step)});
}

std::uint32_t ProgramLowering::emitStreamCopy(std::uint32_t record, const std::string& name,
                                              std::uint32_t pred, const TensorView& tensor,
                                              bool toDevice, StepAction action,
                                              std::uint32_t actionIndex,
                                              const TensorView* alsoReads) {
    PerTile bytes = zeros(), regions = zeros();
    const unsigned size = elementSize(tensor.type);
    for (const auto& r : tensor.ranges)
        forEachTileRun(model_.variables[r.variable], r, [&](std::uint32_t tile, std::uint64_t n) {
            bytes[tile] += n * size;
            ++regions[tile];
        });
    auto& headersCharged = streamTiles_[name];
    headersCharged.resize(bytes.size(), false);
    std::uint64_t total = 0;
    for (auto b : bytes)
        total += b;
    const auto sync = newStep(StepKind::Sync, record, name + "/sync", pred);
    for (auto& c : out_.records.steps.back().estimatedCyclesPerTile)
        c = costs_.syncCycles(model_.target, true);
    const auto begin = newStep(StepKind::StreamCopyBegin, record, name + "/begin", sync);
    const auto mid = newStep(StepKind::StreamCopyMid, record, name, begin);
    const auto end = newStep(StepKind::StreamCopyEnd, record, name + "/end", mid);
    const auto midStep = static_cast<std::uint32_t>(cfg_[mid].step);
    const std::uint64_t transfer = costs_.streamCopyCycles(model_.target, total);
    for (std::uint32_t t = 0; t < bytes.size(); ++t) {
        if (bytes[t] == 0)
            continue;
        out_.records.steps[cfg_[begin].step].estimatedCyclesPerTile[t] =
            costs_.streamCopyBeginEndCycles;
        out_.records.steps[cfg_[end].step].estimatedCyclesPerTile[t] =
            costs_.streamCopyBeginEndCycles;
        // The host link is shared: every participating tile waits for the whole transfer.
        out_.records.steps[midStep].estimatedCyclesPerTile[t] = transfer;
        out_.records.steps[midStep].exchangeBytesPerTile[t] = bytes[t];
        // Per message, as internal exchanges: an instruction per contiguous region of the tile,
        // and, receiving from the host, the instructions that select it as the sender.
        const std::uint64_t instructions = costs_.sendInstructionsPerRegion * regions[t] +
                                           (toDevice ? costs_.receiveInstructionsPerSourceTile : 0);
        addStepCode(record, code_.hostExchangeCode, t,
                    instructions * costs_.exchangeInstructionBytes);
        // A stream's packet headers are set up once per tile it touches.
        if (!headersCharged[t]) {
            headersCharged[t] = true;
            code_.hostPacketHeaders[t] += costs_.packetHeaderBytes;
        }
    }
    out_.steps[midStep] = {action, actionIndex};
    if (toDevice)
        addWrite(mid, tensor);
    else
        addRead(mid, tensor);
    if (alsoReads)
        addRead(mid, *alsoReads);
    finishAccesses(mid);
    for (const auto& r : tensor.ranges)
        streamed_.push_back(r.variable);
    return end;
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
            addTemporary(csName + "/exchange-out/rearranged", cost.outType, cost.outTypeBytes,
                         cost.out.rearranged, last, last);
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
                const bool adjacent =
                    from == prevFrom && to == prevTo && srcVar == prevSrcVar &&
                    dstVar == prevDstVar &&
                    adjacentOnTile(model_.variables[srcVar], from, prevSrcAt + 1, srcAt) &&
                    adjacentOnTile(model_.variables[dstVar], to, prevDstAt + 1, dstAt);
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
        const auto messages = planExchangeMessages(pieces, false, model_, costs_);
        // Data that arrives in one piece but must land in several (a transposed or strided
        // destination) is rearranged on the tile together with the on-tile part of the copy.
        const bool anyRearranged = std::any_of(
            messages.rearranged.begin(), messages.rearranged.end(), [](auto b) { return b > 0; });
        std::uint32_t exchanged = UINT32_MAX;
        if (anyRemote) {
            last = emitExchange(record, name, last, remote, messages);
            exchanged = last;
            addRead(last, src);
        }
        bool anyOnTile = std::any_of(onTile.begin(), onTile.end(), [](auto b) { return b > 0; });
        if (anyOnTile || anyRearranged || !anyRemote) {
            if (anyRemote)
                finishAccesses(last);
            last = newStep(StepKind::OnTileExecute, record, name, last);
            auto& rec = out_.records.steps.back();
            for (std::size_t t = 0; t < onTile.size(); ++t) {
                const std::uint64_t copied = onTile[t] + messages.rearranged[t];
                if (copied)
                    rec.estimatedCyclesPerTile[t] =
                        costs_.computeSetOverheadCycles +
                        model_.target.numWorkerContexts *
                            ((copied + costs_.copyBytesPerThreadCycle - 1) /
                             costs_.copyBytesPerThreadCycle);
                code_.copyDescriptors[t] += costs_.copyDescriptorBytes * onTilePieces[t];
            }
            addRead(last, src);
            if (anyRearranged)
                addTemporary(name + "/rearranged", std::string(elementTypeName(src.type)), size,
                             messages.rearranged, exchanged, last);
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
