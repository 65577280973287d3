#include "tilescope/sim/ExchangeMessages.hpp"

#include <algorithm>
#include <tuple>

namespace tilescope::sim {

bool adjacentOnTile(const VariableInfo& v, std::uint32_t tile, std::uint64_t from,
                    std::uint64_t to) {
    if (to < from)
        return false;
    const auto t = static_cast<std::int32_t>(tile);
    return std::none_of(v.tileOf.begin() + static_cast<std::ptrdiff_t>(from),
                        v.tileOf.begin() + static_cast<std::ptrdiff_t>(to),
                        [t](std::int32_t x) { return x == t; });
}

ExchangeMessages planExchangeMessages(std::vector<ExchangePiece>& pieces, bool intoTemporary,
                                      const GraphModel& model, const CostModel& costs) {
    const std::uint32_t numTiles = model.target.numTiles();
    const std::uint32_t tilesPerIpu = model.target.tilesPerIpu;
    ExchangeMessages out;
    for (auto* series : {&out.bytes, &out.codeBytes, &out.receivedBytes, &out.rearranged,
                         &out.copyPieces, &out.messageCount, &out.sentBytes, &out.instructions})
        series->assign(numTiles, 0);
    if (pieces.empty())
        return out;
    out.any = true;
    // Source order within each (source, destination) pair: the order a sender streams its data.
    const auto bySource = [](const ExchangePiece& a, const ExchangePiece& b) {
        return std::tie(a.srcTile, a.dstTile, a.srcVariable, a.srcBegin, a.length) <
               std::tie(b.srcTile, b.dstTile, b.srcVariable, b.srcBegin, b.length);
    };
    if (intoTemporary) {
        // The destination is a temporary: order by destination tile first so that elements
        // read twice on one tile are received once, whichever tile sends them.
        std::sort(pieces.begin(), pieces.end(), bySource);
        std::vector<ExchangePiece> merged;
        merged.reserve(pieces.size());
        for (const auto& p : pieces) {
            if (!merged.empty()) {
                auto& m = merged.back();
                if (m.srcTile == p.srcTile && m.dstTile == p.dstTile &&
                    m.srcVariable == p.srcVariable && p.srcBegin <= m.srcBegin + m.length) {
                    m.length = std::max(m.length, p.srcBegin + p.length - m.srcBegin);
                    continue;
                }
            }
            merged.push_back(p);
        }
        pieces.swap(merged);
    } else {
        std::sort(pieces.begin(), pieces.end(), bySource);
    }

    const std::uint64_t sendBytes =
        costs.sendInstructionsPerRegion * costs.exchangeInstructionBytes;
    const std::uint64_t receiveBytes =
        costs.receiveInstructionsPerSourceTile * costs.exchangeInstructionBytes;
    std::size_t i = 0;
    while (i < pieces.size()) {
        const std::uint32_t src = pieces[i].srcTile, dst = pieces[i].dstTile;
        if (src / tilesPerIpu != dst / tilesPerIpu)
            out.global = true;
        std::uint64_t regions = 0, destinationRuns = 0, pairBytes = 0;
        const ExchangePiece* prev = nullptr;
        for (; i < pieces.size() && pieces[i].srcTile == src && pieces[i].dstTile == dst; ++i) {
            const auto& p = pieces[i];
            pairBytes += p.length * p.elementBytes;
            if (!prev || prev->srcVariable != p.srcVariable ||
                !adjacentOnTile(model.variables[p.srcVariable], src, prev->srcBegin + prev->length,
                                p.srcBegin))
                ++regions;
            if (!intoTemporary && (!prev || prev->dstVariable != p.dstVariable ||
                                   !adjacentOnTile(model.variables[p.dstVariable], dst,
                                                   prev->dstBegin + prev->length, p.dstBegin)))
                ++destinationRuns;
            prev = &p;
        }
        out.bytes[src] += pairBytes;
        out.bytes[dst] += pairBytes;
        out.receivedBytes[dst] += pairBytes;
        out.sentBytes[src] += pairBytes;
        out.instructions[src] += regions * costs.sendInstructionsPerRegion;
        out.instructions[dst] += costs.receiveInstructionsPerSourceTile;
        out.codeBytes[src] += regions * sendBytes;
        out.codeBytes[dst] += receiveBytes;
        ++out.messageCount[src];
        ++out.messageCount[dst];
        // One destination address per sender: data that does not land as one run is received
        // contiguously and put in place by an on-tile copy, one descriptor per run.
        if (!intoTemporary && destinationRuns > 1) {
            out.rearranged[dst] += pairBytes;
            out.copyPieces[dst] += destinationRuns;
        }
    }
    return out;
}

} // namespace tilescope::sim
