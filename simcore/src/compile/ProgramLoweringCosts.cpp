// What lowered steps cost (split from ProgramLowering.cpp): a compute set's exchange and compute,
// exchange and stream copy steps, and the temporaries they receive into.
#include "ComputeSetCost.hpp"
#include "pvti/pvti.hpp"
#include "tilescope/sim/ProgramLowering.hpp"

#include <algorithm>

namespace tilescope::sim {

using capture::PerTile;
using capture::StepKind;

namespace {

// Exchange planning on the host trace (pvti), inside the compiler's "compile: lowering".
pvti::TraceChannel compileChannel = {"poplar"};

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

const ProgramLowering::ComputeSetCost& ProgramLowering::computeSetCost(std::uint32_t csIndex) {
    auto& slot = csCosts_[csIndex];
    if (slot)
        return *slot;
    pvti::Tracepoint trace(&compileChannel, "compile: compute set cost");
    slot = std::make_unique<ComputeSetCost>();
    auto& c = *slot;
    const auto& target = model_.target;
    c.computeCycles = c.inBytes = c.outBytes = zeros();
    std::vector<ExchangePiece> inPieces, outPieces;
    // The element type of a temporary: the one type moved, or bytes when several are.
    const auto noteType = [](std::string& name, unsigned& bytes, ElementType type) {
        const char* typeName = elementTypeName(type);
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
            const PerfEstimator* est = estimators_[v.type];
            if (v.perfEstimate) {
                cycles = *v.perfEstimate;
            } else {
                if (est) {
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
            const bool estimated = v.perfEstimate || est;
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
                        runs_.forEachRun(
                            r.variable, r.begin, r.end,
                            [&](std::uint32_t tile, std::uint64_t begin, std::uint64_t end) {
                                const std::uint64_t n = end - begin;
                                if (tile == group.tile)
                                    return;
                                if (fd.reads()) {
                                    // Received into a temporary on the vertex's tile.
                                    c.anyIn = true;
                                    c.inBytes[tile] += n * bytes;
                                    c.inBytes[group.tile] += n * bytes;
                                    noteType(c.inType, c.inTypeBytes, item->type);
                                    inPieces.push_back(
                                        {tile, group.tile, r.variable, begin, 0, 0, n, bytes});
                                }
                                if (fd.writes()) {
                                    // Written into a temporary on the vertex's tile,
                                    // laid out in destination order, then sent.
                                    c.anyOut = true;
                                    c.outBytes[tile] += n * bytes;
                                    c.outBytes[group.tile] += n * bytes;
                                    noteType(c.outType, c.outTypeBytes, item->type);
                                    outPieces.push_back({group.tile, tile, r.variable, begin,
                                                         r.variable, begin, n, bytes});
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
    pvti::Tracepoint messages(&compileChannel, "compile: exchange messages");
    c.in = planExchangeMessages(inPieces, true, model_, runs_, costs_);
    c.out = planExchangeMessages(outPieces, false, model_, runs_, costs_);
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
        rec.estimatedCyclesPerTile[t] =
            costs_.exchangeCycles(model_.target, messages.transferCycles(t),
                                  std::max(messages.sentBytes[t], messages.receivedBytes[t]),
                                  global) +
            messages.instructions[t] * costs_.exchangeInstructionCycles;
    }
    // The exchange is one schedule compiled for all the tiles taking part, and they leave it
    // together: each spends the exchange's whole duration in it, as the IPU Model's profiles
    // book it (tutorial 6's tiles spend 8,697 cycles in exchange and 1,135 in sync on average,
    // their busiest tile's exchange, not their own messages' share; CALIBRATION-NOTES.md).
    const std::uint64_t duration =
        *std::max_element(rec.estimatedCyclesPerTile.begin(), rec.estimatedCyclesPerTile.end());
    for (auto& c : rec.estimatedCyclesPerTile)
        if (c)
            c = duration;
    for (std::uint32_t t = 0; t < messages.codeBytes.size(); ++t) {
        if (messages.codeBytes[t])
            addStepCode(record, codeCategory, t, messages.codeBytes[t]);
        // Messages between IPUs carry a packet header on each tile, one per message.
        if (global && messages.messageCount[t])
            code_.globalPacketHeaders[t] += costs_.packetHeaderBytes * messages.messageCount[t];
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
        runs_.forEachRun(r.variable, r.begin, r.end,
                         [&](std::uint32_t tile, std::uint64_t begin, std::uint64_t end) {
                             bytes[tile] += (end - begin) * size;
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

} // namespace tilescope::sim
