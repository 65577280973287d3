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

std::size_t innermostGrouping(const poplar::Graph& graph, const poplar::Tensor& x) {
    const std::size_t R = x.dim(1);
    std::size_t g = R;
    // Runs of contiguous memory: a group may not straddle two.
    std::uint64_t flat = 0;
    for (const auto& r : x.view().ranges) {
        g = std::gcd(g, std::size_t(flat % R));
        flat += r.size();
        g = std::gcd(g, std::size_t(flat % R));
        if (g == 1)
            return 1;
    }
    // Nor two tiles. Elements not mapped yet are skipped: compiling reports them.
    for (const auto& intervals : graph.getTileMapping(x, false))
        for (const auto& interval : intervals) {
            g = std::gcd(g, interval.begin() % R);
            g = std::gcd(g, interval.end() % R);
            if (g == 1)
                return 1;
        }
    return g;
}

void mapPlannedWeights(poplar::Graph& graph, const poplar::Tensor& a, const MatMulPlan& plan) {
    // Each block of A is read by the tiles of one row of the plan (all n); its elements are
    // spread over those tiles so that each sends a share of the block rather than one tile
    // sending every copy, in shares of whole weight groups (PopLibs maps weights by their
    // grouping), so a small block comes from a few tiles rather than one message per reader.
    const auto& target = graph.getTarget();
    const std::size_t readers = plan.splitN;
    const std::size_t grain = cycles::numConvUnits(target, a.elementType()) *
                              cycles::weightsPerConvUnit(target, a.elementType());
    for (const auto& r : ranges(a.dim(0), plan.blockM))
        for (const auto& c : ranges(a.dim(1), plan.blockK)) {
            const poplar::Tensor block = a.slice({r.begin, c.begin}, {r.end, c.end}).flatten();
            const std::size_t share = ceilDiv(ceilDiv(block.numElements(), readers), grain) * grain;
            for (std::size_t i = 0; i < readers && i * share < block.numElements(); ++i)
                graph.setTileMapping(
                    block.slice(i * share, std::min(block.numElements(), (i + 1) * share)),
                    plan.tileOf(r.index, c.index, i));
        }
}

poplar::Tensor ProductPreArrangement::regroup(const poplar::Tensor& x, std::size_t from,
                                              std::size_t to) {
    const auto& target = graph_.getTarget();
    const poplar::Type type = x.elementType();
    const std::size_t C = x.dim(0), R = x.dim(1);
    refineGrouping(target, C * R, minimumRegroupGrain(target, type), from, to);
    const std::size_t transpositions = (C / to) * (R / from);
    const poplar::Tensor grouped = x.reshape({C / to, to, R / from, from})
                                       .dimShuffle({0, 2, 1, 3})
                                       .reshape({transpositions, to * from});
    poplar::Tensor preRegroup =
        graph_.addVariable(type, {transpositions, to * from}, {di_, "preRegroup"});
    poplar::Tensor transposed =
        graph_.addVariable(type, {transpositions, from * to}, {di_, "partialTranspose"});
    // Each transposition stays on the IPU of its first element; an IPU's transpositions are
    // spread evenly over all its tiles from its first, consecutive ones together, as SDK 2.x's
    // regroupTensor does (PopLibs later dithers the first tile with a hash of the shape and
    // groupings, against a memory spike on tile 0; SDK 2.x does not).
    const unsigned tilesPerIpu = target.getTilesPerIPU();
    const unsigned ipus = std::max(1u, target.getNumTiles() / tilesPerIpu);
    std::vector<std::vector<std::size_t>> onIpu(ipus);
    {
        std::vector<unsigned> ipuOf(C * R, 0);
        const auto mapping = graph_.getTileMapping(x, false);
        for (unsigned tile = 0; tile < mapping.size(); ++tile)
            for (const auto& interval : mapping[tile])
                for (auto e = interval.begin(); e < interval.end(); ++e)
                    ipuOf[e] = std::min(ipus - 1, tile / tilesPerIpu);
        for (std::size_t t = 0; t < transpositions; ++t)
            onIpu[ipuOf[(t / (R / from)) * to * R + (t % (R / from)) * from]].push_back(t);
    }
    if (!haveTransposes_) {
        transposes_ = graph_.addComputeSet({di_, "PreArrange"});
        haveTransposes_ = true;
    }
    for (unsigned ipu = 0; ipu < ipus; ++ipu) {
        const auto& list = onIpu[ipu];
        const std::size_t perTile = ceilDiv(list.size(), tilesPerIpu);
        for (std::size_t i = 0; i * perTile < list.size(); ++i) {
            const unsigned tile = ipu * tilesPerIpu + static_cast<unsigned>(i % tilesPerIpu);
            std::vector<poplar::Tensor> srcs, dsts;
            for (std::size_t j = i * perTile; j < std::min(list.size(), (i + 1) * perTile); ++j) {
                graph_.setTileMapping(preRegroup[list[j]], tile);
                graph_.setTileMapping(transposed[list[j]], tile);
                srcs.push_back(preRegroup[list[j]]);
                dsts.push_back(transposed[list[j]]);
            }
            addTranspositions(graph_, transposes_, srcs, dsts, to, from, tile);
        }
    }
    gatherSources_.push_back(grouped.flatten());
    gatherDestinations_.push_back(preRegroup.flatten());
    // Ungrouped: {C/to, R/from, from, to} -> {R, C}, C innermost in groups of `to`.
    return transposed.reshape({C / to, R / from, from, to})
        .dimShuffle({1, 2, 0, 3})
        .reshape({R, C});
}

