// PopLibs' embedding planner (popops::embedding::plan, lib/popops/DynamicSlice.cpp: its
// constructModel, choosePlan and planInternal), for one group. PopLibs builds a popsolver model
// over three splits and minimises the estimated cycles (PopART asks for that objective:
// planMinimisationTarget=cycles in its sliceplanx.cpp); the same model is written out here and
// every candidate split evaluated, which is what the solver's search amounts to for three
// variables. The cost terms and their names follow PopLibs'; the vertex estimates are PopLibs'
// getMultiSliceCycleEstimate and getMultiUpdateOpCycleEstimate (popops/SliceCycles.hpp), the
// exchange PopLibs' ExchangeEstimator, the reduction modelBalancedIntertileReduction.

#include "common/CycleEstimates.hpp"
#include "popops/ElementWiseCycles.hpp"
#include "popops/SliceCycles.hpp"
#include "popops/SlicePlanInternal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <poplar/exceptions.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace popops {

namespace pc = tilescope::poplibs::cycles;

namespace {

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
    return (a + b - 1) / b;
}

/// The splits b of [1, limit] that popsolver's ceildivConstrainDivisor(a, b) allows: the
/// smallest divisor giving each quotient ceil(a / b), so no two splits share a quotient.
std::vector<std::uint64_t> canonicalSplits(std::uint64_t a, std::uint64_t limit) {
    std::vector<std::uint64_t> out;
    for (std::uint64_t b = 1; b <= a && b <= limit;) {
        const std::uint64_t q = ceilDiv(a, b);
        out.push_back(ceilDiv(a, q));
        if (q == 1)
            break;
        b = ceilDiv(a, q - 1);
    }
    return out;
}

/// PopLibs' ExchangeEstimator: bytes over the target's exchange bytes per cycle, both scaled by
/// exchangeBytesScalingFactor (16) so the solver's integers keep the fraction.
std::uint64_t exchangeCycles(const poplar::Target& target, std::uint64_t bytes) {
    constexpr std::uint64_t kScale = 16; // exchangeBytesScalingFactor
    const std::uint64_t scaledRate = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::llround(target.getExchangeBytesPerCycle() * 16.0)));
    return ceilDiv(bytes * kScale, scaledRate);
}

/// In-range indices per worker when the indices are spread uniformly over `numEntries` and a
/// worker sees `entries` of them (PopLibs: ceil(offsets * entries / numEntries)); all of them
/// with the onePoint distribution.
std::uint64_t inRange(std::uint64_t offsets, std::uint64_t entries, std::uint64_t numEntries,
                      bool onePoint) {
    if (onePoint)
        return offsets;
    return static_cast<std::uint64_t>(
        std::ceil(double(offsets) * double(entries) / double(numEntries)));
}

/// PopLibs' minIndicesPerTile: indices are allocated linearly, at least this many per tile.
constexpr std::uint64_t kMinIndicesPerTile = 32;

} // namespace

