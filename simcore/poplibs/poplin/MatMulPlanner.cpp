#include "poplin/MatMulPlanner.hpp"

#include "common/CycleEstimates.hpp"
#include "poplin/ConvReduce.hpp"
#include "poplin/MatMulLayout.hpp"
#include "popops/Transpose2d.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace tilescope::poplibs {

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

/// Bytes a worker copies per thread cycle on its tile: one 64-bit load and store (the tile's
/// 64-bit data path, as simcore's CostModel::copyBytesPerThreadCycle).
constexpr std::uint64_t kCopyBytesPerCycle = 8;

// The planner ranks plans with PopLibs' planner's terms (lib/poplin/ConvPlan.cpp, SDK 2.x:
// addEstimates sums addExchangeCycleEstimate, addPartialCalcCycleEstimate and
// addReduceCycleEstimate; a 1x1 product in whole input-channel groups has no zero padding, and
// in place of addTransformCycleEstimate the regroup TileScope builds is costed).
// CALIBRATION-NOTES.md compares the terms one by one.
/// Tile cycles of the AMP work of one m x k x n block: A's rows are the convolution's output
/// channels, B's columns its field (see MatMul.cpp). PopLibs' addPartialCalcCycleEstimate costs a
/// tile's partials as one ConvPartial1x1Out supervisor looping over all of the tile's output-
/// channel groups (getConvPartial1x1SupervisorOuterLoopCycleEstimate with tileNumOutGroups), so
/// the supervisor's fixed cost is paid once per tile, not once per group.
std::uint64_t ampTileCycles(const poplar::Target& target, const poplar::Type& inputType,
                            const poplar::Type& partialsType, std::size_t m, std::size_t k,
                            std::size_t n, bool use128BitConvUnitLoad) {
    return cycles::convPartial1x1(target, inputType, partialsType, n, k, m, 1,
                                  use128BitConvUnitLoad);
}

} // namespace

/// The distinct (split, block) pairs of a dimension of `size` cut in blocks of whole `grain`s
/// (the last block may be smaller), splits up to `maxSplit`, by increasing split.
std::vector<std::pair<std::size_t, std::size_t>> blockSizes(std::size_t size, std::size_t grain,
                                                            std::size_t maxSplit) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    const std::size_t grains = ceilDiv(size, grain);
    for (std::size_t parts = 1; parts <= grains; ++parts) {
        const std::size_t block = std::min(size, ceilDiv(grains, parts) * grain);
        const std::size_t split = ceilDiv(size, block);
        if (split > maxSplit)
            break;
        if (out.empty() || out.back().second != block)
            out.emplace_back(split, block);
    }
    return out;
}

std::string MatMulPlan::describe() const {
    return "split M/K/N " + std::to_string(splitM) + "/" + std::to_string(splitK) + "/" +
           std::to_string(splitN) + ", block " + std::to_string(blockM) + "x" +
           std::to_string(blockK) + "x" + std::to_string(blockN);
}

