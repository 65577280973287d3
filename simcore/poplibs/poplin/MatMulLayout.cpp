#include "poplin/MatMulLayout.hpp"

#include "common/CycleEstimates.hpp"
#include "popops/Transpose2d.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>

namespace tilescope::poplibs {

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

/// The grouping of B's columns (N), as PopLibs' detectDimGroupings finds a tensor's innermost
/// grouping: the largest g dividing N such that every piece of B a tile holds starts and ends on
/// a multiple of g within its row, so each group of g columns of a row is contiguous on one
/// tile. 1 when B's rows are not contiguous.
std::size_t columnGrouping(const poplar::Graph& graph, const poplar::Tensor& B) {
    const std::size_t N = B.dim(1);
    if (!B[0].isContiguous())
        return 1;
    std::size_t g = N;
    // Elements not mapped yet are skipped: compiling reports them, as without the regroup.
    for (const auto& intervals : graph.getTileMapping(B, false))
        for (const auto& interval : intervals) {
            g = std::gcd(g, interval.begin() % N);
            g = std::gcd(g, interval.end() % N);
            if (g == 1)
                return 1;
        }
    return g;
}

/// The first tile of the regroup's transpositions. PopLibs dithers it with a hash of the
/// tensor's shape and groupings so that not every regroup starts on tile 0 (a memory spike
/// there); this mixes the same inputs with the golden-ratio constant PopLibs seeds its hash with.
unsigned regroupStartTile(std::size_t K, std::size_t N, std::size_t from, std::size_t to,
                          unsigned tiles) {
    std::uint64_t seed = 0x9e3779b9u;
    for (std::uint64_t v :
         {std::uint64_t(K), std::uint64_t(N), std::uint64_t(from), std::uint64_t(to)})
        seed ^= v + 0x9e3779b9u + (seed << 6) + (seed >> 2);
    return static_cast<unsigned>(seed % tiles);
}

/// PopLibs' refinement of the groupings before a regroup (lib/popops/Rearrange.cpp,
/// updateGrouping): when the transpositions would leave tiles idle, the groups are cut by a
/// factor (taken from `from` first, then `to`, each kept a multiple of the grain) so that more,
/// smaller transpositions share the tiles, up to the number the transpose vertex's stride limit
/// allows per tile. Its cost of a factor x is PopLibs' own simplified one: the transposition's
/// size times the transpositions per worker.
void refineGrouping(const poplar::Target& target, std::size_t elements, std::size_t grain,
                    std::size_t& from, std::size_t& to) {
    const std::size_t tiles = target.getTilesPerIPU();
    const std::size_t workers = target.getNumWorkerContexts();
    const std::size_t additional = (from * to) / (grain * grain);
    const auto negativeStride = [](std::size_t dim) { return dim / 4 * 3 - 1; };
    const std::size_t maxStride = std::size_t(1) << (target.getNumStrideBits() - 1);
    const std::size_t maxPerIpu =
        tiles * std::min(ceilDiv(negativeStride(std::max(from, to)), maxStride), workers);
    const std::size_t estimate = ceilDiv(elements, from * to);
    std::size_t factor = 1, bestCost = std::numeric_limits<std::size_t>::max();
    for (std::size_t x = 1; x <= additional; ++x) {
        if (additional % x)
            continue;
        if (estimate * x > maxPerIpu)
            break;
        const std::size_t cost = (additional / x) * ceilDiv(ceilDiv(estimate * x, tiles), workers);
        if (cost < bestCost) {
            bestCost = cost;
            factor = x;
        }
    }
    if (factor == 1)
        return;
    const std::size_t fromFactor = std::gcd(factor, from / grain);
    factor /= fromFactor;
    const std::size_t toFactor = std::gcd(factor, to / grain);
    from /= fromFactor;
    to /= toFactor;
}

} // namespace

std::vector<Range> ranges(std::size_t size, std::size_t block) {
    std::vector<Range> out;
    for (std::size_t i = 0; i * block < size; ++i)
        out.push_back({i, i * block, std::min(size, (i + 1) * block)});
    return out;
}

ReaderGrid readerGrid(std::size_t rows, std::size_t columns, std::size_t readers, std::size_t group,
                      std::size_t grain) {
    const std::size_t groups = ceilDiv(columns, group);
    ReaderGrid best{1, rows, 1, columns};
    std::size_t bestSize = rows * columns + 1;
    for (std::size_t r = 1; r <= std::min(rows, readers); ++r) {
        const std::size_t perPart =
            std::min(columns, ceilDiv(groups, std::min(groups, readers / r)) * group);
        const std::size_t perRow = std::min(rows, ceilDiv(ceilDiv(rows, r), grain) * grain);
        const std::size_t size = perRow * perPart;
        if (size < bestSize) {
            best = {ceilDiv(rows, perRow), perRow, ceilDiv(columns, perPart), perPart};
            bestSize = size;
        }
    }
    return best;
}

std::pair<Range, Range> readerRectangle(const Range& n, const Range& k, const ReaderGrid& g,
                                        std::size_t i) {
    if (i >= g.rowParts * g.columnParts)
        return {Range{i, n.end, n.end}, Range{i, k.end, k.end}};
    const std::size_t perRow = g.rowsPerPart;
    const std::size_t r0 = std::min(n.end, n.begin + (i / g.columnParts) * perRow);
    const std::size_t c0 = std::min(k.end, k.begin + (i % g.columnParts) * g.columnsPerPart);
    return {Range{i, r0, std::min(n.end, r0 + perRow)},
            Range{i, c0, std::min(k.end, c0 + g.columnsPerPart)}};
}

