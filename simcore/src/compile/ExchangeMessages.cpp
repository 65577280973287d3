#include "tilescope/sim/ExchangeMessages.hpp"

#include <algorithm>
#include <tuple>

namespace tilescope::sim {

namespace {

/// A run of a variable's elements a tile receives from one sender.
struct ReceivedRun {
    std::uint32_t srcTile, variable;
    std::uint64_t begin, end;
    std::uint32_t elementBytes;
};

/// Per destination tile, (sender, bytes) of the data the other tile of its super tile (same IPU)
/// receives from that sender as well, by sender; fills `out.busSharedBytes` with the totals.
std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>>
noteBusSharing(const std::vector<ExchangePiece>& pieces, std::uint32_t numTiles,
               std::uint32_t tilesPerIpu, ExchangeMessages& out) {
    constexpr std::uint32_t pair = TargetSpec::kTilesPerSharedExchangeBus;
    std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> shared(numTiles);
    std::vector<std::vector<ReceivedRun>> runs(numTiles);
    for (const auto& p : pieces)
        runs[p.dstTile].push_back(
            {p.srcTile, p.srcVariable, p.srcBegin, p.srcBegin + p.length, p.elementBytes});
    const auto key = [](const ReceivedRun& r) { return std::tie(r.srcTile, r.variable); };
    for (auto& r : runs) {
        std::sort(r.begin(), r.end(), [](const ReceivedRun& a, const ReceivedRun& b) {
            return std::tie(a.srcTile, a.variable, a.begin) <
                   std::tie(b.srcTile, b.variable, b.begin);
        });
        std::size_t n = 0;
        for (const auto& x : r) {
            if (n && key(r[n - 1]) == key(x) && x.begin <= r[n - 1].end)
                r[n - 1].end = std::max(r[n - 1].end, x.end);
            else
                r[n++] = x;
        }
        r.resize(n);
    }
    for (std::uint32_t t = 0; t + 1 < numTiles; ++t) {
        const std::uint32_t onIpu = t % tilesPerIpu;
        if (onIpu % pair != 0 || onIpu + 1 >= tilesPerIpu || runs[t].empty() || runs[t + 1].empty())
            continue;
        const auto &a = runs[t], &b = runs[t + 1];
        auto& bySender = shared[t];
        for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
            if (key(a[i]) != key(b[j])) {
                (key(a[i]) < key(b[j]) ? i : j)++;
                continue;
            }
            const std::uint64_t lo = std::max(a[i].begin, b[j].begin);
            const std::uint64_t hi = std::min(a[i].end, b[j].end);
            if (hi > lo) {
                if (bySender.empty() || bySender.back().first != a[i].srcTile)
                    bySender.emplace_back(a[i].srcTile, 0);
                bySender.back().second += (hi - lo) * a[i].elementBytes;
            }
            (a[i].end < b[j].end ? i : j)++;
        }
        for (const auto& [sender, bytes] : bySender)
            out.busSharedBytes[t] += bytes;
        out.busSharedBytes[t + 1] = out.busSharedBytes[t];
        shared[t + 1] = bySender;
    }
    return shared;
}

} // namespace

ExchangeMessages planExchangeMessages(std::vector<ExchangePiece>& pieces, bool intoTemporary,
                                      const GraphModel& model, const TileMappingRuns& runs,
                                      const CostModel& costs) {
    const std::uint32_t numTiles = model.target.numTiles();
    const std::uint32_t tilesPerIpu = model.target.tilesPerIpu;
    ExchangeMessages out;
    for (auto* series :
         {&out.bytes, &out.codeBytes, &out.receivedBytes, &out.messageCount, &out.sentBytes,
          &out.instructions, &out.busSharedBytes, &out.sendCycles, &out.receiveCycles})
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

    const auto shared = noteBusSharing(pieces, numTiles, tilesPerIpu, out);
    const std::uint64_t rate = model.target.exchangeBytesPerCycle;
    const std::uint64_t sendBytes =
        costs.sendInstructionsPerRegion * costs.exchangeInstructionBytes;
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
                !runs.adjacentOnTile(p.srcVariable, src, prev->srcBegin + prev->length, p.srcBegin))
                ++regions;
            if (!intoTemporary && (!prev || prev->dstVariable != p.dstVariable ||
                                   !runs.adjacentOnTile(p.dstVariable, dst,
                                                        prev->dstBegin + prev->length, p.dstBegin)))
                ++destinationRuns;
            prev = &p;
        }
        // The message streams at the exchange rate, the part the super-tile partner receives
        // too at twice it, and takes at least the fabric's crossing.
        const auto& fromSender = shared[dst];
        const auto sharedIt = std::lower_bound(fromSender.begin(), fromSender.end(), src,
                                               [](const std::pair<std::uint32_t, std::uint64_t>& x,
                                                  std::uint32_t s) { return x.first < s; });
        const std::uint64_t sharedBytes =
            sharedIt != fromSender.end() && sharedIt->first == src ? sharedIt->second : 0;
        const std::uint64_t streamBytes = pairBytes - sharedBytes / 2;
        out.receiveCycles[dst] +=
            std::max(costs.minCyclesPerReceivedMessage, (streamBytes + rate - 1) / rate);
        out.bytes[src] += pairBytes;
        out.bytes[dst] += pairBytes;
        out.receivedBytes[dst] += pairBytes;
        // The receiver points each further run of the sender's data at its own place.
        const std::uint64_t receiveInstructions = costs.receiveInstructionsPerSourceTile +
                                                  (destinationRuns > 1 ? destinationRuns - 1 : 0) *
                                                      costs.receiveInstructionsPerDestinationRun;
        out.instructions[src] += regions * costs.sendInstructionsPerRegion;
        out.instructions[dst] += receiveInstructions;
        out.codeBytes[src] += regions * sendBytes;
        out.codeBytes[dst] += receiveInstructions * costs.exchangeInstructionBytes;
        ++out.messageCount[src];
        ++out.messageCount[dst];
    }
    // The exchange multicasts: a sender puts a region on its bus once and every tile that
    // selects it then receives it, so a tile sends each distinct element once, however many
    // tiles read it.
    std::vector<const ExchangePiece*> bySourceRange;
    bySourceRange.reserve(pieces.size());
    for (const auto& p : pieces)
        bySourceRange.push_back(&p);
    std::sort(bySourceRange.begin(), bySourceRange.end(),
              [](const ExchangePiece* a, const ExchangePiece* b) {
                  return std::tie(a->srcTile, a->srcVariable, a->srcBegin) <
                         std::tie(b->srcTile, b->srcVariable, b->srcBegin);
              });
    const ExchangePiece* run = nullptr;
    std::uint64_t runEnd = 0;
    for (const auto* p : bySourceRange) {
        if (run && run->srcTile == p->srcTile && run->srcVariable == p->srcVariable &&
            p->srcBegin <= runEnd) {
            if (p->srcBegin + p->length > runEnd) {
                out.sentBytes[p->srcTile] += (p->srcBegin + p->length - runEnd) * p->elementBytes;
                runEnd = p->srcBegin + p->length;
            }
            continue;
        }
        run = p;
        runEnd = p->srcBegin + p->length;
        out.sentBytes[p->srcTile] += p->length * p->elementBytes;
    }
    for (std::uint32_t t = 0; t < numTiles; ++t)
        out.sendCycles[t] = (out.sentBytes[t] + rate - 1) / rate;
    return out;
}

} // namespace tilescope::sim