MatMulPlan planMatMul(const poplar::Target& target, const poplar::Type& inputType,
                      const poplar::Type& partialsType, std::size_t M, std::size_t K, std::size_t N,
                      double availableMemoryProportion, bool use128BitConvUnitLoad) {
    const std::size_t tiles = target.getNumTiles();
    const std::uint64_t inBytes = target.getTypeSize(inputType);
    const std::uint64_t partialBytes = target.getTypeSize(partialsType);
    const std::uint64_t exchangeRate = target.spec().exchangeBytesPerCycle;
    const auto limit =
        static_cast<std::uint64_t>(availableMemoryProportion * double(target.getBytesPerTile()));

    // PopLibs splits channels in whole groups (its planner's grain sizes): A's rows, the
    // output channels, in groups of the conv units; K, the input channels, in groups of the
    // weights a conv unit holds; B's columns, the field, element by element.
    const auto mBlocks = blockSizes(M, cycles::numConvUnits(target, inputType), tiles);
    const std::size_t inGroup = cycles::weightsPerConvUnit(target, inputType);
    const auto kBlocks = blockSizes(K, inGroup, tiles);
    const std::size_t grain = minimumRegroupGrain(target, inputType);
    const std::size_t weightGroup = cycles::numConvUnits(target, inputType) * inGroup;
    const auto nBlocks = blockSizes(N, 1, tiles);
    MatMulPlan best, smallest;
    bool haveBest = false, haveSmallest = false;
    for (const auto& [sm, bm] : mBlocks)
        for (const auto& [sn, bn] : nBlocks) {
            if (sm * sn > tiles)
                break;
            for (const auto& [sk, bk] : kBlocks) {
                if (sm * sn * sk > tiles)
                    break;
                MatMulPlan p;
                p.splitM = sm, p.splitK = sk, p.splitN = sn;
                p.use128BitConvUnitLoad = use128BitConvUnitLoad;
                p.blockM = bm, p.blockK = bk, p.blockN = bn;
                // Each tile receives its A and B blocks while it sends its share of them to the
                // tiles of its row (A) and column (B) of the plan. PopLibs'
                // addExchangeCycleEstimate charges the received input elements (B's block) and
                // weights (A's block) less the share already on the tile (1/splitM of the input
                // elements, 1/splitN of the weights, "distributed evenly across all tiles that
                // require them"), each at the target's rate. TileScope's exchange also takes the
                // busier of a tile's two directions (CostModel::exchangeCycles), so the sends of
                // its shares bound it from below: a B block's share is the largest rectangle of
                // its readers' grid (MatMulLayout.cpp), an A block's one of the shares in whole
                // weight groups createMatMulInputLHS deals out. PopLibs has no send term.
                const ReaderGrid grid = readerGrid(bn, bk, sm, inGroup, grain);
                const std::uint64_t bShare = grid.rowsPerPart * grid.columnsPerPart;
                const std::uint64_t aShare = std::min<std::uint64_t>(
                    bm * bk, ceilDiv(ceilDiv(bm * bk, sn), weightGroup) * weightGroup);
                // With A's row blocks innermost in the tile order (MatMulPlan::tileOf) and an
                // even split of them, the two tiles of each super tile receive the same B block
                // together, at twice the rate (PopLibs' ExchangeEstimator multiplier for the
                // input elements, ConvPlan.cpp).
                const std::uint64_t busShare =
                    target.supportsExchangeBusSharing() &&
                            sm % target.getTilesPerSharedExchangeBus() == 0
                        ? target.getTilesPerSharedExchangeBus()
                        : 1;
                const std::uint64_t inputElements = bk * bn - bk * bn / sm;
                const std::uint64_t weights = bm * bk - bm * bk / sn;
                const std::uint64_t received =
                    ceilDiv(inputElements * inBytes, exchangeRate * busShare) +
                    ceilDiv(weights * inBytes, exchangeRate);
                // A tile's shares are multicast: sent once, whoever reads them.
                const std::uint64_t sent = ceilDiv((bShare + aShare) * inBytes, exchangeRate);
                const std::uint64_t exchange = std::max(received, sent);
                const std::uint64_t amp = ampTileCycles(target, inputType, partialsType, bm, bk, bn,
                                                        use128BitConvUnitLoad);
                // The partials (PopLibs' addExchangeCycleEstimate and addReduceCycleEstimate:
                // every tile's m x n partials exchanged, then estimateConvReduceCycles for the
                // splitK-deep sums of its share of the outputs).
                const std::uint64_t partialsExchange =
                    partialSumExchangeCycles(bm * bn, unsigned(sk), partialBytes, exchangeRate);
                std::uint64_t reduction = 0;
                if (sk > 1) {
                    const std::uint64_t outputsPerTile = ceilDiv(bm * bn, sk);
                    reduction = reducePartialsTileCycles(target, partialsType, partialsType,
                                                         outputsPerTile, unsigned(sk));
                }
                // A row-major B is first rearranged (MatMulLayout.cpp, as PopLibs' regroup):
                // groups gathered onto the IPU's tiles, transposed there, then each reader
                // receives its share of the planned layout. The plan is keyed by shapes only
                // (createMatMulInputRHS shares it), so it is costed for the common case, a B the
                // program laid out itself, with transpositions of one input-channel group
                // square; only the share depends on the plan.
                const std::uint64_t share = ceilDiv(bn * bk, sm);
                const std::uint64_t gathered = ceilDiv(K * N, tiles);
                const std::uint64_t groupRows = std::min<std::uint64_t>(K, inGroup);
                const std::uint64_t transpositions = ceilDiv(gathered, groupRows * groupRows);
                // The share arrives in pieces of the transposed groups and is laid out on the
                // reader by an on-tile copy, a 64-bit load and store per thread cycle.
                const std::uint64_t layout =
                    target.getNumWorkerContexts() * ceilDiv(share * inBytes, kCopyBytesPerCycle);
                const std::uint64_t prearrange =
                    (gathered + share) * inBytes / exchangeRate + layout +
                    target.getNumWorkerContexts() *
                        transpose2dCycles(inputType, groupRows, groupRows,
                                          ceilDiv(transpositions, target.getNumWorkerContexts()));
                p.estimatedCycles = exchange + amp + partialsExchange + reduction + prearrange;
                p.bytesPerTile = (bm * bk + bk * bn) * inBytes + bm * bn * partialBytes;
                p.fitsMemory = p.bytesPerTile <= limit;
                if (p.fitsMemory && (!haveBest || p.estimatedCycles < best.estimatedCycles)) {
                    best = p;
                    haveBest = true;
                }
                if (!haveSmallest || p.bytesPerTile < smallest.bytesPerTile) {
                    smallest = p;
                    haveSmallest = true;
                }
            }
        }
    return haveBest ? best : smallest;
}

} // namespace tilescope::poplibs