poplar::Tensor ProductPreArrangement::input(const poplar::Tensor& B, const MatMulPlan& plan) {
    const auto& target = graph_.getTarget();
    const poplar::Type type = B.elementType();
    const std::size_t K = B.dim(0), N = B.dim(1);
    poplar::Tensor source = B.transpose();
    // The regroup (popops::rearrange::regroupTensor): B's groups along N ("from") become groups
    // along K ("to"), the input channels the AMP wants innermost, in groups as PopLibs creates
    // the input (the plan's input channels per group, here a conv unit's weights, or fewer when
    // they do not divide K). Both must be multiples of the type's grain, or PopLibs does not
    // regroup and leaves the rearrangement to the copy.
    const std::size_t grain = minimumRegroupGrain(target, type);
    const std::size_t from = innermostGrouping(graph_, B);
    const std::size_t to = std::gcd(cycles::weightsPerConvUnit(target, type), K);
    if (from % grain == 0 && to % grain == 0)
        source = regroup(B, from, to);
    poplar::Tensor rearranged = graph_.addVariable(type, {N, K}, {di_, "inputRearranged"});
    mapPlannedInput(graph_, rearranged, plan);
    planSources_.push_back(source.flatten());
    planDestinations_.push_back(rearranged.flatten());
    return rearranged;
}

poplar::Tensor ProductPreArrangement::weights(const poplar::Tensor& A, const MatMulPlan& plan) {
    const auto& target = graph_.getTarget();
    const poplar::Type type = A.elementType();
    const std::size_t M = A.dim(0), K = A.dim(1);
    // A's rows grouped innermost (A^T's rows in contiguous groups along M): the layout of a
    // product's result. PopLibs then finds the weights' innermost grouping is not their input
    // channels and regroups them (rearrangeWeights, regroupIfBeneficial).
    const std::size_t grain = minimumRegroupGrain(target, type);
    const std::size_t from = M > 1 && K > 1 ? innermostGrouping(graph_, A.transpose()) : 1;
    const std::size_t to = std::gcd(cycles::weightsPerConvUnit(target, type), K);
    if (from == 1 || from % grain != 0 || to % grain != 0)
        return A;
    const poplar::Tensor source = regroup(A.transpose(), from, to);
    poplar::Tensor rearranged = graph_.addVariable(type, {M, K}, {di_, "weightsRearranged"});
    mapPlannedWeights(graph_, rearranged, plan);
    planSources_.push_back(source.flatten());
    planDestinations_.push_back(rearranged.flatten());
    return rearranged;
}

void ProductPreArrangement::lower(poplar::program::Sequence& prog) {
    if (!gatherSources_.empty())
        prog.add(poplar::program::Copy(poplar::concat(gatherSources_),
                                       poplar::concat(gatherDestinations_), false, {di_}));
    if (haveTransposes_)
        prog.add(poplar::program::Execute(transposes_, {di_}));
    if (!planSources_.empty())
        prog.add(poplar::program::Copy(poplar::concat(planSources_),
                                       poplar::concat(planDestinations_), false, {di_}));
}

} // namespace tilescope::poplibs