namespace detail {

EmbeddingEstimates estimateEmbedding(const poplar::Target& target, const poplar::Type& type,
                                     const SlicePlanInternal& p,
                                     const EmbeddingPlanOptions& options) {
    EmbeddingEstimates e;
    const std::uint64_t workers = target.getNumWorkerContexts();
    const std::uint64_t tiles = target.getNumTiles();
    const std::uint64_t elemBytes = target.getTypeSize(type);
    // PopLibs' partialTypeToUse: the data type unless a partialType option is given.
    const poplar::Type partialType = type;
    const std::uint64_t partialBytes = elemBytes;
    const std::uint64_t indexBytes = target.getTypeSize(poplar::UNSIGNED_INT);
    const std::uint64_t grain = p.unslicedGrain, bytesPerGrain = grain * elemBytes;
    const std::uint64_t numEntries = p.numEntries,
                        numIndices = std::max<std::size_t>(1, p.numLookups);
    const std::uint64_t grains = ceilDiv(p.elemsPerEntry, grain);
    const std::uint64_t grainsPerTile = ceilDiv(grains, p.unslicedSplit);
    const std::uint64_t entriesPerTile = ceilDiv(numEntries, p.slicedSplit);
    const std::uint64_t lookupsPerTile = ceilDiv(numIndices, p.lookupSplit);
    const std::uint64_t elemsPerTile = grainsPerTile * grain;
    const bool dictIsSplit = p.slicedSplit > 1, lookupsAreSplit = p.lookupSplit > 1;

    const std::uint64_t baseGrainsPerTile = grainsPerTile * entriesPerTile;
    const std::uint64_t baseBytesPerTile = baseGrainsPerTile * bytesPerGrain;
    // The table is stored spread over the lookup groups' tiles.
    const std::uint64_t baseGrainsStoragePerTile = ceilDiv(baseGrainsPerTile, p.lookupSplit);
    e.baseStorageBytesPerTile = baseGrainsStoragePerTile * bytesPerGrain;
    // internal.alwaysIncludeBaseRearrangementCost (default true): a table spread less evenly than
    // over every tile is charged as if it had to be copied to the plan's tiles (T46394).
    const std::uint64_t perfectBytes = ceilDiv(numEntries * grains, tiles) * bytesPerGrain;
    const std::uint64_t baseDiffBytes =
        baseBytesPerTile > perfectBytes ? baseBytesPerTile - perfectBytes : 0;

    const std::uint64_t secondStageLookups = ceilDiv(lookupsPerTile, p.slicedSplit);
    const std::uint64_t outputElemsPerTile = secondStageLookups * grainsPerTile * grain;
    (void)outputElemsPerTile; // a cast of the slices needs it; partials are the data type here

    std::uint64_t sliceTemp = 0, updateTemp = 0;
    if (options.usedForSlice) {
        const std::uint64_t baseTemp =
            std::max(lookupsAreSplit ? baseBytesPerTile : 0, baseDiffBytes);
        e.sliceFirstStageExchange = exchangeCycles(target, baseTemp);
        const std::uint64_t offsets0 = ceilDiv(lookupsPerTile, workers);
        e.sliceFirstStageCompute = pc::multiSliceWorker(
            target, type, elemsPerTile, offsets0,
            inRange(offsets0, entriesPerTile, numEntries, options.onePointIndices));
        if (dictIsSplit) {
            e.sliceSecondStageExchange = exchangeCycles(target, p.slicedSplit * secondStageLookups *
                                                                    grainsPerTile * bytesPerGrain);
            // PopLibs passes the grains per tile as the slice's elements here.
            const std::uint64_t offsets1 = ceilDiv(secondStageLookups, workers);
            e.sliceSecondStageCompute = pc::multiSliceWorker(
                target, type, grainsPerTile, offsets1,
                inRange(offsets1, entriesPerTile, numEntries, options.onePointIndices));
        }
        e.sliceTotal = e.sliceFirstStageExchange + e.sliceFirstStageCompute +
                       e.sliceSecondStageExchange + e.sliceSecondStageCompute;
        const std::uint64_t firstOut =
            dictIsSplit ? lookupsPerTile * grainsPerTile * bytesPerGrain : 0;
        const std::uint64_t secondIn =
            dictIsSplit ? p.slicedSplit * secondStageLookups * grainsPerTile * bytesPerGrain : 0;
        sliceTemp = std::max(baseTemp + firstOut + lookupsPerTile * indexBytes,
                             firstOut + secondIn + secondStageLookups * indexBytes);
    }
    if (options.usedForUpdate) {
        const std::string& op = options.operationForUpdate;
        e.updateRearrangeBase = 2 * exchangeCycles(target, baseDiffBytes);
        const std::uint64_t partialElemsPerTile = entriesPerTile * grainsPerTile * grain;
        // modelContiguousFill of the partials (FLOAT), spread over the workers.
        if (lookupsAreSplit)
            e.updateZeroPartials =
                workers * pc::fill(target, poplar::FLOAT, ceilDiv(partialElemsPerTile, workers));
        const std::uint64_t updatesTempBytes =
            dictIsSplit ? lookupsPerTile * grainsPerTile * grain * partialBytes : 0;
        e.updateFirstStageExchange = exchangeCycles(target, updatesTempBytes);
        // getMultiSliceUpdateOpMaxElemsPerWorker: the entries split over the workers.
        const std::uint64_t entriesPerWorker = ceilDiv(entriesPerTile, workers);
        const std::uint64_t inRangeUpdate =
            inRange(lookupsPerTile, entriesPerWorker, numEntries, options.onePointIndices);
        if (op == "none") {
            e.updateFirstStageCompute =
                pc::multiSliceWorker(target, type, elemsPerTile, lookupsPerTile, inRangeUpdate);
        } else {
            e.updateFirstStageCompute =
                workers * pc::multiUpdateOpWorker(target, partialType, elemsPerTile, lookupsPerTile,
                                                  inRangeUpdate, true) +
                pc::kMultiUpdateOpSupervisor;
            if (lookupsAreSplit) {
                // modelBalancedIntertileReduction (FLOAT inputs and partials): every tile
                // receives its share of the outputs from each lookup group and reduces them.
                const std::uint64_t outputsPerTile = ceilDiv(partialElemsPerTile, p.lookupSplit);
                e.updateReduceExchange = exchangeCycles(
                    target, p.lookupSplit * outputsPerTile * target.getTypeSize(poplar::FLOAT));
                const std::uint64_t width = target.getVectorWidth(poplar::FLOAT);
                const std::uint64_t perWorker = ceilDiv(ceilDiv(outputsPerTile, width), workers);
                const std::uint64_t outputsPerWorker = std::min(outputsPerTile, perWorker * width);
                e.updateReduceCompute =
                    workers * pc::reduceStrided(target, poplar::FLOAT, poplar::FLOAT,
                                                op == "add" ? pc::ReduceOpClass::Add
                                                            : pc::ReduceOpClass::MaxMin,
                                                outputsPerWorker, p.lookupSplit, outputsPerTile);
                const std::uint64_t storageElems = baseGrainsStoragePerTile * grain;
                e.updateFinalElemwise =
                    op == "add"
                        ? workers * pc::scaledAddWorkerCycles(target, poplar::FLOAT,
                                                              ceilDiv(storageElems, workers))
                        : ceilDiv(storageElems, target.getVectorWidth(type));
            }
        }
        e.updateTotal = e.updateRearrangeBase + e.updateZeroPartials + e.updateFirstStageExchange +
                        e.updateFirstStageCompute + e.updateReduceExchange + e.updateReduceCompute +
                        e.updateFinalElemwise;
        const std::uint64_t partialsBytes =
            lookupsAreSplit ? partialElemsPerTile * partialBytes : 0;
        updateTemp = baseDiffBytes +
                     std::max({updatesTempBytes,
                               updatesTempBytes + partialsBytes + lookupsPerTile * indexBytes,
                               2 * partialsBytes});
    }
    e.totalCycles = e.sliceTotal + e.updateTotal;
    e.peakTempBytes = std::max(sliceTemp, updateTemp);
    return e;
}

SlicePlanInternal planEmbedding(const poplar::Target& target, const poplar::Type& type,
                                std::size_t numEntries, std::size_t elemsPerEntry,
                                std::size_t numLookups, const EmbeddingPlanOptions& options) {
    if (!options.usedForSlice && !options.usedForUpdate)
        throw poplar::invalid_option("popops::embedding::plan: options 'usedForSlice' and "
                                     "'usedForUpdate' are both false");
    SlicePlanInternal p;
    p.isNull = false;
    p.numEntries = numEntries;
    p.elemsPerEntry = elemsPerEntry;
    p.numLookups = std::max<std::size_t>(1, numLookups);
    p.usedForSlice = options.usedForSlice;
    p.usedForUpdate = options.usedForUpdate;
    p.operationForUpdate = options.operationForUpdate;
    if (numEntries == 0 || elemsPerEntry == 0)
        return p;
    // The unsliced grain: the fewest elements filling a whole data-path word (64 bits), capped
    // at the entry's size: 4 HALFs, 2 FLOATs (PopLibs: ceil(lcm(dataPathWidth / 8, element
    // size) / element size), min(outputSize, grain)).
    const std::size_t elemBytes = target.getTypeSize(type);
    const std::size_t wordBytes = target.getDataPathWidth() / 8;
    p.unslicedGrain =
        options.unslicedGrainSize
            ? options.unslicedGrainSize
            : static_cast<unsigned>(std::min(
                  elemsPerEntry, (std::lcm(wordBytes, elemBytes) + elemBytes - 1) / elemBytes));
    const std::uint64_t tiles = target.getNumTiles();
    const std::uint64_t grains = ceilDiv(elemsPerEntry, p.unslicedGrain);
    // Splits leaving fewer than 2 entries per tile are not allowed; nor are split lookups for an
    // update without an operation (no reduction would be valid).
    auto unsliced = canonicalSplits(grains, tiles);
    auto sliced = canonicalSplits(numEntries, ceilDiv(numEntries, 2));
    const std::uint64_t maxLookupSplit =
        options.usedForUpdate && options.operationForUpdate == "none" ? 1 : p.numLookups;
    auto lookups = canonicalSplits(p.numLookups, maxLookupSplit);
    // planConstraints fix a split (PopLibs' applyPlanConstraints: m.equal).
    if (options.unslicedDimSplit)
        unsliced = {options.unslicedDimSplit};
    if (options.slicedDimSplit)
        sliced = {options.slicedDimSplit};
    if (options.lookupSplit)
        lookups = {options.lookupSplit};
    const double tempLimit = options.availableMemoryProportion * double(target.getBytesPerTile());
    // PopLibs plans with the temporary-memory limit first and without it if nothing fits. Ties
    // go to the first split popsolver meets: fewest unsliced, then sliced, then lookup splits.
    for (bool limitTemp : {true, false}) {
        bool found = false;
        SlicePlanInternal best = p;
        for (auto u : unsliced)
            for (auto s : sliced) {
                if (u * s > tiles)
                    break;
                for (auto l : lookups) {
                    if (u * s * l > tiles)
                        break;
                    SlicePlanInternal c = p;
                    c.unslicedSplit = static_cast<unsigned>(u);
                    c.slicedSplit = static_cast<unsigned>(s);
                    c.lookupSplit = static_cast<unsigned>(l);
                    c.estimates = estimateEmbedding(target, type, c, options);
                    if (limitTemp && double(c.estimates.peakTempBytes) > tempLimit)
                        continue;
                    if (!found || c.estimates.totalCycles < best.estimates.totalCycles) {
                        best = c;
                        found = true;
                    }
                }
            }
        if (found)
            return best;
    }
    throw poplar::invalid_option("popops::embedding::plan: no split of " +
                                 std::to_string(numEntries) + " x " +
                                 std::to_string(elemsPerEntry) + " over " + std::to_string(tiles) +
                                 " tiles satisfies the planConstraints");
}

} // namespace detail

} // namespace popops