std::size_t minimumRegroupGrain(const poplar::Target& target, const poplar::Type& type) {
    return target.getTypeSize(type) == 4 ? 2 : 4;
}

void mapPlannedInput(poplar::Graph& graph, const poplar::Tensor& x, const MatMulPlan& plan) {
    const auto& target = graph.getTarget();
    const std::size_t N = x.dim(0), K = x.dim(1);
    const std::size_t group = cycles::weightsPerConvUnit(target, x.elementType());
    const std::size_t grain = minimumRegroupGrain(target, x.elementType());
    for (const auto& n : ranges(N, plan.blockN))
        for (const auto& k : ranges(K, plan.blockK)) {
            const ReaderGrid grid =
                readerGrid(n.end - n.begin, k.end - k.begin, plan.splitM, group, grain);
            for (std::size_t i = 0; i < plan.splitM; ++i) {
                const auto [r, c] = readerRectangle(n, k, grid, i);
                if (r.begin == r.end || c.begin == c.end)
                    continue;
                graph.setTileMapping(x.slice({r.begin, c.begin}, {r.end, c.end}),
                                     plan.tileOf(i, k.index, n.index));
            }
        }
}

poplar::Tensor rearrangeInput(poplar::Graph& graph, const poplar::Tensor& B, const MatMulPlan& plan,
                              poplar::program::Sequence& prog, PoplibsOpDebugInfo& di) {
    const auto& target = graph.getTarget();
    const poplar::Type type = B.elementType();
    const std::size_t K = B.dim(0), N = B.dim(1);
    poplar::Tensor source = B.transpose();

    // The regroup (popops::rearrange::regroupTensor): B's groups along N ("from") become groups
    // along K ("to"), the input channels the AMP wants innermost, in groups as PopLibs creates
    // the input (the plan's input channels per group, here a conv unit's weights, or fewer when
    // they do not divide K). Both must be multiples of the type's grain, or PopLibs does not
    // regroup and leaves the rearrangement to the copy.
    const std::size_t grain = minimumRegroupGrain(target, type);
    std::size_t from = columnGrouping(graph, B);
    std::size_t to = std::gcd(cycles::weightsPerConvUnit(target, type), K);
    if (from % grain == 0 && to % grain == 0) {
        refineGrouping(target, K * N, grain, from, to);
        const std::size_t transpositions = (K / to) * (N / from);
        const poplar::Tensor grouped = B.reshape({K / to, to, N / from, from})
                                           .dimShuffle({0, 2, 1, 3})
                                           .reshape({transpositions, to * from});
        poplar::Tensor preRegroup =
            graph.addVariable(type, {transpositions, to * from}, {di, "preRegroup"});
        poplar::Tensor transposed =
            graph.addVariable(type, {transpositions, from * to}, {di, "partialTranspose"});
        // Each transposition stays on the IPU of its first element; an IPU's transpositions are
        // spread evenly over all its tiles, consecutive ones together.
        const unsigned tilesPerIpu = target.getTilesPerIPU();
        const unsigned ipus = std::max(1u, target.getNumTiles() / tilesPerIpu);
        std::vector<std::vector<std::size_t>> onIpu(ipus);
        {
            std::vector<unsigned> ipuOf(K * N, 0);
            const auto mapping = graph.getTileMapping(B, false);
            for (unsigned tile = 0; tile < mapping.size(); ++tile)
                for (const auto& interval : mapping[tile])
                    for (auto e = interval.begin(); e < interval.end(); ++e)
                        ipuOf[e] = std::min(ipus - 1, tile / tilesPerIpu);
            for (std::size_t t = 0; t < transpositions; ++t)
                onIpu[ipuOf[(t / (N / from)) * to * N + (t % (N / from)) * from]].push_back(t);
        }
        const unsigned start = regroupStartTile(K, N, from, to, tilesPerIpu);
        poplar::ComputeSet cs = graph.addComputeSet({di, "PreArrange"});
        for (unsigned ipu = 0; ipu < ipus; ++ipu) {
            const auto& list = onIpu[ipu];
            const std::size_t perTile = ceilDiv(list.size(), tilesPerIpu);
            for (std::size_t i = 0; i * perTile < list.size(); ++i) {
                const unsigned tile =
                    ipu * tilesPerIpu + static_cast<unsigned>((start + i) % tilesPerIpu);
                std::vector<poplar::Tensor> srcs, dsts;
                for (std::size_t j = i * perTile; j < std::min(list.size(), (i + 1) * perTile);
                     ++j) {
                    graph.setTileMapping(preRegroup[list[j]], tile);
                    graph.setTileMapping(transposed[list[j]], tile);
                    srcs.push_back(preRegroup[list[j]]);
                    dsts.push_back(transposed[list[j]]);
                }
                addTranspositions(graph, cs, srcs, dsts, to, from, tile);
            }
        }
        prog.add(poplar::program::Copy(grouped, preRegroup, false, {di}));
        prog.add(poplar::program::Execute(cs, {di}));
        // Ungrouped: {K/to, N/from, from, to} -> {N, K}, K innermost in groups of `to`.
        source = transposed.reshape({K / to, N / from, from, to})
                     .dimShuffle({1, 2, 0, 3})
                     .reshape({N, K});
    }
    poplar::Tensor rearranged = graph.addVariable(type, {N, K}, {di, "inputRearranged"});
    mapPlannedInput(graph, rearranged, plan);
    prog.add(poplar::program::Copy(source, rearranged, false, {di}));
    return rearranged;
}

} // namespace tilescope::poplibs
