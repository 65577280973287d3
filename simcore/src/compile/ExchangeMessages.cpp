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
    const auto bySender = [](const ReceivedRun& a, const ReceivedRun& b) {
        return std::tie(a.srcTile, a.variable, a.begin) < std::tie(b.srcTile, b.variable, b.begin);
    };
    for (auto& r : runs) {
        // Pieces in source order give each destination its runs in sender order already.
        if (!std::is_sorted(r.begin(), r.end(), bySender))
            std::sort(r.begin(), r.end(), bySender);
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

/// Sorts pieces by `less`, whose first key is the source tile: a stable counting sort by source
/// tile, then each source's pieces sorted unless already in order (a compute set's pieces come
/// grouped by destination, each group in source order, or grouped by source).
template <typename Less> void sortBySourceTile(std::vector<ExchangePiece>& pieces, Less less) {
    std::uint32_t maxTile = 0;
    for (const auto& p : pieces)
        maxTile = std::max(maxTile, p.srcTile);
    std::vector<std::size_t> start(std::size_t{maxTile} + 2, 0);
    for (const auto& p : pieces)
        ++start[p.srcTile + 1];
    for (std::size_t t = 0; t + 1 < start.size(); ++t)
        start[t + 1] += start[t];
    std::vector<ExchangePiece> sorted(pieces.size());
    auto next = start;
    for (const auto& p : pieces)
        sorted[next[p.srcTile]++] = p;
    for (std::size_t t = 0; t + 1 < start.size(); ++t) {
        const auto b = sorted.begin() + static_cast<std::ptrdiff_t>(start[t]);
        const auto e = sorted.begin() + static_cast<std::ptrdiff_t>(start[t + 1]);
        if (!std::is_sorted(b, e, less))
            std::sort(b, e, less);
    }
    pieces.swap(sorted);
}

/// Adds to `sentBytes` the distinct bytes each source tile sends: the exchange multicasts, so
/// a sender puts a region on its bus once and every tile that selects it then receives it.
/// `pieces` are grouped by source tile.
void countSentBytes(const std::vector<ExchangePiece>& pieces, capture::PerTile& sentBytes) {
    struct Span {
        std::uint32_t variable;
        std::uint64_t begin, end;
        std::uint32_t elementBytes;
    };
    const auto byStart = [](const Span& a, const Span& b) {
        return std::tie(a.variable, a.begin) < std::tie(b.variable, b.begin);
    };
    std::vector<Span> spans;
    for (std::size_t i = 0; i < pieces.size();) {
        const std::uint32_t src = pieces[i].srcTile;
        spans.clear();
        for (; i < pieces.size() && pieces[i].srcTile == src; ++i)
            spans.push_back({pieces[i].srcVariable, pieces[i].srcBegin,
                             pieces[i].srcBegin + pieces[i].length, pieces[i].elementBytes});
        if (!std::is_sorted(spans.begin(), spans.end(), byStart))
            std::sort(spans.begin(), spans.end(), byStart);
        const Span* run = nullptr;
        std::uint64_t runEnd = 0;
        for (const auto& p : spans) {
            if (run && run->variable == p.variable && p.begin <= runEnd) {
                if (p.end > runEnd) {
                    sentBytes[src] += (p.end - runEnd) * p.elementBytes;
                    runEnd = p.end;
                }
                continue;
            }
            run = &p;
            runEnd = p.end;
            sentBytes[src] += (p.end - p.begin) * p.elementBytes;
        }
    }
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
    // Source order within each (source, destination) pair: the order a sender streams its data
    // (pieces that differ only in where they land, in destination order).
    const auto bySource = [](const ExchangePiece& a, const ExchangePiece& b) {
        return std::tie(a.srcTile, a.dstTile, a.srcVariable, a.srcBegin, a.length, a.dstVariable,
                        a.dstBegin) < std::tie(b.srcTile, b.dstTile, b.srcVariable, b.srcBegin,
                                               b.length, b.dstVariable, b.dstBegin);
    };
    sortBySourceTile(pieces, bySource);
    if (intoTemporary) {
        // The destination is a temporary: elements read twice on one tile are received once,
        // whichever tile sends them.
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
    countSentBytes(pieces, out.sentBytes);
    for (std::uint32_t t = 0; t < numTiles; ++t)
        out.sendCycles[t] = (out.sentBytes[t] + rate - 1) / rate;
    return out;
}

} // namespace tilescope::sim
